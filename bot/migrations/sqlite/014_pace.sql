-- Turn-based play (issue 27). `tables.pace`: seconds per move of a turn-based table (NULL: live, the server's
-- turn timeout); `tables.timeout_computer`: what a turn-based table does when a move runs out (0: the table
-- plays it as a live table does; 1: a computer takes the seat). `guild_settings.pace_default`: the pace of a
-- new table (NULL: live), `pace_max`: the longest pace allowed (NULL: the bot's), `away_max`: the longest
-- /game away in days (NULL: the bot's). `away`: a member away from this server's turn-based tables until
-- `until` (their turn deadlines are pushed past it). The deadline kind 'remind' (a fifth of a turn left) needs
-- no change of schema. (In step with ../postgres/014_pace.sql.)

ALTER TABLE tables ADD COLUMN pace INTEGER;
ALTER TABLE tables ADD COLUMN timeout_computer INTEGER NOT NULL DEFAULT 0;

ALTER TABLE guild_settings ADD COLUMN pace_default INTEGER;
ALTER TABLE guild_settings ADD COLUMN pace_max INTEGER;
ALTER TABLE guild_settings ADD COLUMN away_max INTEGER;

CREATE TABLE away (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    until    REAL    NOT NULL,
    since    REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
