-- PLACEHOLDER on branch 'daily' only: issue 27's helpers own migration 016. Delete this file when merging
-- (revert the commit that added it); it keeps the numbers gap-free until then.
SELECT 1;
