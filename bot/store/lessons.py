"""/learn's lessons: one per person and game, its log advanced by compare-and-set (migration 010)."""

from __future__ import annotations

import json
import time

from bot.store.records import Lesson


class Lessons:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def start_lesson(self, *, user_id: int, guild_id: int | None, game: str, options: dict, seed: int,
                           players: int, log: list) -> Lesson:
        """A new lesson of ``game`` for ``user_id``, replacing their lesson of that game if there was one."""
        now = time.time()
        await self._execute("DELETE FROM lessons WHERE user_id = ? AND game = ?", (user_id, game))
        row = await self._fetchrow(
            "INSERT INTO lessons (user_id, guild_id, game, options, seed, players, log, version, created_at,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
            (user_id, guild_id, game, json.dumps(options), seed, players, json.dumps(log), len(log), now, now))
        return Lesson.from_row(row)

    async def lesson(self, lesson_id: int) -> Lesson | None:
        row = await self._fetchrow("SELECT * FROM lessons WHERE id = ?", (lesson_id,))
        return Lesson.from_row(row) if row else None

    async def advance_lesson(self, lesson: Lesson, log: list) -> bool:
        """Stores the lesson's longer log if nobody stored another since ``lesson`` was read (False: a click
        on the same step won the race; nothing is written)."""
        changed = await self._execute(
            "UPDATE lessons SET log = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?",
            (json.dumps(log), len(log), time.time(), lesson.id, lesson.version))
        return changed == 1

    async def end_lesson(self, lesson_id: int) -> None:
        await self._execute("DELETE FROM lessons WHERE id = ?", (lesson_id,))
