-- Number 014 belongs to the tb-clock branch (issue 27: tables.pace), which is merged beside tb-threads' 015.
-- This empty file only keeps the numbers without a gap on the tb-threads branch, so its tests run: DELETE IT when
-- tb-clock's 014 is merged (two files numbered 014 stop the bot at start, bot/store/dialects.py `migrations`).
SELECT 1;
