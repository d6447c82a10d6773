-- A person's data and how long games are kept (issue 18). A server's moderators may keep finished games for N days
-- (`retention_days`; NULL or 0: forever): the bot deletes older finished and ended tables a batch at a time, each
-- with its logs, from the oldest (index `tables_guild_created`, whose columns never change during a game, so a
-- move maintains no index more). `/privacy` reads a member's tables in pages on the same index. A table is
-- deleted with everything that hangs off it by the trigger `tables_delete` (rows of result_players before their
-- result: the foreign keys), so one DELETE of a batch of tables is atomic. (In step with
-- ../postgres/009_privacy_retention.sql.)

ALTER TABLE guild_settings ADD COLUMN retention_days INTEGER;

CREATE INDEX tables_guild_created ON tables (guild_id, created_at, id);

CREATE TRIGGER tables_delete BEFORE DELETE ON tables
BEGIN
    DELETE FROM result_players WHERE table_id = OLD.id;
    DELETE FROM results WHERE table_id = OLD.id;
    DELETE FROM actions WHERE table_id = OLD.id;
    DELETE FROM deadlines WHERE table_id = OLD.id;
    DELETE FROM panels WHERE table_id = OLD.id;
END;
