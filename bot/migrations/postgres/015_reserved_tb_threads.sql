-- Reserved for branch tb-threads (issue 27: a table in its own thread, migration 015). This placeholder keeps
-- the numbers without gaps on branch tb-turns alone; the merge replaces it with tb-threads' own 015 file.

SELECT 1;
