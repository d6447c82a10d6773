-- stand-in, removed at merge: migration 018 belongs to branch tourney (tournaments); this empty file only keeps
-- the numbers without a gap on branch season. (In step with ../sqlite/018_stand_in.sql.)
SELECT 1;
