-- /learn: a member's private guided game against a computer (issue 19). The lesson is its seed, options and the
-- log of its actions (the engine replays the state from them); ``version`` is the log's length, so a click on an
-- older step is recognised and a concurrent one refused (compare-and-set on it). One lesson per member and game:
-- a new /learn of the game replaces the old one. (In step with ../postgres/010_lessons.sql.)

CREATE TABLE lessons (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL,
    guild_id   INTEGER,
    game       TEXT    NOT NULL,
    options    TEXT    NOT NULL,        -- JSON
    seed       INTEGER NOT NULL,
    players    INTEGER NOT NULL,
    log        TEXT    NOT NULL,        -- JSON: [[seat, key], ...]
    version    INTEGER NOT NULL,        -- len(log)
    created_at REAL    NOT NULL,
    updated_at REAL    NOT NULL
);
CREATE UNIQUE INDEX lessons_user_game ON lessons (user_id, game);
CREATE INDEX lessons_updated ON lessons (updated_at);
