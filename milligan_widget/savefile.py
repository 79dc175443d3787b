"""Saved games: a small versioned JSON document.

.. code-block:: json

    {"format": "milligan-widget/game", "version": 1,
     "rules": {"decks": 2, "reserve": "sequence", ..., "name": "classic"},
     "seed": 1, "deck": ["3D", "5H", ...],
     "moves": ["d", "3>f", {"move": "2>5", "comment": "frees the Ace"}]}

The deck (the full dealing order) is what counts when loading, so a saved game replays
even if deal numbering ever changed; ``seed`` is kept as information. Loading replays every
move through the rules and refuses the whole file, naming the problem, if anything is wrong.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .errors import MilliganError, SaveFileError
from .moves import Move
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

FORMAT = "milligan-widget/game"
VERSION = 1


def to_document(game: Game) -> dict[str, Any]:
    """The saved-game document as plain data."""
    comments = game.comments
    moves: list[Any] = []
    for ply, move in enumerate(game.history, start=1):
        moves.append(
            {"move": str(move), "comment": comments[ply]} if ply in comments else str(move)
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        **(
            {"layout": game.layout.to_dict(game._fsuit)}
            if game.layout
            else {"deck": [str(card) for card in game.deck]}
        ),
        "moves": moves,
    }


def dumps(game: Game, indent: int | None = 1) -> str:
    return json.dumps(to_document(game), indent=indent, ensure_ascii=False)


def loads(text: str | bytes) -> Game:
    """The game saved in ``text``; :class:`SaveFileError` says what is wrong otherwise."""
    try:
        document = json.loads(text)
    except (TypeError, ValueError) as error:
        raise SaveFileError(f"not a saved game: the text is not valid JSON ({error})") from None
    return from_document(document)


def from_document(document: Any) -> Game:
    from .game import Game

    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SaveFileError(f"not a saved game: the document's format is not {FORMAT!r}")
    version = document.get("version")
    if version != VERSION:
        raise SaveFileError(
            f"saved-game version {version!r} is not supported (this library reads {VERSION})"
        )
    rules = _read(lambda: Rules.from_dict(_field(document, "rules", dict)), "rules")
    seed = document.get("seed")
    for name in ("deck",):
        if name in document and not all(isinstance(c, str) for c in _field(document, name, list)):
            raise SaveFileError(f"the saved game's {name} must list cards as text, like '10H'")
    if "layout" in document:
        layout = _field(document, "layout", dict)
        game = _read(lambda: Game.from_layout(**layout, rules=rules), "layout")
    elif "deck" in document:
        deck = _field(document, "deck", list)
        game = _read(lambda: Game.from_deck(deck, rules), "deck")
        game._seed = _read(lambda: _seed(seed), "seed")
    else:
        game = _read(lambda: Game.new(seed, rules), "seed")
    for ply, entry in enumerate(_field(document, "moves", list), start=1):
        _replay_entry(game, ply, entry)
    return game


def _replay_entry(game: Game, ply: int, entry: Any) -> None:
    comment = None
    if isinstance(entry, dict):
        comment = entry.get("comment")
        if comment is not None and not isinstance(comment, str):
            raise SaveFileError(f"move {ply}: its comment is not text")
        entry = entry.get("move")
    try:
        game.play(Move.parse(entry))
    except MilliganError as error:
        raise SaveFileError(f"move {ply} ({entry!r}) cannot be replayed: {error}") from None
    if comment:
        game.set_comment(comment)


def _field(document: dict, name: str, kind: type) -> Any:
    value = document.get(name)
    if not isinstance(value, kind):
        raise SaveFileError(f"the saved game's {name!r} is missing or not a {kind.__name__}")
    return value


def _seed(seed: Any) -> int | None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 1):
        raise MilliganError(f"{seed!r} is not a deal number")
    return seed


def _read(make, what: str):
    try:
        return make()
    except SaveFileError:
        raise
    except MilliganError as error:
        raise SaveFileError(f"the saved game's {what} is wrong: {error}") from None
