"""MilliganWidget: play Miss Milligan in JupyterLab, in sync with the Python engine.

Python is the single source of truth. The front end sends one custom message per
player action (a *request*); the widget validates it, applies it to :attr:`game`
through the engine, and answers with one ``hold_sync`` update of the ``view`` trait.
A malformed or illegal request is refused with a reason and changes nothing.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from milligan_widget import PRESETS, Game, IllegalMoveError, Move, Rules
from milligan_widget import view as views

STATIC = Path(__file__).parent / "static"
MAX_SEED = 10**20 - 1
REQUEST_TYPES = ("move", "deal", "undo", "redo", "hint", "auto", "restart", "new")

MoveCallback = Callable[[Move], Any]


def _bundle(name: str) -> Path:
    path = STATIC / name
    if not path.exists():
        raise ImportError(
            f"The widget's front end {path} is missing: install the package with "
            "`pip install -e .` (it builds js/ with npm) or run `npm run build` in js/."
        )
    return path


class RequestError(ValueError):
    """A request from the front end that is not well formed."""


class MilliganWidget(anywidget.AnyWidget):
    """A playable Miss Milligan layout bound to an engine :class:`Game`.

    ``MilliganWidget(seed=7, rules="classic")`` or ``MilliganWidget(game=game)``.
    Every change made from Python shows at once; every move made in the browser is
    in :attr:`game` at once.
    """

    _esm = _bundle("widget.js")
    _css = _bundle("widget.css")

    view = traitlets.Dict().tag(sync=True)
    rules_info = traitlets.Dict().tag(sync=True)
    four_colour = traitlets.Bool(False).tag(sync=True, echo_update=False)

    def __init__(
        self,
        seed: int | None = None,
        rules: str | Rules = "classic",
        *,
        game: Game | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._callbacks: list[MoveCallback] = []
        self._rev = 0
        self.on_msg(self._on_custom_msg)
        self.game = game if game is not None else Game.new(_pick_seed(seed), rules)

    @property
    def game(self) -> Game:
        """The engine's game on show; assigning another game shows it at once."""
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        self._game = game
        self._started = time.monotonic()
        self._publish(message=self._welcome(), rules_changed=True)

    # ----------------------------------------------------------------- Python API
    def play(self, move: Move | str) -> Move:
        """Play a move (a :class:`Move` or its notation such as ``"3>5"``).

        Raises :class:`IllegalMoveError` (and shows the reason) when the engine refuses.
        """
        try:
            parsed = Move.parse(move) if isinstance(move, str) else move
        except ValueError as exc:
            self._refuse(str(exc))
            raise IllegalMoveError(str(exc)) from exc
        return self._apply(parsed)

    def deal(self) -> Move:
        """Deal a row from the stock."""
        return self._apply(Move.deal())

    def undo(self) -> Move:
        """Take back the last move."""
        if not self.game.can_undo:
            self._refuse("Nothing to undo.")
            raise IllegalMoveError("Nothing to undo.")
        move = self.game.undo()
        self._publish(message=f"Undone: {self.game.describe(move)}")
        return move

    def redo(self) -> Move:
        """Play again the last undone move."""
        if not self.game.can_redo:
            self._refuse("Nothing to redo.")
            raise IllegalMoveError("Nothing to redo.")
        before = self.game.copy()
        move = self.game.redo()
        self._publish(message=f"Redone: {before.describe(move)}", last=_last(before, move))
        return move

    def hint(self) -> tuple[Move, str] | None:
        """Highlight a good move in the layout and say why; returns it too."""
        found = self.game.hint()
        if found is None:
            self._publish(message="No useful move is left.", kind="hint")
            return None
        move, why = found
        self._publish(message=f"Hint: {self.game.describe(move)} — {why}.", kind="hint", hint=move)
        return found

    def autoplay(self) -> list[Move]:
        """Play every safe card to the foundations."""
        before = self.game.copy()
        moves = self.game.autoplay()
        if not moves:
            message = "No card can safely go to the foundations."
        else:
            message = f"Auto: {len(moves)} card{'s' if len(moves) > 1 else ''} to the foundations."
        last = _last(before, moves[0]) if len(moves) == 1 else None
        self._publish(message=message, last=last)
        for move in moves:
            self._notify(move)
        return moves

    def new_game(self, seed: int | None = None, rules: str | Rules | None = None) -> Game:
        """Start a new deal (random when ``seed`` is None), with these rules or the same."""
        rules = self.game.rules if rules is None else rules
        self.game = Game.new(_pick_seed(seed), rules)
        return self.game

    def restart(self) -> None:
        """Back to the start of this deal."""
        self.game.restart()
        self._started = time.monotonic()
        self._publish(message="Restarted this deal.")

    def goto(self, n: int) -> None:
        """Show the position after the first ``n`` moves of the history (undo/redo)."""
        if n < 0:
            raise ValueError("goto(n) needs n >= 0")
        while len(self.game.history) > n:
            self.game.undo()
        while len(self.game.history) < n and self.game.can_redo:
            self.game.redo()
        reached = len(self.game.history)
        self._publish(message=f"Position after {reached} move{'s' if reached != 1 else ''}.")
        if reached != n:
            raise ValueError(f"only {reached} moves can be reached, not {n}")

    def replay(self, moves: Game | str | Path | Iterable[Move | str], delay: float = 0.3) -> None:
        """Step visibly through moves, pausing ``delay`` seconds after each.

        A saved game (a :class:`Game`, its JSON text or a path to it) is replayed from
        its deal; a list of moves is played on from the current position.
        """
        steps = self._replay_steps(moves)
        for move in steps:
            self._apply(move)
            if delay > 0:
                time.sleep(delay)

    def save(self, path: str | Path) -> None:
        """Save the game (deal, rules and history) as JSON."""
        Path(path).write_text(self.game.to_json(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path, **kwargs: Any) -> MilliganWidget:
        """A widget showing a game saved by :meth:`save`."""
        return cls(game=Game.from_json(Path(path).read_text(encoding="utf-8")), **kwargs)

    def on_move(self, callback: MoveCallback, remove: bool = False) -> None:
        """Call ``callback(move)`` after every move played (browser or Python)."""
        if remove:
            self._callbacks.remove(callback)
        else:
            self._callbacks.append(callback)

    # ------------------------------------------------------------ request handling
    def _on_custom_msg(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """Handle one request from the front end; never raises."""
        try:
            self._handle(content)
        except RequestError as exc:
            self._refuse(f"Request refused: {exc}")
        except IllegalMoveError:
            pass  # already shown by _apply / undo / redo
        except ValueError as exc:
            self._refuse(str(exc))
        except Exception as exc:  # a bug must not leave the player without an answer
            self.log.exception("MilliganWidget request %r failed", content)
            self._refuse(f"Internal error: {exc}")

    def _handle(self, content: Any) -> None:
        kind = _request_type(content)
        if kind == "move":
            self._apply(_parse_move_request(content, _pile_names(self.game)))
        elif kind == "deal":
            self.deal()
        elif kind == "undo":
            self.undo()
        elif kind == "redo":
            self.redo()
        elif kind == "hint":
            self.hint()
        elif kind == "auto":
            self.autoplay()
        elif kind == "restart":
            self.restart()
        elif kind == "new":
            self.new_game(_parse_seed(content.get("seed")), _parse_rules(content.get("rules")))

    def _apply(self, move: Move) -> Move:
        """Play ``move`` through the engine and publish, or refuse with the reason."""
        matched = self._match_legal(move)
        last = _last(self.game, matched)
        try:
            description = self.game.describe(matched)
        except (ValueError, IndexError, KeyError):
            description = str(matched)
        try:
            played = self.game.play(matched)
        except IllegalMoveError as exc:
            self._refuse(str(exc))
            raise
        self._publish(message=description, last=last)
        self._notify(played)
        return played

    def _match_legal(self, move: Move) -> Move:
        """The engine's own spelling of ``move`` when it is legal, else ``move`` itself."""
        if move.source == "stock":
            return move
        count = views.move_count(self.game, move)
        for legal in self.game.legal_moves:
            if legal.source != move.source or views.move_count(self.game, legal) != count:
                continue
            if legal.target == move.target:
                return legal
            targets = views.resolve_targets(self.game, legal)
            if move.target in targets:
                return Move(legal.source, move.target, legal.count)
            if move.target in ("f", "c") and any(t[0] == move.target for t in targets):
                return legal
        return move

    def _notify(self, move: Move) -> None:
        for callback in list(self._callbacks):
            callback(move)

    # ----------------------------------------------------------------- publishing
    def _refuse(self, reason: str) -> None:
        self._publish(message=reason, kind="error")

    def _publish(
        self,
        message: str = "",
        kind: str = "info",
        last: dict[str, Any] | None = None,
        hint: Move | None = None,
        rules_changed: bool = False,
    ) -> None:
        """Send the new view (and rules, if changed) in one ``hold_sync`` update."""
        self._rev += 1
        message = sentence(message)
        status = self.game.status
        elapsed = round(time.monotonic() - self._started, 1) if status == "won" else None
        if status == "lost" and kind == "info":
            message, kind = f"{message} No useful move is left.".strip(), "lost"
        new_view = views.build_view(
            self.game,
            rev=self._rev,
            message=message,
            kind="won" if status == "won" else kind,
            last=last,
            hint=hint,
            elapsed=elapsed,
        )
        with self.hold_sync():
            if rules_changed:
                self.rules_info = views.rules_info(self.game.rules, PRESETS)
            self.view = new_view

    def _welcome(self) -> str:
        name = self.game.rules.name or "custom rules"
        seed = f" #{self.game.seed}" if self.game.seed is not None else ""
        return f"New game{seed} ({name}). Good luck!"

    def _replay_steps(self, moves: Game | str | Path | Iterable[Move | str]) -> list[Move]:
        saved = _as_saved_game(moves)
        if saved is None:
            return [Move.parse(m) if isinstance(m, str) else m for m in moves]  # type: ignore[union-attr]
        start = saved.copy()
        steps = list(saved.history)
        start.restart()
        self.game = start
        return steps


# ----------------------------------------------------------------- module helpers
def sentence(text: str) -> str:
    """The engine's plain words as a sentence on the message line (capital first letter)."""
    return text[:1].upper() + text[1:]


def _pick_seed(seed: int | None) -> int:
    return random.randint(1, 10**9) if seed is None else seed


def _last(before: Game, move: Move) -> dict[str, Any]:
    """What the front end needs to animate ``move`` (played on the position ``before``)."""
    if move.source == "stock":
        return {"source": "stock", "targets": [], "cards": []}
    return {
        "source": move.source,
        "targets": views.resolve_targets(before, move),
        "cards": [str(c) for c in views.moving_cards(before, move)],
    }


def _as_saved_game(value: Any) -> Game | None:
    if isinstance(value, Game):
        return value
    if isinstance(value, Path) or (isinstance(value, str) and value.endswith(".json")):
        return Game.from_json(Path(value).read_text(encoding="utf-8"))
    if isinstance(value, str) and value.lstrip().startswith("{"):
        return Game.from_json(value)
    return None


def _request_type(content: Any) -> str:
    if not isinstance(content, dict):
        raise RequestError("expected an object")
    kind = content.get("type")
    if kind not in REQUEST_TYPES:
        raise RequestError(f"unknown request type {str(kind)[:40]!r}")
    return kind


def _pile_names(game: Game) -> frozenset[str]:
    """Every pile a request may name in this game (``f``/``c``: any fitting one)."""
    names = {f"t{i + 1}" for i in range(len(game.tableau))}
    names |= {f"f{i + 1}" for i in range(len(game.foundations))} | {"f"}
    if game.cells:
        names |= {f"c{i + 1}" for i in range(len(game.cells))} | {"c"}
    if game.rules.reserve != "none":
        names.add("reserve")
    return frozenset(names)


def _valid_pile(name: Any, piles: frozenset[str], role: str) -> str:
    if not isinstance(name, str) or len(name) > 8:
        raise RequestError(f"the {role} must be a pile name such as 't3'")
    if name not in piles:
        raise RequestError(f"there is no pile {name!r} in this game")
    return name


def _parse_move_request(content: dict[str, Any], piles: frozenset[str]) -> Move:
    source = _valid_pile(content.get("source"), piles - {"f", "c"}, "source")
    target = _valid_pile(content.get("target"), piles, "target")
    count = content.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 104:
        raise RequestError("count must be a whole number of cards from 1 to 104")
    if source == target:
        raise RequestError("a card cannot move onto its own pile")
    return Move(source, target, count)


def _parse_seed(value: Any) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SEED:
        raise RequestError("a deal number is a whole number from 1 to 10^20 - 1")
    return value


def _parse_rules(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in PRESETS:
        raise RequestError(f"unknown rules preset {str(value)[:40]!r}")
    return value
