"""What the loopback Discord's parts share: Discord's refusal (status, JSON error code, message) and the
permissions a bot has that nobody restricted."""

from __future__ import annotations

import json

ALL_PERMISSIONS = (1 << 41) - 1


class DiscordError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict | None = None):
        super().__init__(f"{status} {code} {message}" + (f" {json.dumps(errors)}" if errors else ""))
        self.status, self.code, self.message, self.errors = status, code, message, errors
