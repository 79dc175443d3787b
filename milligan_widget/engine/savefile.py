"""Saved games: a small versioned JSON document, written atomically and read with care.

.. code-block:: json

    {"format": "milligan-widget/game", "version": 1,
     "rules": {"decks": 2, "reserve": "sequence", ..., "name": "classic"},
     "seed": 1, "deck": ["3D", "5H", ...],
     "moves": ["d", "3>f", {"move": "2>5", "comment": "frees the Ace"}]}

A numbered deal keeps its ``seed`` and its ``deck`` (the full dealing order); loading checks
that the seed deals that very deck under the saved rules. A game dealt from an explicit deck
has ``"seed": null``; a staged position (:meth:`Game.from_layout`) has a ``layout`` instead of
a ``deck``. Face-down cards (docs/rules.md §3.10) need no entry of their own: a
deal's are dealt again from its rules and deck, and every move's turning up replays with it;
a staged layout lists them as ``"face_down"`` (counts per column, left out when all are 0).
The rule options added with them (``deal``, ``moves``) are written only when they are not at
their defaults, so older saves load, and a classic game saves as it always did.

A game may carry ``"meta"``: a few named values that whoever saved it keeps beside the game
(:attr:`Game.meta <milligan_widget.engine.game.Game.meta>`; the widget writes
``{"peek": true}`` for a game played peeking). The engine gives them no meaning: it checks
their shape (:func:`check_meta`), keeps them with the game and writes them back. ``"meta"``
is written only when there is some, so a game without any saves byte for byte as before, and
a save from before loads as it did.

Loading replays every move through the rules and refuses the whole file with a
:class:`SaveFileError` that names the problem in a player's words, whatever is wrong with it.

Limits (a file past one is refused before it is read in full):

* :data:`MAX_SAVE_BYTES`: a saved game is at most 5,000,000 bytes of UTF-8 text;
* :data:`MAX_MOVES`: it holds at most 20,000 moves (a whole game takes a few hundred);
* :data:`MAX_COMMENT` (in :mod:`~milligan_widget.engine.game`): a comment is at most 2,000
  characters;
* :data:`MAX_DIGITS`: a number in the file has at most 25 digits (a deal number has 20).

:func:`write_atomic` writes a file so that an interrupted save (a full disk, a kill) never
leaves a half-written file in place of the previous good one.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import re
import stat
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import MilliganError, SaveFileError
from .errors import shown as _shown
from .moves import Move
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

T = TypeVar("T")

FORMAT = "milligan-widget/game"
VERSION = 1
MAX_SAVE_BYTES = 5_000_000  #: the largest saved game read or written, in bytes
MAX_MOVES = 20_000  #: the most moves a saved game may hold
MAX_DIGITS = 25  #: the longest number a saved game may hold, in digits
MAX_DEPTH = 32  #: the deepest its lists and objects may nest (a saved game needs 3)

_KEYS = {"format", "version", "rules", "seed", "deck", "layout", "moves", "meta"}
MAX_META = 16  #: the most values a game's ``meta`` holds
MAX_META_TEXT = 200  #: the longest text value in ``meta``, in characters
_META_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
_LAYOUT_KEYS = {"tableau", "foundations", "stock", "reserve", "cells", "face_down"}
_MOVE_KEYS = {"move", "comment"}


# ----------------------------------------------------------------------------- writing


def write_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically: into a temporary file in the same
    folder, flushed and synced to disk, then renamed over ``path`` with :func:`os.replace`.

    Readers see the old file or the new one, never a mix; if anything fails on the way, the
    old file is untouched and the temporary file is removed. A new file gets the usual
    permissions (as ``open`` would make it); a replaced one keeps its own.
    """
    path = Path(path)
    if path.is_symlink():
        path = path.resolve()
    data = text.encode("utf-8")
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, _mode_for(path))
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(path.parent)


def _mode_for(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; elsewhere there is nothing to open)."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def to_document(game: Game) -> dict[str, Any]:
    """The saved-game document as plain data."""
    comments = game.comments
    moves: list[Any] = []
    for ply, move in enumerate(game.history, start=1):
        moves.append(
            {"move": str(move), "comment": comments[ply]} if ply in comments else str(move)
        )
    if len(moves) > MAX_MOVES:
        raise SaveFileError(
            f"this game has {len(moves):,} moves: a saved game holds at most {MAX_MOVES:,}"
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        **(
            {"layout": game.layout.to_dict(game.foundation_suit_codes)}
            if game.layout
            else {"deck": [str(card) for card in game.deck or ()]}  # a deal has its deck
        ),
        "moves": moves,
        **({"meta": game.meta} if game.meta else {}),
    }


def dumps(game: Game, indent: int | None = 1) -> str:
    return json.dumps(to_document(game), indent=indent, ensure_ascii=False)


# ----------------------------------------------------------------------------- reading


def read_text(
    path: str | os.PathLike[str], limit: int = MAX_SAVE_BYTES, *, follow: bool = True
) -> str:
    """The text of a file the project wrote (a saved game, an auto-save), read with care:
    opened without waiting (a pipe at ``path`` would wait for a writer forever), only if it
    is a regular file, and refused with :class:`SaveFileError` if it is larger than
    ``limit`` bytes (without reading it all) or is not UTF-8 text. ``follow=False`` refuses
    a symbolic link. A missing or unreadable file raises the usual :class:`OSError`.

    >>> read_text("/dev/null")
    Traceback (most recent call last):
    ...
    milligan_widget.engine.errors.SaveFileError: not a saved game: it is a device, not a file
    """
    name = Path(path).name
    fd = os.open(path, os.O_RDONLY | _NONBLOCK | (0 if follow else _NOFOLLOW))
    kind = os.fstat(fd).st_mode
    if not stat.S_ISREG(kind):
        os.close(fd)
        raise SaveFileError(f"not a saved game: it is {_kind(kind)}, not a file")
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise SaveFileError(_too_big(limit))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveFileError(f"{name} is not a saved game: it is not text") from None


_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _kind(mode: int) -> str:
    """What a file that is no regular file is, in a player's words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def load(path: str | os.PathLike[str], game_type: type[Game]) -> Game:
    """The game saved in the file at ``path`` (see :func:`read_text` and :func:`loads`)."""
    return loads(read_text(path), game_type)


def loads(text: str | bytes, game_type: type[Game]) -> Game:
    """The game saved in ``text``, made by ``game_type``; :class:`SaveFileError` says what is
    wrong otherwise. (:class:`Game` calls this module and hands itself in: the format knows
    the game only as a type.)"""
    return from_document(parse(text), game_type)


def parse(text: str | bytes, limit: int = MAX_SAVE_BYTES) -> Any:
    """The JSON document in ``text`` (at most ``limit`` bytes), read with care: nested at
    most :data:`MAX_DEPTH` deep (checked before the JSON parser, which would recurse),
    numbers of at most :data:`MAX_DIGITS` digits, no NaN or infinity; otherwise a
    :class:`SaveFileError` in a player's words.

    >>> parse('{"moves": ["d"]}')
    {'moves': ['d']}
    >>> parse("[" * 40 + "]" * 40)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    milligan_widget.engine.errors.SaveFileError: not a saved game: its lists or objects are ...
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise SaveFileError("a saved game is text (JSON), not " + type(text).__name__)
    if len(text) > limit or (
        isinstance(text, str) and len(text.encode("utf-8", "surrogatepass")) > limit
    ):
        raise SaveFileError(_too_big(limit))
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise SaveFileError("not a saved game: it is not text") from None
    depth = nesting(text)
    if depth > MAX_DEPTH:
        raise SaveFileError(
            f"not a saved game: its lists or objects are nested too deep ({depth:,} levels; "
            f"a saved game has at most {MAX_DEPTH})"
        )
    try:
        return json.loads(
            text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
        )
    except json.JSONDecodeError as error:
        raise SaveFileError(
            f"not a saved game: the text is not valid JSON (line {error.lineno}, "
            f"column {error.colno}: {error.msg.lower()})"
        ) from None


# A JSON string (brackets in it are text), or an unfinished one up to the end: from its
# opening quote this always matches, in one pass, so no text can make it slow.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting(text: str) -> int:
    """How deep the lists and objects of the JSON ``text`` nest, outside its strings:
    the depth the JSON parser would recurse to, found in one pass without recursion.

    >>> nesting('{"a": [[1], "[[["]}'), nesting("1")
    (3, 0)
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if brackets.count("[") + brackets.count("{") <= 1:  # most JSON a file holds
        return 1 if brackets else 0
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets), initial=0))


def _too_big(limit: int = MAX_SAVE_BYTES) -> str:
    size = f"{limit // 1_000_000} MB" if limit >= 1_000_000 else f"{limit:,} bytes"
    return f"not a saved game: it is larger than {size}"


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise SaveFileError(
            f"not a saved game: it holds a number of {len(digits):,} digits "
            f"(at most {MAX_DIGITS} make sense)"
        )
    return int(digits)


def _parse_float(digits: str) -> float:
    value = float(digits)
    if not math.isfinite(value):
        raise SaveFileError("not a saved game: it holds a number too large to mean anything")
    return value


def _parse_constant(name: str) -> float:
    raise SaveFileError(f"not a saved game: {name} is not a value a saved game holds")


def from_document(document: Any, game_type: type[Game]) -> Game:
    """The game a parsed document describes (see the module docstring), or SaveFileError."""
    _check_header(document)
    rules = _read(lambda: Rules.from_dict(_field(document, "rules", dict)), "rules")
    moves = _field(document, "moves", list)
    if len(moves) > MAX_MOVES:
        raise SaveFileError(
            f"the saved game has {len(moves):,} moves: at most {MAX_MOVES:,} are read"
        )
    meta = check_meta(document.get("meta", {}), SaveFileError)
    game = _start(document, rules, game_type)
    for ply, entry in enumerate(moves, start=1):
        _replay_entry(game, ply, entry)
    for name, value in meta.items():
        game.set_meta(name, value)
    return game


def check_meta(meta: Any, error: type[MilliganError] = MilliganError) -> dict[str, Any]:
    """``meta`` if it is what a game's ``meta`` may be: at most :data:`MAX_META` values, each
    named in lower case (``"peek"``, ``"asked-for"``, 40 characters at most) and each a
    small scalar: true or false, a whole number, a finite number, or text of at most
    :data:`MAX_META_TEXT` characters. Otherwise ``error`` says what is wrong.

    >>> check_meta({"peek": True})
    {'peek': True}
    >>> check_meta({"peek": [1]})
    Traceback (most recent call last):
    ...
    milligan_widget.engine.errors.MilliganError: the saved game's meta 'peek' is not ...
    """
    if not isinstance(meta, dict):
        raise error("the saved game's meta must be a set of named values, like {\"peek\": true}")
    if len(meta) > MAX_META:
        raise error(f"the saved game's meta holds {len(meta):,} values: at most {MAX_META}")
    for name, value in meta.items():
        check_meta_value(name, value, error)
    return meta


def check_meta_value(name: Any, value: Any, error: type[MilliganError] = MilliganError) -> None:
    """Refuse with ``error`` a ``meta`` name or value that :func:`check_meta` would refuse."""
    if not isinstance(name, str) or not _META_NAME.fullmatch(name):
        raise error(
            f"{_shown(name)} cannot name a value in the saved game's meta: "
            "a name is a lower-case word such as 'peek'"
        )
    small = isinstance(value, (bool, int)) or (
        isinstance(value, float) and math.isfinite(value)
    )
    if isinstance(value, str):
        small = len(value) <= MAX_META_TEXT
    if not small:
        raise error(
            f"the saved game's meta {name!r} is not a small value "
            "(true or false, a number or short text)"
        )


def _check_header(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SaveFileError(f"not a saved game: the document's format is not {FORMAT!r}")
    version = document.get("version")
    if type(version) is not int or version != VERSION:
        raise SaveFileError(
            f"saved-game version {_shown(version)} is not supported (this library reads {VERSION})"
        )
    unknown = sorted(set(document) - _KEYS)
    if unknown:
        raise SaveFileError(f"the saved game has unknown entries: {_names(unknown)}")


def _start(document: dict[str, Any], rules: Rules, game_type: type[Game]) -> Game:
    """The game at its deal: from its layout, its deck (checked against its seed) or its seed."""
    seed = _read(lambda: _seed(document.get("seed")), "seed")
    if "layout" in document:
        if "deck" in document:
            raise SaveFileError("the saved game has both a deck and a layout: it needs one")
        if seed is not None:
            raise SaveFileError(
                "the saved game is a staged position, which has no deal number, "
                f"but it gives seed {seed}"
            )
        layout = _layout(_field(document, "layout", dict))
        return _read(lambda: game_type.from_layout(**layout, rules=rules), "layout")
    if "deck" not in document:
        if seed is None:
            raise SaveFileError("the saved game has no deck, no layout and no seed (deal number)")
        return _read(lambda: game_type.new(seed, rules), "seed")
    deck = _field(document, "deck", list)
    if not all(isinstance(c, str) for c in deck):
        raise SaveFileError("the saved game's deck must list cards as text, like '10H'")
    game = _read(lambda: game_type.from_deck(deck, rules), "deck")
    if seed is None:
        return game
    dealt = _read(lambda: game_type.new(seed, rules), "seed")
    if dealt.deck != game.deck:
        raise SaveFileError(
            f"the saved game's deck is not the one deal {seed} deals under these rules: "
            "the file was changed or is damaged"
        )
    return dealt


def _layout(layout: dict[str, Any]) -> dict[str, Any]:
    """The staged position's parts, each checked for its shape (the cards are checked later)."""
    unknown = sorted(set(layout) - _LAYOUT_KEYS)
    if unknown:
        raise SaveFileError(f"the saved game's layout has unknown entries: {_names(unknown)}")
    if "tableau" not in layout:
        raise SaveFileError("the saved game's layout has no tableau")
    tableau = layout["tableau"]
    if not isinstance(tableau, list) or not all(_card_list(col) for col in tableau):
        raise SaveFileError("the layout's tableau must be a list of columns, each a list of cards")
    for name in ("stock", "reserve"):
        if name in layout and not _card_list(layout[name]):
            raise SaveFileError(f"the layout's {name} must be a list of cards, like ['10H']")
    foundations = layout.get("foundations")
    if foundations is not None and not (
        isinstance(foundations, list)
        and all(f is None or isinstance(f, str) or _card_list(f) for f in foundations)
    ):
        raise SaveFileError("the layout's foundations must list each pile's top card (or null)")
    cells = layout.get("cells")
    if cells is not None and not (
        isinstance(cells, list) and all(c is None or isinstance(c, str) for c in cells)
    ):
        raise SaveFileError("the layout's cells must list a card (or null) for each cell")
    down = layout.get("face_down")
    if down is not None and not (
        isinstance(down, list) and all(type(n) is int and n >= 0 for n in down)
    ):
        raise SaveFileError("the layout's face_down must list a count (0 or more) per column")
    return layout


def _card_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(c, str) for c in value)


def _replay_entry(game: Game, ply: int, entry: Any) -> None:
    comment = None
    if isinstance(entry, dict):
        unknown = sorted(set(entry) - _MOVE_KEYS)
        if unknown:
            raise SaveFileError(f"move {ply} has unknown entries: {_names(unknown)}")
        comment = entry.get("comment")
        if comment is not None and not isinstance(comment, str):
            raise SaveFileError(f"move {ply}: its comment is not text")
        entry = entry.get("move")
    try:
        game.play(Move.parse(entry))
        if comment:
            game.set_comment(comment)
    except MilliganError as error:
        raise SaveFileError(
            f"move {ply} ({_shown(entry)}) cannot be replayed: {error}"
        ) from None


def _field(document: dict[str, Any], name: str, kind: type[T]) -> T:
    value = document.get(name)
    if not isinstance(value, kind):
        raise SaveFileError(f"the saved game's {name!r} is missing or not a {_KIND[kind]}")
    return value


_KIND: dict[type, str] = {dict: "set of named entries", list: "list"}


def _seed(seed: Any) -> int | None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 1):
        raise MilliganError(f"{_shown(seed)} is not a deal number")
    return seed


def _read(make: Callable[[], T], what: str) -> T:
    try:
        return make()
    except SaveFileError:
        raise
    except MilliganError as error:
        raise SaveFileError(f"the saved game's {what} is wrong: {error}") from None


def _names(keys: Sequence[object]) -> str:
    return ", ".join(_shown(k) for k in keys[:5]) + (" …" if len(keys) > 5 else "")

