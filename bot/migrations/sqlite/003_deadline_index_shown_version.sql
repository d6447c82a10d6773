-- Timers read only what is due (an index on due_at), and each table remembers the version its channel
-- message shows, so boards left behind by a crash between the commit and the edit are shown again at start.

CREATE INDEX deadlines_due ON deadlines (due_at);

ALTER TABLE tables ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;

UPDATE tables SET shown_version = version;  -- what exists was shown already
