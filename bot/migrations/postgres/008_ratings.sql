-- Ratings, leaderboards, stats and history (issue 18). A finished game's result now knows its channel (history
-- per channel), and the move that ends a game also writes a row per person (result_players: place, score,
-- rated or not, the rating after it) and upserts their rating for that game in that server (ratings), from a
-- JSON list the moves view gains (`ratings`, made by bot/ratings.py): one statement, so a crash never leaves a
-- finished game unrated or rated twice. A rated row carries the person's rated games after this one; when the
-- stored count is not one less (another game of theirs was rated since it was read, also by a transaction
-- committed while this one waited for the row) the statement raises 'stale ratings' and writes nothing (the
-- store reads the ratings again and retries). (In step with ../sqlite/008_ratings.sql.)

ALTER TABLE results ADD COLUMN channel_id BIGINT;
UPDATE results SET channel_id = (SELECT channel_id FROM tables WHERE tables.id = results.table_id);
CREATE INDEX results_guild_finished ON results (guild_id, finished_at);
CREATE INDEX results_channel_finished ON results (channel_id, finished_at);

-- one row per person, game and server: the rating (rated games only) and what they played
CREATE TABLE ratings (
    guild_id   BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    game       TEXT    NOT NULL,
    name       TEXT    NOT NULL,       -- their name at their latest game
    mu         DOUBLE PRECISION NOT NULL, -- OpenSkill Plackett-Luce
    sigma      DOUBLE PRECISION NOT NULL,
    rating     DOUBLE PRECISION,       -- shown: 1000 + 40 (mu - 3 sigma); NULL until their first rated game
    games      INTEGER NOT NULL,       -- rated games
    wins       INTEGER NOT NULL,       -- rated games won
    unrated    INTEGER NOT NULL,       -- finished games that were not rated (with computers, ...)
    best_score DOUBLE PRECISION,       -- best score in any finished game
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, game)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, rating, user_id);

-- one row per person (or the person a computer took over from) of each finished game
CREATE TABLE result_players (
    table_id    BIGINT  NOT NULL REFERENCES results (table_id),
    seat        INTEGER NOT NULL,
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    game        TEXT    NOT NULL,
    place       INTEGER NOT NULL,      -- 1 + the seats (a team once) ranked above; shared places share it
    score       DOUBLE PRECISION,
    won         INTEGER NOT NULL,
    rated       INTEGER NOT NULL,
    rating      DOUBLE PRECISION,      -- their shown rating after this game (rated games)
    finished_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX result_players_user ON result_players (guild_id, user_id, game, rated, finished_at);

DROP TRIGGER moves_insert ON moves;
DROP VIEW moves;

CREATE VIEW moves AS
SELECT 0::BIGINT AS table_id, 0 AS version, ''::TEXT AS state, ''::TEXT AS status, 0 AS ply, 0 AS seat,
       ''::TEXT AS action, 0.0::DOUBLE PRECISION AS at, ''::TEXT AS last_move,
       NULL::DOUBLE PRECISION AS due_at, NULL::TEXT AS standings, NULL::DOUBLE PRECISION AS timer_due,
       NULL::TEXT AS players, NULL::TEXT AS ratings;

CREATE OR REPLACE FUNCTION moves_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    expected INTEGER;
    written  INTEGER;
BEGIN
    -- compare-and-set on the version: a concurrent writer's UPDATE makes this one wait, then match nothing
    UPDATE tables
       SET state = NEW.state, version = NEW.version + 1, status = NEW.status, updated_at = NEW.at,
           last_move = NEW.last_move, players = COALESCE(NEW.players, players)
     WHERE id = NEW.table_id AND version = NEW.version;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'stale version';
    END IF;
    INSERT INTO actions (table_id, ply, seat, action, at)
    VALUES (NEW.table_id, NEW.ply, NEW.seat, NEW.action, NEW.at);
    DELETE FROM deadlines WHERE table_id = NEW.table_id AND kind = 'turn';
    INSERT INTO deadlines (table_id, kind, due_at)
    SELECT NEW.table_id, 'turn', NEW.due_at WHERE NEW.due_at IS NOT NULL;
    DELETE FROM deadlines WHERE table_id = NEW.table_id AND kind = 'timer' AND NEW.timer_due IS NOT NULL;
    INSERT INTO deadlines (table_id, kind, due_at)
    SELECT NEW.table_id, 'timer', NEW.timer_due WHERE NEW.timer_due IS NOT NULL AND NEW.timer_due > 0;
    IF NEW.standings IS NULL THEN
        RETURN NEW;
    END IF;
    INSERT INTO results (table_id, guild_id, game, standings, finished_at, channel_id)
    SELECT id, guild_id, game, NEW.standings, NEW.at, channel_id FROM tables WHERE id = NEW.table_id;
    IF NEW.ratings IS NULL THEN
        RETURN NEW;
    END IF;
    IF EXISTS (SELECT 1 FROM tables t, json_to_recordset(NEW.ratings::json) AS j (user_id BIGINT, rated INTEGER,
                                                                                  games INTEGER)
                WHERE t.id = NEW.table_id AND j.rated = 1
                  AND COALESCE((SELECT r.games FROM ratings r WHERE r.guild_id = t.guild_id AND r.user_id = j.user_id
                                  AND r.game = t.game), 0) <> j.games - 1) THEN
        RAISE EXCEPTION 'stale ratings';
    END IF;
    INSERT INTO result_players (table_id, seat, guild_id, user_id, game, place, score, won, rated, rating,
                                finished_at)
    SELECT t.id, j.seat, t.guild_id, j.user_id, t.game, j.place, j.score, j.won, j.rated, j.rating, NEW.at
      FROM tables t, json_to_recordset(NEW.ratings::json) AS j (seat INTEGER, user_id BIGINT, place INTEGER,
                                                                 score DOUBLE PRECISION, won INTEGER,
                                                                 rated INTEGER, rating DOUBLE PRECISION)
     WHERE t.id = NEW.table_id;
    GET DIAGNOSTICS expected = ROW_COUNT;
    -- a rated row is written only if the stored count is still one less, judged on the row as committed
    -- (INSERT ... ON CONFLICT re-reads a row another transaction changed while this one waited for it)
    INSERT INTO ratings AS r (guild_id, user_id, game, name, mu, sigma, rating, games, wins, unrated, best_score,
                              updated_at)
    SELECT t.guild_id, j.user_id, t.game, j.name, j.mu, j.sigma, j.rating, j.games, j.won * j.rated, 1 - j.rated,
           j.score, NEW.at
      FROM tables t, json_to_recordset(NEW.ratings::json) AS j (user_id BIGINT, name TEXT, mu DOUBLE PRECISION,
                                                                 sigma DOUBLE PRECISION, rating DOUBLE PRECISION,
                                                                 games INTEGER, won INTEGER, rated INTEGER,
                                                                 score DOUBLE PRECISION)
     WHERE t.id = NEW.table_id
        ON CONFLICT (guild_id, user_id, game) DO UPDATE SET
           name = excluded.name,
           mu = CASE WHEN excluded.rating IS NULL THEN r.mu ELSE excluded.mu END,
           sigma = CASE WHEN excluded.rating IS NULL THEN r.sigma ELSE excluded.sigma END,
           rating = CASE WHEN excluded.rating IS NULL THEN r.rating ELSE excluded.rating END,
           games = CASE WHEN excluded.rating IS NULL THEN r.games ELSE excluded.games END,
           wins = r.wins + excluded.wins,
           unrated = r.unrated + excluded.unrated,
           best_score = CASE WHEN r.best_score IS NULL OR excluded.best_score > r.best_score
                             THEN excluded.best_score ELSE r.best_score END,
           updated_at = excluded.updated_at
        WHERE excluded.rating IS NULL OR r.games = excluded.games - 1;
    GET DIAGNOSTICS written = ROW_COUNT;
    IF written <> expected THEN
        RAISE EXCEPTION 'stale ratings';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER moves_insert INSTEAD OF INSERT ON moves FOR EACH ROW EXECUTE FUNCTION moves_insert();
