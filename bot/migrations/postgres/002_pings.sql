-- Turn pings: each table keeps at most one ping message in its channel (replaced, never piled up), and each
-- user may switch pings off for themselves. (In step with ../sqlite/002_pings.sql.)

ALTER TABLE tables ADD COLUMN ping_message_id BIGINT;

CREATE TABLE user_settings (
    user_id BIGINT  PRIMARY KEY,
    pings   INTEGER NOT NULL DEFAULT 1      -- 1: mention me when my turn comes; 0: don't
);
