-- Tables in threads (issue 27). `tables.parent_channel_id`: the channel (or forum) a table's thread was opened
-- in, where its link line and its result line go; NULL for a table in the channel itself (its `channel_id` is
-- the thread's id, so the one-open-table-per-channel index holds for a channel and each of its threads).
-- `guild_settings.threads_live` / `threads_turn_based`: whether /play opens a table in a thread of its own when
-- the player does not say (1/0; NULL: the bot's default, no for live tables, yes for turn-based ones).
-- An index to find the open tables of a deleted channel's threads. (In step with ../sqlite/015_threads.sql.)

ALTER TABLE tables ADD COLUMN parent_channel_id BIGINT;

CREATE INDEX tables_open_parent ON tables (parent_channel_id) WHERE status IN ('lobby', 'playing');

ALTER TABLE guild_settings ADD COLUMN threads_live INTEGER;

ALTER TABLE guild_settings ADD COLUMN threads_turn_based INTEGER;
