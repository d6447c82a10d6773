-- Players' private panels survive a restart: what editing one needs while Discord honours its interaction
-- token (15 minutes from the click that issued it). One row per player and table; a newer panel replaces it.
-- (In step with ../sqlite/006_panels.sql.)

CREATE TABLE panels (
    table_id       BIGINT  NOT NULL REFERENCES tables (id),
    user_id        BIGINT  NOT NULL,
    seat           INTEGER NOT NULL,
    application_id BIGINT  NOT NULL,
    token          TEXT    NOT NULL,        -- the interaction token that edits the panel (15 minutes)
    message_id     BIGINT,                  -- the panel message, once known
    opened         DOUBLE PRECISION NOT NULL, -- when the token was issued
    PRIMARY KEY (table_id, user_id)
);
CREATE INDEX panels_opened ON panels (opened);
