"""What the front end may ask for, parsed and checked in one place, before anything changes.

Each front-end message is one request: ``{"type": "move", "source": "t3", "target": "t5",
"count": 1}`` and so on (``js/src/types.ts``, ``Request``). :func:`parse` turns it into a
:class:`Request` or refuses it: :class:`RequestError` for a message our front end never
sends (the widget answers "Request refused: …"), :class:`MoveRefused` or a ``ValueError``
in a player's words for what a player can do (a drop on the stock, a bad deal number).

>>> from milligan_widget import Game
>>> parse({"type": "move", "source": "t3", "target": "t5", "count": 1}, Game.new(1)).move
Move('3:1>5')
>>> parse({"type": "move", "source": "t3", "target": "stock"}, Game.new(1))
Traceback (most recent call last):
...
milligan_widget.widget.requests.MoveRefused: Cards cannot go back to the stock.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from milligan_widget.engine import PRESETS, Game, IllegalMoveError, Move
from milligan_widget.engine.deals import deal_number
from milligan_widget.engine.errors import MilliganError
from milligan_widget.engine.errors import shown as _shown
from milligan_widget.studies.difficulty import DIFFICULTIES

MAX_SEED = 10**20 - 1
REQUEST_TYPES = (
    "move", "deal", "undo", "redo", "hint", "auto", "restart", "new",  # playing
    # "new" carries seed, rules and difficulty
    "next", "previous", "goto_step",  # lesson mode: the next or previous step, or step i
    "seek",  # replay viewer: show the position after ``ply`` moves
    "close",  # leave the lesson or the replay viewer
    "solution", "stop",  # play the solver's solution back; stop it (or Think longer)
    "think",  # Think longer: give the solver more time for the position on show
    "winnable",  # the "still winnable?" indicator on or off ({"on": true})
    "peek",  # the help that knows the hidden cards ({"on": true}) or fair play ({"on": false})
    "coach",  # the live coach on or off ({"on": true})
    "better",  # the coach's Show: take the last move back and light the better move
    "finish",  # play every card left home, when that is all there is left to do
    "stats",  # open the Statistics panel
    "save", "files",  # save the game in the notebook's folder; list the saves there (Open)
    "open",  # open the save named ``name`` ({"name": "milligan-deal-8-….json"})
    "resume",  # take up the game auto-saved before ({"on": true}), or not ({"on": false})
    "review",  # review the game on show in the replay viewer (in the background; Stop stops it)
    "hold",  # a card is picked up: the background searches wait for its move (changes nothing)
)  # fmt: skip


def _request_type(content: Any) -> str:
    if not isinstance(content, dict):
        raise RequestError("expected an object")
    kind = content.get("type")
    if kind not in REQUEST_TYPES:
        raise RequestError(f"unknown request type {_shown(kind)}")
    return str(kind)


def _pile_names(game: Game) -> frozenset[str]:
    """Every pile a request may name in this game (``f``/``c``: any fitting one)."""
    rules = game.rules
    return _pile_names_for(rules.columns, rules.foundation_count, rules.cells, rules.reserve)


@functools.cache
def _pile_names_for(columns: int, foundations: int, cells: int, reserve: str) -> frozenset[str]:
    names = {f"t{i + 1}" for i in range(columns)}
    names |= {f"f{i + 1}" for i in range(foundations)} | {"f"}
    if cells:
        names |= {f"c{i + 1}" for i in range(cells)} | {"c"}
    if reserve != "none":
        names.add("reserve")
    return frozenset(names)


def _valid_pile(name: Any, role: str) -> str:
    if not isinstance(name, str) or len(name) > 8:
        raise RequestError(f"the {role} must be a pile name such as 't3'")
    return name


def _parse_move_request(content: dict[str, Any], game: Game) -> Move:
    source = _valid_pile(content.get("source"), "source")
    target = _valid_pile(content.get("target"), "target")
    count = content.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 104:
        raise RequestError("count must be a whole number of cards from 1 to 104")
    piles = _pile_names(game)
    if source not in piles - {"f", "c"}:
        _refuse_pile(game, source, "source")
    if target not in piles:
        _refuse_pile(game, target, "target")
    if source == target:
        raise MoveRefused("A card cannot move onto its own pile.")
    return Move(source, target, count)


class MoveRefused(ValueError):
    """A move request our front end can send (a drop on the stock, or on a pile of another
    variant left on the page) that names no pile of this game: refused in a player's words."""


_NUMBERED_PILE = re.compile(r"([tfc])([1-9][0-9]?)")
_PILE_KINDS = {"t": "column", "f": "foundation", "c": "free cell"}


def _refuse_pile(game: Game, name: str, role: str) -> None:
    """Refuse ``name``, a pile this game does not have: in a player's words when the front
    end can send it, else as a malformed request."""
    numbered = _NUMBERED_PILE.fullmatch(name)
    if name == "stock" and role == "target":
        raise MoveRefused("Cards cannot go back to the stock.")
    if name == "reserve":
        raise MoveRefused("This game has no reserve.")
    if (name == "c" and role == "target") or (numbered and numbered[1] == "c" and not game.cells):
        raise MoveRefused("This game has no free cells.")
    if numbered:
        kind = _PILE_KINDS[numbered[1]]
        count = {"t": len(game.tableau), "f": len(game.foundations), "c": len(game.cells)}
        have = count[numbered[1]]
        raise MoveRefused(f"There is no {kind} {numbered[2]}: this game has {have} {kind}s.")
    raise RequestError(f"there is no pile {name!r} in this game")


def _parse_on(content: dict[str, Any]) -> bool:
    on = content.get("on")
    if not isinstance(on, bool):
        raise RequestError("'on' must be true or false")
    return on


def _parse_ply(value: Any, count: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= count:
        raise RequestError(f"ply must be a whole number from 0 to {count}")
    return value


def _parse_index(value: Any, count: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
        raise RequestError(f"index must be a whole number from 0 to {count - 1}")
    return value


def _parse_seed(value: Any) -> int | None:
    """The deal number a player typed (None: a random deal); a ValueError in their words."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        with contextlib.suppress(MilliganError):
            value = deal_number(value)  # the digits 0 to 9 only
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEED:
        shown = value[:24] if isinstance(value, str) else _shown(value, 12)
        raise ValueError(
            f"“{shown}” is not a deal number: type a whole number from 1 to {MAX_SEED:,}, "
            "or leave the box empty for a random deal."
        )
    return value


def _parse_rules(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in PRESETS:
        raise RequestError(f"unknown rules preset {_shown(value)}")
    return value


def _parse_difficulty(value: Any) -> str | None:
    """The difficulty chosen for New game (None: none chosen, any deal); whether the rules
    have it is New game's to say, in a player's words."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in DIFFICULTIES:
        raise RequestError(f"unknown difficulty {_shown(value)}")
    return value


def _parse_name(value: Any) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= 200:
        raise RequestError("the name must be a save file's name")
    return value


class RequestError(ValueError):
    """A request from the front end that is not well formed."""


MAX_SUMMARY_KEYS = 8  # the names of entries a request's summary shows


def summary(content: Any) -> str:
    """A few words on a message for the log, bounded whatever it holds: its type and the
    names of its first entries, never its values (a value may be huge, or nested past
    Python's recursion limit, and its repr would fail too).

    >>> summary({"type": "move", "source": "t3", "target": "t5"})
    "a 'move' request with type, source, target"
    >>> summary([[[]]])
    'a list, not a request'
    """
    try:
        if not isinstance(content, dict):
            return f"a {type(content).__name__}, not a request"
        kind = content.get("type")
        kind_words = _shown(kind, 20) if isinstance(kind, str) else f"a {type(kind).__name__}"
        names = [
            _shown(name, 20)[1:-1] if isinstance(name, str) else f"a {type(name).__name__}"
            for name in itertools.islice(content, MAX_SUMMARY_KEYS)
        ]
        extra = len(content) - MAX_SUMMARY_KEYS
        more = f" and {extra:,} more" if extra > 0 else ""
        return f"a {kind_words} request with {', '.join(names)}{more}"
    except Exception:  # a mapping that fails even to be looked at
        return f"a {type(content).__name__} that cannot be read"


@dataclass(frozen=True)
class Request:
    """One checked request: its ``kind`` and the values that kind carries."""

    kind: str
    move: Move | None = None  # "move"
    seed: int | None = None  # "new": None for a random deal
    rules: str | None = None  # "new": None for the same rules
    difficulty: str | None = None  # "new": None for any deal
    on: bool = False  # "winnable", "peek", "coach", "resume"
    number: int = 0  # "seek": the ply; "goto_step": the step's index
    name: str = ""  # "open": a save file's name (checked against the folder when opened)

    def the_move(self) -> Move:
        """The move a "move" request carries."""
        if self.move is None:
            raise RequestError(f"a {self.kind!r} request carries no move")
        return self.move


def parse(content: Any, game: Game, replay_moves: int = 0, lesson_steps: int = 0) -> Request:
    """Check ``content`` against ``game`` (and the replay's moves or the lesson's steps on
    show) and return the :class:`Request`; raise before anything is changed."""
    kind = _request_type(content)
    if kind == "move":
        return Request(kind, move=_parse_move_request(content, game))
    if kind == "new":
        seed, rules = _parse_seed(content.get("seed")), _parse_rules(content.get("rules"))
        difficulty = _parse_difficulty(content.get("difficulty"))
        return Request(kind, seed=seed, rules=rules, difficulty=difficulty)
    if kind in ("winnable", "peek", "coach", "resume"):
        return Request(kind, on=_parse_on(content))
    if kind == "open":
        return Request(kind, name=_parse_name(content.get("name")))
    if kind == "seek":
        return Request(kind, number=_parse_ply(content.get("ply"), replay_moves))
    if kind == "goto_step":
        return Request(kind, number=_parse_index(content.get("index"), lesson_steps))
    return Request(kind)


# ------------------------------------------------------------- what Python code passes in
def as_move(move: Any) -> Move:
    """A :class:`Move` from a Move or its notation; a TypeError for anything else.

    >>> as_move("3>5")
    Move('3>5')
    """
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    raise TypeError(f"a move is a Move or its notation such as '3>5', not {move!r:.40}")


def as_line(game: Game, moves: Iterable[Move | str]) -> list[Move]:
    """``moves`` as Moves, checked to play in turn from ``game`` (IllegalMoveError names the
    first that does not); ``game`` is left as it is."""
    line, trial = [as_move(move) for move in moves], game.copy()
    for ply, move in enumerate(line, 1):
        try:
            trial.play(move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {ply} of the line, {move}: {exc}") from None
    return line


def saved_game(value: Any) -> Game | None:
    """The game in ``value`` (a Game, its saved JSON text or a path to a save), or None."""
    if isinstance(value, Game):
        return value
    if isinstance(value, Path) or (isinstance(value, str) and value.endswith(".json")):
        return Game.load(value)
    if isinstance(value, str) and value.lstrip().startswith("{"):
        return Game.from_json(value)
    return None
