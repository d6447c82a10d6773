-- Languages (issue 19). `guild_settings.language`: the language of a server's public messages and boards as a
-- moderator set it with `/mod language` ("en", "de", "es"); NULL follows the server's own Discord language (its
-- preferred locale). `panels.locale`: the language of a player's private panel (their Discord client's), so a
-- panel read back after a restart keeps speaking it; NULL (a panel stored before) is English.
-- (In step with ../sqlite/011_languages.sql.)

ALTER TABLE guild_settings ADD COLUMN language TEXT;

ALTER TABLE panels ADD COLUMN locale TEXT;
