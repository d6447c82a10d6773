-- /privacy delete's confirmations that were clicked (issue 24): the confirmation message's id, so a second press
-- of its "Yes, delete my data" (a double click, or the old button pressed again after a restart) is told so and
-- leaves the first press's answer as it is. One statement claims a confirmation (INSERT ... ON CONFLICT DO
-- NOTHING: one row, one winner, in any process). No user id: the row says nothing about whose data went.
-- (In step with ../sqlite/012_privacy_confirmations.sql.)

CREATE TABLE privacy_confirmations (
    message_id   BIGINT PRIMARY KEY,
    confirmed_at DOUBLE PRECISION NOT NULL
);
