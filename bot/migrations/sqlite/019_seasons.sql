-- Seasons and the hall of fame (issue 28 item 2). ``seasons``: a server's season, one running at a time
-- (``seasons_running``: a unique index on the server of the seasons not ended), from ``started_at`` to
-- ``ends_at``; ``ended_at`` is set once, by the one statement that ends it (at its end time by the bot, or earlier
-- by a moderator: ``ended_early``), in the transaction that writes its hall of fame. ``games``: the rated games it
-- counted (each one's result carries the season's id: ``results.season_id``). Its hall of fame's post in
-- ``channel_id`` is claimed by one statement (``post_claimed_at``; a claim never posted, a crash mid-post, is
-- taken again after a while) and done once (``message_id``; 0: it could not be posted).
-- ``season_ratings``: OpenSkill from a fresh start per season and game, written by the move that ends a rated
-- game in the same transaction as the all-time ``ratings`` (the same stale-count protection).
-- ``hall_of_fame``: the players of the top three places per game at the season's end (equal ratings share a
-- place; user 0, "Former player", once they deleted their data).
-- (In step with ../postgres/019_seasons.sql.)

CREATE TABLE seasons (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    channel_id      INTEGER NOT NULL,       -- where its hall of fame is posted
    started_at      REAL    NOT NULL,
    ends_at         REAL    NOT NULL,
    ended_at        REAL,                   -- NULL: running (until ends_at)
    ended_early     INTEGER NOT NULL DEFAULT 0,
    games           INTEGER NOT NULL DEFAULT 0,
    post_claimed_at REAL,
    message_id      INTEGER                 -- the hall of fame's post; NULL: not yet; 0: could not be posted
);
CREATE UNIQUE INDEX seasons_running ON seasons (guild_id) WHERE ended_at IS NULL;
CREATE UNIQUE INDEX seasons_name ON seasons (guild_id, name);
CREATE INDEX seasons_guild_ended ON seasons (guild_id, ended_at);
CREATE INDEX seasons_unposted ON seasons (ends_at) WHERE message_id IS NULL;

CREATE TABLE season_ratings (
    season_id  INTEGER NOT NULL REFERENCES seasons (id),
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,            -- their name at their latest game of the season
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    rating     REAL    NOT NULL,            -- shown: 1000 + 40 (mu - 3 sigma)
    games      INTEGER NOT NULL,            -- rated games in the season
    wins       INTEGER NOT NULL,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (season_id, game, user_id)
);
CREATE INDEX season_ratings_board ON season_ratings (season_id, game, rating, user_id);
CREATE INDEX season_ratings_user ON season_ratings (user_id, season_id);

CREATE TABLE hall_of_fame (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    game      TEXT    NOT NULL,
    position  INTEGER NOT NULL,             -- the order of the rows (ties: by user id)
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,             -- 0: a former player (/privacy delete)
    name      TEXT    NOT NULL,
    place     INTEGER NOT NULL,             -- 1 + the players rated above (equal ratings share it)
    rating    REAL    NOT NULL,
    games     INTEGER NOT NULL,
    PRIMARY KEY (season_id, game, position)
);
CREATE INDEX hall_of_fame_user ON hall_of_fame (guild_id, user_id);

ALTER TABLE results ADD COLUMN season_id INTEGER;
