"""Who serves which shard: leases in the shared database, so that two processes never serve one shard.

Each process holds a lease per shard it runs (``shard_leases``: shard id, shard count, owner, heartbeat time),
taken at start before it connects to Discord and renewed by a heartbeat task (never on a click's path). A
lease whose heartbeat is older than ``stale`` seconds belongs to a process that is gone; only then may another
take it. So:

- a replacement started while its predecessor still runs (or is not yet known dead) says so in one sentence
  and waits, without serving, until the old lease goes stale (or is released by a clean stop), then takes over;
- a process that finds a live process using another shard count refuses to start (:class:`ShardCountInUse`);
- a process that finds, at a renewal, that another took one of its shards (its heartbeat lapsed) says so and
  stops serving (:meth:`ShardLeases.keep`).

A lease whose owner ran on this machine, in this process namespace, and whose process no longer exists (a
crash, kill -9) is stale at once: a restart after a crash serves straight away instead of waiting ``stale``
seconds. Elsewhere (another host, another container, and a container restarted by Docker: it gets a new pid
namespace) only the heartbeat can tell.

A process that runs every shard Discord recommends (no shard settings) holds shard 0 with a count of 0: "all
of them", so it excludes any other process on the database. Times are each process's wall clock: processes
on several machines need clocks in step to well under ``stale`` (NTP does that).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable

from bot.store import Lease, Store

log = logging.getLogger(__name__)

ALL_SHARDS = 0
"""The shard count a process that runs every shard Discord recommends holds its lease with."""


class ShardCountInUse(Exception):
    """A live process on the same database runs another shard count: the message says so in one sentence."""


class StopWaiting(Exception):
    """The process was asked to stop while it waited for its shards."""


def process_namespace() -> str:
    """Where this process's pid means something: the machine's boot and the pid namespace (containers on one
    host share the boot id but not the namespace). Empty where it can't be known (no /proc)."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            boot = f.read().strip()[:8]
        return f"{boot}-{os.stat('/proc/self/ns/pid').st_ino}"
    except OSError:
        return ""


def new_owner() -> str:
    """This process's name in the lease table: host, pid, a random word (pids repeat across hosts and
    containers) and the pid's namespace (:func:`process_namespace`)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}:{process_namespace()}"


def owner_is_gone(owner: str, here: str | None = None) -> bool:
    """Whether the lease's owner is known to have exited: it ran in this very pid namespace (``here``) and its
    pid is free, a zombie, or is this process (an owner of another name with our pid ran before us)."""
    parts = owner.split(":")
    here = process_namespace() if here is None else here
    if len(parts) != 4 or not here or parts[3] != here or not parts[1].isdigit():
        return False
    pid = int(parts[1])
    if pid == os.getpid():
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True
    except OSError:
        return False


def describe_owner(owner: str) -> str:
    host, _, rest = owner.partition(":")
    pid = rest.partition(":")[0]
    return f"host {host}, pid {pid}" if pid else owner


def describe_shards(count: int, ids: tuple[int, ...]) -> str:
    if count == ALL_SHARDS:
        return "every shard (no GEOTABLE_SHARD_COUNT)"
    if len(ids) == 1:
        return f"shard {ids[0]} of {count}"
    return f"shards {', '.join(map(str, ids))} of {count}"


class ShardLeases:
    def __init__(self, store: Store, count: int | None, ids: tuple[int, ...] | None, *, heartbeat: float = 5.0,
                 stale: float = 20.0, clock: Callable[[], float] = time.time, owner: str | None = None):
        self.store = store
        self.count = count or ALL_SHARDS
        self.ids = ids if ids is not None else (tuple(range(count)) if count else (0,))
        self.heartbeat = heartbeat
        self.stale = stale
        self.clock = clock
        self.owner = owner or new_owner()
        self.held = False

    @property
    def what(self) -> str:
        return describe_shards(self.count, self.ids)

    def _live_others(self, leases: list[Lease], now: float) -> list[Lease]:
        return [lease for lease in leases if lease.owner != self.owner and lease.heartbeat_at >= now - self.stale
                and not owner_is_gone(lease.owner)]

    def _other_count(self, live: list[Lease]) -> Lease | None:
        return next((lease for lease in live if lease.shard_count != self.count), None)

    def _count_sentence(self, other: Lease) -> str:
        theirs = ("every shard (no GEOTABLE_SHARD_COUNT)" if other.shard_count == ALL_SHARDS
                  else f"GEOTABLE_SHARD_COUNT {other.shard_count}")
        mine = "no GEOTABLE_SHARD_COUNT" if self.count == ALL_SHARDS else f"GEOTABLE_SHARD_COUNT {self.count}"
        return (f"Another process on this database ({describe_owner(other.owner)}) runs {theirs}, and this one "
                f"has {mine}: every process sharing a database needs the same GEOTABLE_SHARD_COUNT (stop them "
                "all to change it).")

    async def acquire(self, stop: asyncio.Event | None = None) -> None:
        """Takes this process's shards, waiting (and saying so once) while a live process holds any of them.
        Raises :class:`ShardCountInUse` when a live process uses another count, :class:`StopWaiting` when
        ``stop`` is set meanwhile."""
        waited = False
        while True:
            now = self.clock()
            leases = await self.store.leases()
            for gone in {lease.owner for lease in leases if lease.owner != self.owner and owner_is_gone(lease.owner)}:
                log.info("The process that held shards before (%s) is gone: taking them over now.",
                         describe_owner(gone))
                await self.store.release_leases(gone)
            live = self._live_others(leases, now)
            other = self._other_count(live)
            if other is not None:
                raise ShardCountInUse(self._count_sentence(other))
            taken = [await self.store.take_lease(i, self.count, self.owner, now, now - self.stale) for i in self.ids]
            if all(taken):
                self.held = True
                if waited:
                    log.warning("The other process stopped renewing its lease: this one serves %s now.", self.what)
                return
            await self.store.release_leases(self.owner)  # all or none: another may be waiting for the rest
            holders = [lease for lease in live if lease.shard_id in self.ids] or live
            if not waited:
                holder = holders[0] if holders else None
                by = f" ({describe_owner(holder.owner)})" if holder else ""
                log.warning("Another process%s serves %s on this database: this one waits, without serving, and "
                            "takes over once that one has been silent for %g s (if both should run, give them "
                            "different GEOTABLE_SHARD_IDS).", by, self.what, self.stale)
                waited = True
            newest = max((lease.heartbeat_at for lease in holders), default=now)
            pause = min(self.heartbeat, max(0.05, newest + self.stale - self.clock() + 0.05))
            if stop is None:
                await asyncio.sleep(pause)
            else:
                try:
                    await asyncio.wait_for(stop.wait(), pause)
                except TimeoutError:
                    pass
                else:
                    raise StopWaiting()

    async def keep(self) -> str:
        """The heartbeat: renews the leases every ``heartbeat`` seconds for as long as this process holds them
        all. Returns the sentence that says why it stopped holding them (another process took a shard, or
        runs another shard count); a failed renewal is logged and tried again."""
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                now = self.clock()
                renewed = await self.store.renew_leases(self.owner, now)
                leases = await self.store.leases()
            except Exception as exc:  # the database away for a moment: the lease lasts `stale` seconds
                log.warning("Renewing the shard lease failed (%s); trying again in %g s.", exc, self.heartbeat)
                continue
            live = self._live_others(leases, now)
            taken = [lease for lease in leases if lease.shard_id in self.ids and lease.owner != self.owner]
            if renewed < len(self.ids) or taken:
                await self._give_up()
                by = f" ({describe_owner(taken[0].owner)})" if taken else ""
                return (f"Another process{by} took over {self.what} after this one's heartbeat lapsed: this one "
                        "stops serving.")
            other = self._other_count(live)
            if other is not None:
                await self._give_up()
                return self._count_sentence(other) + " This one stops serving."

    async def _give_up(self) -> None:
        """Stops holding: the leases still this process's are released (not left to go stale), so the other
        process need not wait for them; a failure to release is only logged (they go stale then)."""
        self.held = False
        try:
            await self.store.release_leases(self.owner)
        except Exception as exc:
            log.warning("Releasing the shard leases failed (%s): they go stale in %g s.", exc, self.stale)

    async def release(self) -> None:
        """Gives the shards up at a clean stop, so a replacement need not wait for the lease to go stale."""
        if self.held:
            self.held = False
            await self.store.release_leases(self.owner)
