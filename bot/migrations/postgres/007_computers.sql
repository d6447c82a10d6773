-- Computer players (issue 17). A table's option "a computer takes over the seat of a player who leaves or is
-- removed" (1: on, the default; 0: the seat leaves the game as before), and the moves view gains `players`
-- (NULL: the seating is unchanged; else the new seating as JSON): a seat handed to a computer during play is
-- written by the same statement as its logged move. (In step with ../sqlite/007_computers.sql.)

ALTER TABLE tables ADD COLUMN takeover INTEGER NOT NULL DEFAULT 1;

DROP TRIGGER moves_insert ON moves;
DROP VIEW moves;

CREATE VIEW moves AS
SELECT 0::BIGINT AS table_id, 0 AS version, ''::TEXT AS state, ''::TEXT AS status, 0 AS ply, 0 AS seat,
       ''::TEXT AS action, 0.0::DOUBLE PRECISION AS at, ''::TEXT AS last_move,
       NULL::DOUBLE PRECISION AS due_at, NULL::TEXT AS standings, NULL::DOUBLE PRECISION AS timer_due,
       NULL::TEXT AS players;

CREATE OR REPLACE FUNCTION moves_insert() RETURNS trigger LANGUAGE plpgsql AS $$
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
    INSERT INTO results (table_id, guild_id, game, standings, finished_at)
    SELECT id, guild_id, game, NEW.standings, NEW.at FROM tables
     WHERE id = NEW.table_id AND NEW.standings IS NOT NULL;
    RETURN NEW;
END
$$;

CREATE TRIGGER moves_insert INSTEAD OF INSERT ON moves FOR EACH ROW EXECUTE FUNCTION moves_insert();
