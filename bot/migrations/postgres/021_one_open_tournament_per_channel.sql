-- One tournament in sign-up or running per channel (T-B6), kept by the database: /tournament create's check
-- reads the channel first, and two creates in the same instant both passed it. The index makes the second
-- insert fail; the store turns that into TournamentOpen and the command answers with the check's sentence.
-- A database may already hold such twins: the earliest of a channel's open tournaments stays open, every later
-- one is closed (sign-up: cancelled; running: ended, its tables in play finishing as ordinary games) with its
-- closing post due, so the advancement loop tells the channel. The later ones are those T-B6 should have
-- refused, and /tournament drop and end could only ever reach one of them.
-- (In step with ../sqlite/021_one_open_tournament_per_channel.sql.)

UPDATE tournaments
   SET status = CASE status WHEN 'signup' THEN 'cancelled' ELSE 'ended' END,
       end_reason = 'another tournament was already open in this channel',
       version = version + 1, final_message = NULL, final_claimed = NULL
 WHERE status IN ('signup', 'running')
   AND EXISTS (SELECT 1 FROM tournaments earlier WHERE earlier.channel_id = tournaments.channel_id
                  AND earlier.status IN ('signup', 'running') AND earlier.id < tournaments.id);
CREATE UNIQUE INDEX tournaments_open_channel ON tournaments (channel_id) WHERE status IN ('signup', 'running');
