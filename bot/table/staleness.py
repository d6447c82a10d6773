"""Whether a click made on an older screen of a table still counts: the rule of simultaneous play, pure.

A table's message shows one version; clicks on it may arrive after others moved. A click on an older version
still plays when the seat's own choices are the same as on its screen (its ``token``: a digest of its legal
action keys) and nothing since changed them: not its own move, not a table event (a timeout, a timer, a leave,
a move with announcements: they reset everything, ``base``), not another seat's move that changed this
seat's token on the way (``since``). So in a simultaneous stage, clicks made at the same moment all play,
and a click on a board whose choices moved on is refused as out of date.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field


def token(seat: int, keys: list[str]) -> str:
    """A short digest of what ``seat`` may do (its legal action keys, in order; "" when it may do nothing).
    Labels are left out: another seat's move may reword a choice ("Lock in and turn the sand timer" becomes
    "Lock in") without changing what it does for this seat."""
    if not keys:
        return ""
    return hashlib.blake2b(f"{seat}|{' '.join(keys)}".encode(), digest_size=3).hexdigest()


@dataclass
class Screens:
    """What this process knows of which screens still count: ``base``, the version since which it has seen
    every move (when the table was loaded, or its last table event); ``since``, seat -> the version of the
    latest move after ``base`` that changed what the seat may do (its own, or another's that changed its
    token)."""

    base: int
    since: dict[int, int] = field(default_factory=dict)

    def counts(self, seat: int, version: int, shown: str | None, now_version: int, now: str) -> bool:
        """Whether a click by ``seat`` on a screen of ``version`` that showed it the token ``shown`` still
        counts at ``now_version``, where its token is ``now`` (a screen of ``now_version`` itself too, when the
        seat may act on it)."""
        if not shown or version > now_version or shown != now:
            return False
        return version >= max(self.base, self.since.get(seat, self.base))

    def moved(self, version: int, seat: int | None, changed: Iterable[int] = ()) -> None:
        """After the move that made ``version``: by ``seat`` (None: a table event, everything before stops
        counting), changing the tokens of the seats ``changed``."""
        if seat is None:
            self.base, self.since = version, {}
            return
        self.since[seat] = version
        for other in changed:
            self.since[other] = version

    def reset(self, version: int) -> None:
        """The table was read again from the store (another writer): only screens from now on count."""
        self.base, self.since = version, {}
