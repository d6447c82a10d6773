-- Tournaments' posts made once (issue 28): a round's announcement and the tournament's closing post (the
-- podium, an end, a cancellation) are claimed (``post_claimed`` / ``final_claimed``: a claim never recorded, a
-- crash mid-post, is taken again after 45 s, within Discord's nonce window: bot/nonces.py), sent, then recorded
-- (``tournament_rounds.posted``; ``tournaments.final_message``, 0: nothing to post or it could not be posted).
-- Tournaments closed before this migration had their post made already.
-- (In step with ../sqlite/020_tournament_posts.sql.)

ALTER TABLE tournament_rounds ADD COLUMN post_claimed DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN final_claimed DOUBLE PRECISION;
ALTER TABLE tournaments ADD COLUMN final_message BIGINT;
UPDATE tournaments SET final_message = 0 WHERE status NOT IN ('signup', 'running');
