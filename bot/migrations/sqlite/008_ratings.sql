-- Ratings, leaderboards, stats and history (issue 18). A finished game's result now knows its channel (history
-- per channel), and the move that ends a game also writes a row per person (result_players: place, score,
-- rated or not, the rating after it) and upserts their rating for that game in that server (ratings), from a
-- JSON list the moves view gains (`ratings`, made by bot/ratings.py): one statement, so a crash never leaves a
-- finished game unrated or rated twice. A rated row carries the person's rated games after this one; when the
-- stored count is not one less (another game of theirs was rated since it was read) the statement raises
-- 'stale ratings' and writes nothing (the store reads the ratings again and retries).
-- (In step with ../postgres/008_ratings.sql.)

ALTER TABLE results ADD COLUMN channel_id INTEGER;
UPDATE results SET channel_id = (SELECT channel_id FROM tables WHERE tables.id = results.table_id);
CREATE INDEX results_guild_finished ON results (guild_id, finished_at);
CREATE INDEX results_channel_finished ON results (channel_id, finished_at);

-- one row per person, game and server: the rating (rated games only) and what they played
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    name       TEXT    NOT NULL,       -- their name at their latest game
    mu         REAL    NOT NULL,       -- OpenSkill Plackett-Luce
    sigma      REAL    NOT NULL,
    rating     REAL,                   -- shown: 1000 + 40 (mu - 3 sigma); NULL until their first rated game
    games      INTEGER NOT NULL,       -- rated games
    wins       INTEGER NOT NULL,       -- rated games won
    unrated    INTEGER NOT NULL,       -- finished games that were not rated (with computers, ...)
    best_score REAL,                   -- best score in any finished game
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, game)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, rating, user_id);

-- one row per person (or the person a computer took over from) of each finished game
CREATE TABLE result_players (
    table_id    INTEGER NOT NULL REFERENCES results (table_id),
    seat        INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    place       INTEGER NOT NULL,      -- 1 + the seats (a team once) ranked above; shared places share it
    score       REAL,
    won         INTEGER NOT NULL,
    rated       INTEGER NOT NULL,
    rating      REAL,                  -- their shown rating after this game (rated games)
    finished_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX result_players_user ON result_players (guild_id, user_id, game, rated, finished_at);

DROP TRIGGER moves_insert;
DROP VIEW moves;

CREATE VIEW moves AS
SELECT 0 AS table_id, 0 AS version, '' AS state, '' AS status, 0 AS ply, 0 AS seat, '' AS action, 0.0 AS at,
       '' AS last_move,
       NULL AS due_at, NULL AS standings, NULL AS timer_due, NULL AS players, NULL AS ratings;

CREATE TRIGGER moves_insert INSTEAD OF INSERT ON moves
BEGIN
    SELECT RAISE(ABORT, 'stale version')
     WHERE (SELECT version FROM tables WHERE id = NEW.table_id) IS NOT NEW.version;
    SELECT RAISE(ABORT, 'stale ratings')
      FROM tables t, json_each(NEW.ratings) j
     WHERE t.id = NEW.table_id AND NEW.standings IS NOT NULL AND json_extract(j.value, '$.rated') = 1
       AND COALESCE((SELECT r.games FROM ratings r WHERE r.guild_id = t.guild_id
                       AND r.user_id = json_extract(j.value, '$.user_id') AND r.game = t.game), 0)
           <> json_extract(j.value, '$.games') - 1;
    UPDATE tables
       SET state = NEW.state, version = NEW.version + 1, status = NEW.status, updated_at = NEW.at,
           last_move = NEW.last_move, players = COALESCE(NEW.players, players)
     WHERE id = NEW.table_id;
    INSERT INTO actions (table_id, ply, seat, action, at)
    VALUES (NEW.table_id, NEW.ply, NEW.seat, NEW.action, NEW.at);
    DELETE FROM deadlines WHERE table_id = NEW.table_id AND kind = 'turn';
    INSERT INTO deadlines (table_id, kind, due_at)
    SELECT NEW.table_id, 'turn', NEW.due_at WHERE NEW.due_at IS NOT NULL;
    DELETE FROM deadlines WHERE table_id = NEW.table_id AND kind = 'timer' AND NEW.timer_due IS NOT NULL;
    INSERT INTO deadlines (table_id, kind, due_at)
    SELECT NEW.table_id, 'timer', NEW.timer_due WHERE NEW.timer_due IS NOT NULL AND NEW.timer_due > 0;
    INSERT INTO results (table_id, guild_id, game, standings, finished_at, channel_id)
    SELECT id, guild_id, game, NEW.standings, NEW.at, channel_id FROM tables
     WHERE id = NEW.table_id AND NEW.standings IS NOT NULL;
    INSERT INTO result_players (table_id, seat, guild_id, user_id, game, place, score, won, rated, rating,
                                finished_at)
    SELECT t.id, json_extract(j.value, '$.seat'), t.guild_id, json_extract(j.value, '$.user_id'), t.game,
           json_extract(j.value, '$.place'), json_extract(j.value, '$.score'), json_extract(j.value, '$.won'),
           json_extract(j.value, '$.rated'), json_extract(j.value, '$.rating'), NEW.at
      FROM tables t, json_each(NEW.ratings) j
     WHERE t.id = NEW.table_id AND NEW.standings IS NOT NULL;
    INSERT INTO ratings (guild_id, user_id, game, name, mu, sigma, rating, games, wins, unrated, best_score,
                         updated_at)
    SELECT t.guild_id, json_extract(j.value, '$.user_id'), t.game, json_extract(j.value, '$.name'),
           json_extract(j.value, '$.mu'), json_extract(j.value, '$.sigma'), json_extract(j.value, '$.rating'),
           json_extract(j.value, '$.games'), json_extract(j.value, '$.won') * json_extract(j.value, '$.rated'),
           1 - json_extract(j.value, '$.rated'), json_extract(j.value, '$.score'), NEW.at
      FROM tables t, json_each(NEW.ratings) j
     WHERE t.id = NEW.table_id AND NEW.standings IS NOT NULL
        ON CONFLICT (guild_id, user_id, game) DO UPDATE SET
           name = excluded.name,
           mu = CASE WHEN excluded.rating IS NULL THEN ratings.mu ELSE excluded.mu END,
           sigma = CASE WHEN excluded.rating IS NULL THEN ratings.sigma ELSE excluded.sigma END,
           rating = CASE WHEN excluded.rating IS NULL THEN ratings.rating ELSE excluded.rating END,
           games = CASE WHEN excluded.rating IS NULL THEN ratings.games ELSE excluded.games END,
           wins = ratings.wins + excluded.wins,
           unrated = ratings.unrated + excluded.unrated,
           best_score = CASE WHEN ratings.best_score IS NULL OR excluded.best_score > ratings.best_score
                             THEN excluded.best_score ELSE ratings.best_score END,
           updated_at = excluded.updated_at;
END;
