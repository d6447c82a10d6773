-- Turn pings: each table keeps at most one ping message in its channel (replaced, never piled up), and each
-- user may switch pings off for themselves.

ALTER TABLE tables ADD COLUMN ping_message_id INTEGER;

CREATE TABLE user_settings (
    user_id INTEGER PRIMARY KEY,
    pings   INTEGER NOT NULL DEFAULT 1      -- 1: mention me when my turn comes; 0: don't
);
