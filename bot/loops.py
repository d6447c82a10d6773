"""The bot's own loops, beside the events Discord sends: the deadline loop (turn timeouts, game timers, forgotten
lobbies, a computer's turn; at its start, the boards a crash left behind shown again), the pruning of old games
and the shard leases' heartbeat. Part of :class:`bot.client.Geotable` (its state through ``self``)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging

from bot.workers import pool

log = logging.getLogger(__name__)

PRUNE_EVERY = 3600.0
"""Seconds between two passes of the pruning task (finished games older than their server's retention)."""

PRUNE_BATCH = 100
"""Tables deleted per statement by the pruning task."""


class Loops:
    """The loops of :class:`bot.client.Geotable`, started by its ``setup_hook`` and stopped by its ``close``."""

    async def _deadlines(self) -> None:
        """Fires due deadlines (idle turns, forgotten lobbies, sand timers) on time: it sleeps until the next
        one is due (at most ``tick`` seconds, and less when a move sets an earlier one). They live in the store,
        so a restart keeps them; boards left behind by a crash are shown again first. Only this process's
        shards' deadlines and boards: a replacement given the same shards takes them over."""
        await self.wait_until_ready()
        pool.background.set(True)  # what fires here waits for no click: people's boards are drawn first
        # what start-up made (modules, discord.py's state) lives as long as the bot: the garbage collector
        # need not scan it again (its full collections stopped the loop 40-140 ms under load). Only start-up:
        # freezing later would also freeze unreachable cycles (discord.py's views make them) for good.
        gc.collect()
        gc.freeze()
        tables = self.get_cog("Tables")
        with contextlib.suppress(Exception):
            await tables.boards.heal()
        try:
            await self.service.restore_turn_deadlines()
        except Exception:
            log.exception("restoring missing turn deadlines")
        try:
            await self.service.restore_waiting()
        except Exception:
            log.exception("restoring who is to act")
        service = self.service
        while not self.is_closed() and not self._stopping.is_set():
            fired_at = service.clock()
            try:
                changes = await service.fire_due()
                for outcome in await asyncio.gather(*(tables.boards.publish(c) for c in changes), return_exceptions=True):
                    if isinstance(outcome, Exception):
                        log.error("showing a timed change failed", exc_info=outcome)
                next_due = await service.next_deadline()
            except Exception:
                log.exception("deadline loop")
                next_due = None
            now = service.clock()
            if next_due is None:
                delay = self.tick
            elif next_due > now:
                delay = min(self.tick, next_due - now)
            elif next_due > fired_at:
                # it came due while the changes were shown: fired at once, not a tick later (a computer's
                # next step, due while its step was shown, wakes the loop itself: ``wake_timers``)
                delay = 0
            else:  # still due after firing: it could not fire now (logged), so it is tried again a tick later
                delay = self.tick
            if self._stopping.is_set():
                return
            self.timers_started.set()
            await service.sleep_until_woken(delay)

    def wake_pruning(self) -> None:
        """A server's retention changed: the pruning task runs a pass now."""
        if self._prune_wake is not None and not self._prune_wake.done():
            self._prune_wake.set_result(None)

    async def _prune(self) -> None:
        """Deletes the finished games (and closed lobbies) older than their server's retention (``/mod
        retention``) with their logs, every ``prune_every`` seconds and when a retention changes: a batch of
        ``PRUNE_BATCH`` tables per statement (oldest first, on the index ``tables_guild_created``), until a batch
        comes back short. Only this process's shards' servers (their settings rows); open games never."""
        await self.wait_until_ready()
        store, service = self.store, self.service
        while not self.is_closed() and not self._stopping.is_set():
            self._prune_wake = asyncio.get_running_loop().create_future()
            try:
                for guild_id, days in await store.retention_guilds(self.settings.shards):
                    before = service.clock() - days * 86400
                    deleted = PRUNE_BATCH
                    while deleted == PRUNE_BATCH and not self._stopping.is_set():
                        deleted = await store.prune_tables(guild_id, before, PRUNE_BATCH)
                        if deleted:
                            log.info("deleted %d tables of server %d older than %d days", deleted, guild_id, days)
                        await asyncio.sleep(0)  # other work between two batches
            except Exception:
                log.exception("pruning old games")
            self.pruned.set()
            with contextlib.suppress(TimeoutError):  # a plain future: no extra task while it waits
                await asyncio.wait_for(self._prune_wake, self.prune_every)

    async def _keep_leases(self) -> None:
        """The lease heartbeat; when another process took this one's shards, this one stops serving."""
        why = await self.leases.keep()
        log.error(why)
        self.exit_code = 1
        self.request_stop()
