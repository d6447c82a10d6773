-- The daily puzzle (issue 28 item 3). ``daily_results``: a member's attempt at a day's puzzle in a server, one per
-- (server, day, member): the log of their keys (the engine replays it from the day's puzzle), ``version`` its
-- length (compare-and-set: a click on an older screen changes nothing), and once finished the moves, par, squares
-- and streak (consecutive days solved in this server, counted when it finishes). ``shared``: its result line
-- was posted (once). ``daily_settings``: a server's reset hour (UTC) and the channel where the finished day's
-- board is posted. ``daily_posts``: a finished day's board post, claimed by one statement (one process posts
-- it, once; a claim never posted, a crash mid-post, is taken again after a while).
-- (In step with ../sqlite/017_daily.sql.)

CREATE TABLE daily_results (
    guild_id    BIGINT  NOT NULL,
    day         TEXT    NOT NULL,       -- the server's day, YYYY-MM-DD (its reset hour decides when it turns)
    user_id     BIGINT  NOT NULL,
    log         TEXT    NOT NULL,       -- JSON: [key, ...]
    version     INTEGER NOT NULL,       -- len(log)
    finished    INTEGER NOT NULL DEFAULT 0,
    solved      INTEGER NOT NULL DEFAULT 0,
    moves       INTEGER NOT NULL DEFAULT 0,
    par         INTEGER NOT NULL,
    squares     TEXT    NOT NULL,       -- the grid: one square per turn ('' until finished)
    streak      INTEGER NOT NULL DEFAULT 0,
    shared      INTEGER NOT NULL DEFAULT 0,
    started_at  DOUBLE PRECISION NOT NULL,
    finished_at DOUBLE PRECISION,
    PRIMARY KEY (guild_id, day, user_id)
);
CREATE INDEX daily_results_user ON daily_results (guild_id, user_id);

CREATE TABLE daily_settings (
    guild_id   BIGINT PRIMARY KEY,
    reset_hour INTEGER NOT NULL DEFAULT 0,
    channel_id BIGINT
);

CREATE TABLE daily_posts (
    guild_id   BIGINT  NOT NULL,
    day        TEXT    NOT NULL,
    claimed_at DOUBLE PRECISION NOT NULL,
    message_id BIGINT,                 -- NULL: claimed, not posted yet; 0: nothing to post (nobody finished)
    PRIMARY KEY (guild_id, day)
);
