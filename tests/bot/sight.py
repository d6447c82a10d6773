"""What a player sees of a message of the loopback Discord: the one place the tests read a message's layout.

A message is either the classic kind (``content``, ``embeds``, top-level action rows) or a Components V2 one
(flag ``IS_COMPONENTS_V2``: containers, sections, text displays, media galleries and action rows nested in
them). The readers below answer the same questions of both, so a test asks what a player sees (is it a board,
its words, whose turn, its buttons and their keys, its image) and not where the layout keeps it.

The words of a message come in three parts, as a player reads them: its ``title`` (an embed's title, a V2
message's heading: a text display's first line starting with ``#``), its ``description`` (an embed's
description, a V2 message's other text displays, without the footer) and its ``footer`` (an embed's footer, a
V2 message's small print: the last text display line starting with ``-# ``)."""

from __future__ import annotations

import re

from bot.ui import keys

IS_COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON, SELECT, SECTION, TEXT, THUMBNAIL, GALLERY, FILE, SEPARATOR, CONTAINER = (
    1, 2, 3, 9, 10, 11, 12, 13, 14, 17)
INTERACTIVE = (2, 3, 5, 6, 7, 8)
"""Buttons and the select menus (string, user, role, mentionable, channel)."""


def is_v2(message: dict) -> bool:
    return bool((message.get("flags") or 0) & IS_COMPONENTS_V2)


def walk(items: list[dict]):
    """Every component of a tree, depth first, in the order a player sees them (a section's accessory after its
    texts)."""
    for item in items or []:
        yield item
        yield from walk(item.get("components") or [])
        if item.get("accessory"):
            yield from walk([item["accessory"]])


def components(message: dict) -> list[dict]:
    """The buttons and menus of a message, in order (a section's accessory button too)."""
    return [c for c in walk(message.get("components") or []) if c.get("type") in INTERACTIVE]


def rows(message: dict) -> list[list[dict]]:
    """The message's action rows, each as its buttons or menu (a section's accessory is a row of its own)."""
    out = []
    for c in walk(message.get("components") or []):
        if c.get("type") == ACTION_ROW:
            out.append(list(c.get("components") or []))
        elif c.get("type") == SECTION and (c.get("accessory") or {}).get("type") == BUTTON:
            out.append([c["accessory"]])
    return out


def labels(message: dict) -> list[str | None]:
    return [c.get("label") for c in components(message)]


def labels_or_placeholders(message: dict) -> list[str | None]:
    return [c.get("label") or c.get("placeholder") for c in components(message)]


def custom_ids(message: dict) -> list[str]:
    return [c["custom_id"] for c in components(message) if c.get("custom_id")]


def key_of(component: dict) -> str:
    """A table component's key (a move's action key, a utility's ``<name>[.<arg>]``, a menu's name), the same in
    every language ("" for another's)."""
    what = keys.decode(component.get("custom_id") or "")
    if isinstance(what, keys.Move):
        return what.key
    if isinstance(what, keys.Utility):
        return what.text
    return what.name if isinstance(what, keys.Menu) else ""


def keys_of(message: dict) -> list[str]:
    return [key_of(c) for c in components(message)]


def table_of(message: dict) -> int:
    """The table a message's components belong to."""
    return int(components(message)[0]["custom_id"].split(":")[1])


def version_of(message: dict) -> set[int]:
    """The table versions its components' ids carry."""
    return {int(i.split(":")[2]) for i in custom_ids(message)}


def menu_values(message: dict) -> list[str]:
    return [o["value"] for c in components(message) if c.get("type") == SELECT for o in c.get("options", [])]


def accent(message: dict) -> int | None:
    """The accent colour of a V2 message's (first) container: its game's, or the house's for a screen of no
    game; None for a classic message."""
    return next((c.get("accent_color") for c in walk(message.get("components") or []) if c.get("type") == CONTAINER),
                None)


def image_words(message: dict) -> list[str]:
    """The descriptions of the message's gallery images (what a screen reader says of them)."""
    return [item.get("description") or "" for c in walk(message.get("components") or []) if c.get("type") == GALLERY
            for item in c.get("items") or []]


# --- words -------------------------------------------------------------------------------------------------------
def text_displays(message: dict) -> list[str]:
    return [c.get("content") or "" for c in walk(message.get("components") or []) if c.get("type") == TEXT]


def latest_moves(message: dict) -> tuple[list[str], int]:
    """A table message's latest moves (its "Last move: ..." or "Latest moves:" display), oldest first, and how
    many earlier ones its "… N earlier moves" note counts (0 without one)."""
    found = [t for t in text_displays(message) if t.startswith(("Latest moves:", "Last move: "))]
    if not found:
        return [], 0
    lines = found[0].split("\n")
    if lines[0].startswith("Last move: "):
        return [lines[0].removeprefix("Last move: ")], 0
    earlier = 0
    if len(lines) > 1 and lines[1].startswith("-# … "):
        counted = re.search(r"(\d+)", lines[1])
        earlier = int(counted.group(1)) if counted else -1
        lines = lines[1:]
    return lines[1:], earlier


def _v2_pages(message: dict) -> list[tuple[str, str, str]]:
    """A V2 message's words as pages: a heading line (``#``) starts one; its small print (``-# ``) is its
    footer, the other lines its description."""
    found: list[list] = []
    for line in "\n".join(text_displays(message)).split("\n"):
        if line.startswith("#"):
            found.append([line.lstrip("#").strip(), [], ""])
            continue
        if not found:
            found.append(["", [], ""])
        if line.startswith("-# ") and not found[-1][2]:
            found[-1][2] = line[3:]
        else:
            found[-1][1].append(line)
    return [(t, "\n".join(lines).strip("\n"), f) for t, lines, f in found] or [("", "", "")]


def title(message: dict) -> str:
    if is_v2(message):
        return _v2_pages(message)[0][0]
    embeds = message.get("embeds") or []
    return (embeds[0].get("title") or "") if embeds else ""


def description(message: dict) -> str:
    """The body of the message's words (its first embed's description), "" when it has none."""
    if is_v2(message):
        return _v2_pages(message)[0][1]
    embeds = message.get("embeds") or []
    return (embeds[0].get("description") or "") if embeds else ""


def footer(message: dict) -> str:
    if is_v2(message):
        return _v2_pages(message)[0][2]
    embeds = message.get("embeds") or []
    return ((embeds[0].get("footer") or {}).get("text") or "") if embeds else ""


def pages(message: dict) -> list[tuple[str, str, str]]:
    """The (title, description, footer) of each part of a message: each embed of a classic one (a rule page and
    what computers do), each heading's part of a V2 one."""
    if is_v2(message):
        return _v2_pages(message)
    return [(e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or "")
            for e in message.get("embeds") or []]


def content(message: dict) -> str:
    """The plain words of a message: its content, or the words of a V2 message other than a board or a lobby
    (the final standings, a private panel); a board's or a lobby's words are read with ``title``,
    ``description``, ``words``."""
    if message.get("content") or not is_v2(message):
        return message.get("content") or ""
    if is_board(message) or is_lobby(message):
        return ""
    return "\n".join(text_displays(message))


def texts(message: dict) -> list[str]:
    """Every piece of words a player can read on the message, its components' labels, placeholders and options
    too, and the descriptions of its images (what a screen reader says)."""
    out = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        out += [embed.get("title"), embed.get("description"), (embed.get("footer") or {}).get("text"),
                (embed.get("author") or {}).get("name"),
                *(f"{f['name']} {f['value']}" for f in embed.get("fields", []))]
    for c in walk(message.get("components") or []):
        if c.get("type") == TEXT:
            out.append(c.get("content"))
        elif c.get("type") == GALLERY:
            out += [item.get("description") for item in c.get("items") or []]
        elif c.get("type") == THUMBNAIL:
            out.append(c.get("description"))
        elif c.get("type") in INTERACTIVE:
            out.append(c.get("label") or c.get("placeholder"))
            out += [f"{o['label']} {o.get('description') or ''}" for o in c.get("options", [])]
    return [t for t in out if t]


def words(message: dict) -> str:
    """All the words of a message (content, titles, descriptions, text displays) as one text, no labels."""
    out = [message.get("content") or ""]
    for t, d, f in pages(message) if not is_v2(message) else []:  # (a V2 message's are its text displays)
        out += [t, d, f]
    out += text_displays(message)
    return "\n".join(t for t in out if t)


TO_ACT = re.compile(r"<@(\d+)>")


def to_act_line(message: dict) -> str:
    """The first line of a board's words ("To act: **Ana** (<@101>)", in the board's language)."""
    text = description(message)
    return text.splitlines()[0] if text else ""


def to_act_id(message: dict) -> int | None:
    """The user whose mention is on a board's first line, in any language."""
    found = TO_ACT.findall(to_act_line(message))
    return int(found[0]) if found else None


# --- images ------------------------------------------------------------------------------------------------------
def attachments(message: dict) -> list[dict]:
    return list(message.get("attachments") or [])


def has_image(message: dict) -> bool:
    return bool(message.get("attachments"))


def image_name(message: dict) -> str:
    """The filename of the message's (first) image."""
    return message["attachments"][0]["filename"]


def image(fake, message: dict, name: str | None = None) -> bytes:
    """The bytes of the message's first attachment (or of the one named ``name``)."""
    for a in message["attachments"]:
        if name is None or a["filename"] == name:
            return fake.files[int(a["id"])]
    raise AssertionError(f"no attachment {name!r} on the message")


def files(fake, message: dict) -> dict[str, bytes]:
    return {a["filename"]: fake.files[int(a["id"])] for a in message["attachments"]}


def image_refs(message: dict) -> list[str]:
    """The attachment URLs the message shows (an embed's image, a media gallery's items)."""
    out = [e["image"]["url"] for e in message.get("embeds") or [] if e.get("image")]
    for c in walk(message.get("components") or []):
        if c.get("type") == GALLERY:
            out += [item["media"]["url"] for item in c.get("items") or []]
        elif c.get("type") == THUMBNAIL:
            out.append(c["media"]["url"])
    return out


# --- kinds of message --------------------------------------------------------------------------------------------
def is_board(message: dict) -> bool:
    """A table's message with its board image (not a lobby, standings, a card or an animation)."""
    return any(a["filename"].startswith("table") for a in message.get("attachments") or [])


def is_lobby(message: dict) -> bool:
    return "lobby" in title(message).lower() and not is_board(message)


def boards(fake, channel: int) -> list[dict]:
    return [m for m in fake.messages_in(channel) if is_board(m)]


def board(fake, channel: int) -> dict:
    """The newest table message (the one with a board image)."""
    found = boards(fake, channel)
    assert found, "no board was posted"
    return found[-1]


def lobby(fake, channel: int) -> dict:
    """The newest lobby of the channel (its title says "lobby": in English)."""
    return [m for m in fake.messages_in(channel) if is_lobby(m)][-1]


def joinable(fake, channel: int) -> dict:
    """The newest lobby of the channel with a Join button (found by the button's key: in any language)."""
    return [m for m in fake.messages_in(channel) if "join" in keys_of(m)][-1]


def is_standings(message: dict) -> bool:
    return content(message).startswith("🏆")


def standings_of(fake, channel: int) -> dict | None:
    found = [m for m in fake.messages_in(channel) if is_standings(m)]
    return found[-1] if found else None


def panels(fake, user: int, channel: int | None = None) -> list[dict]:
    """A player's private panels (ephemerals with an image), oldest first."""
    return [m for m in fake.ephemerals(user) if m["attachments"]
            and (channel is None or int(m["channel_id"]) == channel)]
