"""/learn <game>: a private guided game against a computer, step by step (issue 19 item 3).

The lesson lives in one ephemeral message that each click edits: the board (drawn by the game's renderer, the
learner's private panel beside it where the game has one), what the computer just did, the choice in front of
the learner and the coach's suggestion with why it is good (games/<game>/coach.py), and every legal move: the
suggested one first, in green, alone on its row; the others through the table's own chooser (bot/ui/components.py:
buttons, or first a group, ``pick.<group>``, then its moves); Leave lesson on the last row. When the learner's
move was worth less than the suggestion, the next step says so first. Nothing is posted, nothing is rated.

The lesson's thinking (replaying it, the move, the computer's answer, the coach) runs in the thinking workers
(``games.coach.lesson_step`` through bot/workers/thinkpool.py), never on the event loop. Stored (table ``lessons``) as seed, options and the log of actions, so a restart keeps the lesson and its
buttons: ``keys.LessonMove``, ``keys.LessonUtility`` (leave, again, next: the next level, and
pick.<group>) and ``keys.LessonMenu`` (bot/ui/keys.py); the version is the log's length, so a click on an older
step is refused and changes nothing. A game's lessons (players, options, levels, when a level is completed) are
its coach's (``games.coach.Coach.lesson``): Globe Twister's are its solo levels, in order.
"""

from __future__ import annotations

import dataclasses
import io
import logging
import random

import discord
from discord import app_commands
from discord.ext import commands

from bot.computers import display_name, new_computer
from bot.greeting import command
from bot.language import member_language
from bot.store import Lesson
from bot.table.choices import CHOICE_ROWS, group_named
from bot.table.words import board_view, events_words, result_words
from bot.ui import items, keys
from bot.ui.choices import GAME_CHOICES
from bot.ui.components import LessonControls, chooser, every
from bot.ui.layout import Layout
from bot.ui.say import say, think
from bot.workers import renderpool, thinkpool
from games import get_engine
from games.coach import LEARNER, LessonStep, get_coach, lesson_step
from games.core import Engine, State
from i18n import _, localize, number, pick
from render import has_private

log = logging.getLogger(__name__)

OPPONENT = "normal"
"""The computer's strength in a lesson: it plays sensibly, fast, and can be beaten."""
ROWS = CHOICE_ROWS - 1
"""Rows for the moves besides the suggested one (the first row holds it, the last Back and Leave lesson)."""


def outcome(result, players: int):
    """Who won a lesson against the computer, with the scores (a solo level's score sheet says it itself)."""
    if result is None or players < 2:
        return None
    you, them = number(result.scores[LEARNER]), number(result.scores[1])
    if LEARNER in result.winners and len(result.winners) == 1:
        return _("**You win**, {you} to {them}.", you=you, them=them)
    if LEARNER in result.winners:
        return _("**A draw**, {you} to {them}.", you=you, them=them)
    return _("**The computer wins**, {them} to {you}.", you=you, them=them)


def recent(text: str, limit: int = 700) -> str:
    """The end of what happened, at most ``limit`` characters, starting at a sentence (or else a word) with
    "…" when older sentences are left out: a long computer turn is never shown from the middle of a word."""
    if len(text) <= limit:
        return text
    tail = text[len(text) - limit + 2:]
    for mark in (". ", " "):
        cut = tail.find(mark)
        if cut != -1 and cut + len(mark) < len(tail):
            return "… " + tail[cut + len(mark):]
    return "… " + tail



def words_of(message: discord.Message | None) -> str | None:
    """The words a lesson's message shows: its first text display (a classic message's content before the
    upgrade)."""
    if message is None:
        return None
    shown = next((c.content for c in every(message.components) if isinstance(c, discord.TextDisplay)), None)
    return shown if shown is not None else message.content

class Learn(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @property
    def store(self):
        return self.bot.service.store

    @app_commands.command(name="learn", description="Learn a game by playing it against the computer, step by step "
                                                    "(only you see it)")
    @app_commands.describe(game="The game to learn")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def learn(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await think(interaction)
        lesson, step = await self.start(interaction, game.value, 0)
        shown = await self.panel(lesson, step, member_language(interaction), interaction.user)
        await say(interaction, None, files=shown["attachments"], view=shown["view"])

    async def start(self, interaction: discord.Interaction, game: str, level: int) -> tuple[Lesson, LessonStep]:
        players, options = get_coach(game).lesson(level)
        seed = random.getrandbits(31)
        step = await thinkpool.pool().run(lesson_step, game, players, options, seed, [], None, OPPONENT)
        lesson = await self.store.start_lesson(user_id=interaction.user.id, guild_id=interaction.guild_id, game=game,
                                               options=options, seed=seed, players=players, log=step.log)
        return lesson, step

    # --- clicks --------------------------------------------------------------------------------------------
    async def click(self, interaction: discord.Interaction, what: keys.LessonMove | keys.LessonUtility | None) -> None:
        """A click on a lesson's button or menu (``Geotable.on_key``); None: a lesson's id that names nothing."""
        lang = pick(interaction.locale)
        if what is None:
            await say(interaction, _("This button isn't one of your lesson's: start a lesson with "
                                                "`/{learn}`.", learn=command("learn")))
            return
        lesson = await self.store.lesson(what.lesson)
        if lesson is None:
            await say(interaction, _("This lesson is over: start a new one with `/{learn}`.",
                                                learn=command("learn")))
            return
        if lesson.user_id != interaction.user.id:
            await say(interaction, _("This lesson is someone else's: start your own with `/{learn}`.",
                                                learn=command("learn")))
            return
        utility = what.name if isinstance(what, keys.LessonUtility) else None
        if utility == "leave":
            await self.store.end_lesson(lesson.id)
            kit = Layout(get_engine(lesson.game).accent)
            kit.text(localize(_("You left the lesson. Start another with `/{learn}`, or play for real with `/{play}`.",
                                learn=command("learn"), play=command("play")), lang))
            await interaction.response.edit_message(content=None, attachments=[], view=kit.view, embed=None)
            return
        if utility in ("again", "next"):
            level = get_coach(lesson.game).level_of(lesson.options) + (1 if utility == "next" else 0)
            await interaction.response.defer()
            new, step = await self.start(interaction, lesson.game, level)
            await interaction.edit_original_response(**await self.panel(new, step, lang, interaction.user))
            return
        if what.version != lesson.version:
            await say(interaction, _("That is an older step of your lesson: use its latest message."))
            return
        if utility == "pick":
            await self.open_group(interaction, lesson, what.arg or "", lang)
            return
        await interaction.response.defer()
        step = await thinkpool.pool().run(lesson_step, lesson.game, lesson.players, lesson.options, lesson.seed,
                                          lesson.log, what.key, OPPONENT)
        if step.refused:
            await say(interaction, _("That move is not possible now."))
            return
        log_ = step.log
        if not await self.store.advance_lesson(lesson, log_):
            await say(interaction, _("That is an older step of your lesson: use its latest message."))
            return
        lesson = dataclasses.replace(lesson, log=log_, version=len(log_))
        await interaction.edit_original_response(**await self.panel(lesson, step, lang, interaction.user))

    async def open_group(self, interaction: discord.Interaction, lesson: Lesson, key: str, lang: str) -> None:
        """The first step of a two-step choice (a group of moves; "" goes back): the same step with that
        group's moves, and the board marking them; the words stay as they are."""
        await interaction.response.defer()
        step = await thinkpool.pool().run(lesson_step, lesson.game, lesson.players, lesson.options, lesson.seed,
                                          lesson.log, None, OPPONENT)
        engine = get_engine(lesson.game)
        group = None
        if step.advice is not None:
            others = [a for a in engine.legal_actions(step.state, LEARNER) if a.key != step.advice.key]
            group = group_named(key, others, engine.grouped(step.state, LEARNER), ROWS)
        if group is None:
            await say(interaction, _("That choice is not available now."))
            return
        text = words_of(interaction.message)
        await interaction.edit_original_response(**await self.panel(lesson, step, lang, interaction.user, group,
                                                                    text))


    # --- the lesson's message --------------------------------------------------------------------------------
    async def panel(self, lesson: Lesson, step: LessonStep, lang: str, user: discord.abc.User, group: str = "",
                    text: str | None = None) -> dict:
        """The lesson's message for ``step``; ``group``: the moves of that group are offered (the second step of
        a two-step choice); ``text``: the words already shown for the step (a pick changes only the moves)."""
        engine = get_engine(lesson.game)
        state, events = step.state, step.events
        person = {"id": user.id, "name": getattr(user, "display_name", None) or user.name}
        names = [person["name"], display_name(new_computer(OPPONENT, [person]))][:lesson.players]
        happened = recent(localize(events_words(events, names), lang))
        coach, title = get_coach(lesson.game), localize(_("Lesson: {game}", game=engine.title), lang)
        level = coach.level_of(lesson.options)
        if coach.levels > 1:
            title += " · " + localize(_("level {n} of {levels}", n=level + 1, levels=coach.levels), lang)
        lines = [f"**{title}**"]
        if step.weaker is not None:
            lines.append(localize(step.weaker, lang))
        if not any(seat == LEARNER for seat, _key in lesson.log) and not engine.is_over(state):
            # the first screen of a lesson: what the game is about, before the first choice
            lines.append(localize(_("**Goal:** {goal}", goal=coach.goal), lang))
        if happened:
            lines.append("> " + happened)
        view, controls = discord.ui.View(timeout=None), LessonControls(lesson)
        if engine.is_over(state):
            end = outcome(engine.result(state), lesson.players)
            if end is not None:
                lines.append(localize(end, lang))
            sheet = [localize(line, lang) for line in result_words(engine, state, names)]
            lines.extend(line for line in sheet if line not in happened)  # not twice when the last event said it
            lines.append(localize(_("Well played! Play for real with `/{play}`, or take the lesson again.",
                                    play=command("play")), lang))
            view.add_item(items.button(controls.utility("again"), localize(_("Again"), lang), "primary"))
            if level < coach.levels - 1 and coach.completed(engine, state, LEARNER):
                view.add_item(items.button(controls.utility("next"), localize(_("Next level"), lang), "success"))
            view.add_item(items.button(controls.utility("leave"), localize(_("Close"), lang)))
        else:
            advice = step.advice
            actions = engine.legal_actions(state, LEARNER)
            suggested = next(a for a in actions if a.key == advice.key)
            lines.append(localize(_("**Your choice:** {choice}", choice=advice.choice), lang))
            lines.append(localize(_("**Suggested:** {move}", move=suggested.label), lang))
            lines.append(localize(_("**Why:** {why}", why=advice.why), lang))
            self._moves(view, lesson, engine, state, actions, suggested, group, lang)
        focus = engine.focus(state, LEARNER, group) if group else None
        files = [discord.File(io.BytesIO(await self._board(engine, lesson, state, names, lang, focus)),
                              filename=f"lesson{lesson.id}-{lesson.version}.png")]
        if has_private(lesson.game) and not engine.is_over(state):
            image = await renderpool.private(lesson.game, engine.view(state, LEARNER), names[LEARNER], locale=lang)
            files.append(discord.File(io.BytesIO(image), filename=f"lesson{lesson.id}-{lesson.version}-yours.png"))
        kit = Layout(engine.accent)  # the layout kit (bot/ui/layout.py), as a table's messages
        kit.text(text if text is not None else "\n".join(lines))
        kit.image(files[0].filename, title)
        if len(files) > 1:
            kit.image(files[1].filename, localize(_("What only you can see."), lang))
        items_ = list(view.children)
        view.clear_items()
        kit.separator()
        kit.controls(items_)
        return {"content": None, "attachments": files, "view": kit.view, "embed": None}

    async def _board(self, engine: Engine, lesson: Lesson, state: State, names: list[str], lang: str,
                     focus: dict | None = None) -> bytes:
        computers = tuple(range(1, lesson.players))
        return await renderpool.board(lesson.game, board_view(engine, state), names, None, focus, computers,
                                      locale=lang)

    @staticmethod
    def _moves(view: discord.ui.View, lesson: Lesson, engine: Engine, state: State, actions: list, suggested,
               group: str, lang: str) -> None:
        """The suggested move (green) alone on the first row; every other move below it through the table's
        chooser (buttons, or a group first and then its moves, as at a table); Leave lesson on the last row (with
        Back while a group is open), away from the suggested move."""
        controls = LessonControls(lesson)
        view.add_item(items.button(controls.move(suggested.key), localize(_("✓ {move}", move=suggested.label), lang),
                                   "success", row=0))
        others = [a for a in actions if a.key != suggested.key]
        for item in chooser(controls, engine, others, group, always=engine.grouped(state, LEARNER),
                            lang=lang, rows=ROWS, first=1):
            view.add_item(item)
        view.add_item(items.button(controls.utility("leave"), localize(_("Leave lesson"), lang), "secondary",
                                   row=ROWS + 1))
