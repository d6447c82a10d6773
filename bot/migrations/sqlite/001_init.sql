-- Geotable schema, version 1. Applied by bot/store_sqlite.py at start (PRAGMA user_version counts the files); kept in
-- step with ../postgres/001_init.sql (tests/bot/test_store.py compares both schemas).

CREATE TABLE tables (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL,           -- JSON
    seed        INTEGER NOT NULL,
    status      TEXT    NOT NULL,           -- lobby | playing | finished | ended
    players     TEXT    NOT NULL,           -- JSON list of {"id", "name"}, in seat order once started
    host_id     INTEGER NOT NULL,
    state       TEXT,                       -- the engine's JSON state; NULL in the lobby
    version     INTEGER NOT NULL DEFAULT 0, -- bumped by every accepted change; buttons carry it
    message_id  INTEGER,                    -- the table message in the channel
    last_move   TEXT,                       -- the last move in words, for the board's caption
    end_reason  TEXT,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);
-- one open table per channel
CREATE UNIQUE INDEX tables_open_channel ON tables (channel_id) WHERE status IN ('lobby', 'playing');

CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    ply      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    action   TEXT    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (table_id, ply)
);

-- timers that must survive a restart: 'turn' (the player to act is idle), 'lobby' (nobody starts it)
CREATE TABLE deadlines (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    kind     TEXT    NOT NULL,
    due_at   REAL    NOT NULL,
    PRIMARY KEY (table_id, kind)
);

CREATE TABLE guild_settings (
    guild_id         INTEGER PRIMARY KEY,
    turn_timeout     INTEGER,            -- seconds; NULL: the bot's default
    allowed_channels TEXT                -- JSON list of channel ids; NULL: everywhere
);

CREATE TABLE results (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (id),
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    standings   TEXT    NOT NULL,        -- JSON
    finished_at REAL    NOT NULL
);

-- A move is one INSERT into this view, so the version check, the new state, the action log, the turn
-- deadline and the result are written by one statement: atomic, and one trip to the database thread.
CREATE VIEW moves AS
SELECT 0 AS table_id, 0 AS version, '' AS state, '' AS status, 0 AS ply, 0 AS seat, '' AS action, 0.0 AS at,
       '' AS last_move,
       NULL AS due_at, NULL AS standings;

CREATE TRIGGER moves_insert INSTEAD OF INSERT ON moves
BEGIN
    SELECT RAISE(ABORT, 'stale version')
     WHERE (SELECT version FROM tables WHERE id = NEW.table_id) IS NOT NEW.version;
    UPDATE tables
       SET state = NEW.state, version = NEW.version + 1, status = NEW.status, updated_at = NEW.at,
           last_move = NEW.last_move
     WHERE id = NEW.table_id;
    INSERT INTO actions (table_id, ply, seat, action, at)
    VALUES (NEW.table_id, NEW.ply, NEW.seat, NEW.action, NEW.at);
    DELETE FROM deadlines WHERE table_id = NEW.table_id AND kind = 'turn';
    INSERT INTO deadlines (table_id, kind, due_at)
    SELECT NEW.table_id, 'turn', NEW.due_at WHERE NEW.due_at IS NOT NULL;
    INSERT INTO results (table_id, guild_id, game, standings, finished_at)
    SELECT id, guild_id, game, NEW.standings, NEW.at FROM tables
     WHERE id = NEW.table_id AND NEW.standings IS NOT NULL;
END;
