-- Reserved for branch tb-clock (issue 27: the pace of a table, migration 014). This placeholder keeps the
-- numbers without gaps on branch tb-turns alone; the merge replaces it with tb-clock's own 014 file.

SELECT 1;
