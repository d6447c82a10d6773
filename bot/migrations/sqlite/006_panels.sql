-- Players' private panels survive a restart: what editing one needs while Discord honours its interaction
-- token (15 minutes from the click that issued it). One row per player and table; a newer panel replaces it.
-- (In step with ../postgres/006_panels.sql.)

CREATE TABLE panels (
    table_id       INTEGER NOT NULL REFERENCES tables (id),
    user_id        INTEGER NOT NULL,
    seat           INTEGER NOT NULL,
    application_id INTEGER NOT NULL,
    token          TEXT    NOT NULL,        -- the interaction token that edits the panel (15 minutes)
    message_id     INTEGER,                 -- the panel message, once known
    opened         REAL    NOT NULL,        -- when the token was issued
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX panels_opened ON panels (opened);
