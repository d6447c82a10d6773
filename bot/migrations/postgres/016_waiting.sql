-- Who is to act where (issue 27, /turns): a row per person a table in play waits for (their turn, or their part
-- of a simultaneous stage), written in the same transaction as the move, start or close that changes it
-- (bot/store/waiting.py). Computers are never listed. `/turns` reads a member's rows of one server on the index
-- `waiting_member`. A derived index of the tables' states, so no foreign key: a row whose table is no longer in
-- play is never shown (the query joins the table's status), and the bot writes the rows of games already in
-- play when it starts (bot/table/timers.py, `restore_waiting`). (In step with ../sqlite/016_waiting.sql.)

CREATE TABLE waiting (
    table_id BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    guild_id BIGINT NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

CREATE INDEX waiting_member ON waiting (guild_id, user_id);
