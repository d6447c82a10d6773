-- The move commit leaves the database (issue 25): bot/store.py's Store.commit_move writes a move's state, action
-- log, deadlines and, at a game's end, its result and ratings in one transaction of plain SQL, written once for
-- both databases, so no migration re-creates it when a move comes to write something more. The moves view and
-- its trigger (001, re-created by 004, 007 and 008) go. (In step with ../postgres/013_move_commit_in_store.sql.)

DROP TRIGGER moves_insert;
DROP VIEW moves;
