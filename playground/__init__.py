"""Geotable without Discord: a loopback Discord (:mod:`playground.fake_discord`) that the real bot connects to,
the bot as a child process (:mod:`playground.run_bot`), and a web page that looks and behaves like a Discord
channel (:mod:`playground.server`). The test suite drives the same fake."""
