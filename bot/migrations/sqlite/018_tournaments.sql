-- Tournaments (issue 28 item 1). ``tournaments``: one per /tournament create, in a server's channel (its one
-- message: ``message_id``), with the game, its options, the format (swiss|knockout), the rounds (swiss: as asked;
-- knockout: set at the start), the table size, the pace (seconds per move, NULL: live), the sign-up deadline and
-- cap; ``status`` signup -> running -> finished, or cancelled / ended; ``version``: compare-and-set (Start pressed
-- twice starts once); ``round``: the round in play (0 before the start). ``tournament_entries``: a member's entry
-- (sign-up order ``joined_at``, seed and rating at the start, the last round they took part in once they left).
-- ``tournament_rounds``: a round's pairing, written once (its primary key: one process, once) with its deadline;
-- ``posted``: its tables were all opened and announced (a claim never posted, a crash mid-round-start, is taken
-- again after a while). ``tournament_tables``: each board of a round and the table (and thread) opened for it,
-- set in the same transaction as the table's row. ``tournament_settings``: the role that may run tournaments.
-- (In step with ../postgres/018_tournaments.sql.)

CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL,       -- JSON
    format      TEXT    NOT NULL,       -- swiss | knockout
    rounds      INTEGER NOT NULL,
    size        INTEGER NOT NULL,
    pace        INTEGER,                -- seconds per move; NULL: live
    signup_due  REAL,
    cap         INTEGER,
    status      TEXT    NOT NULL,       -- signup | running | finished | cancelled | ended
    round       INTEGER NOT NULL DEFAULT 0,
    version     INTEGER NOT NULL DEFAULT 0,
    created_by  INTEGER NOT NULL,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    end_reason  TEXT
);
CREATE INDEX tournaments_open ON tournaments (status, guild_id);

CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,
    name          TEXT    NOT NULL,
    joined_at     REAL    NOT NULL,
    seeding       INTEGER,        -- 1 = best: by rating at the start, ties by sign-up order
    rating        REAL,
    dropped_after INTEGER,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_entries_member ON tournament_entries (guild_id, user_id);

CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    pairing       TEXT    NOT NULL,     -- JSON: {"tables": [[user id, ...], ...], "byes": [user id, ...]}
    claimed_at    REAL    NOT NULL,
    due_at        REAL,
    posted        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, number)
);

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    thread_id     INTEGER,
    table_id      INTEGER,
    PRIMARY KEY (tournament_id, round, board)
);
CREATE UNIQUE INDEX tournament_tables_table ON tournament_tables (table_id);

CREATE TABLE tournament_settings (
    guild_id INTEGER PRIMARY KEY,
    role_id  INTEGER
);
