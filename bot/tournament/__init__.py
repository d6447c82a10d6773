"""Tournaments' pure logic (issue 28): Swiss and knockout pairing, standings. No discord, no database, no Pillow:
the bot's service (bot/cogs/tournament.py and its store) feeds in entrants and finished tables and seats what
comes out. The rules we chose are in docs/rules/tournaments.md (T1, T2...)."""
