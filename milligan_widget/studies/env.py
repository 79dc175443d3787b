"""A Gymnasium environment for learning agents: :class:`MilliganEnv`.

It needs the ``gym`` extra (``pip install "milligan-widget[gym]"``); the engine never imports
this module, so ``import milligan_widget`` works without Gymnasium.

>>> from milligan_widget.studies.env import MilliganEnv, action_to_move, move_to_action
>>> env = MilliganEnv("classic")
>>> obs, info = env.reset(seed=1)           # deal 1, as PySolFC deals it
>>> int(obs["stock"]), [action_to_move(a) for a in info["action_mask"].nonzero()[0]]
(96, [Move('d')])
>>> obs, reward, terminated, truncated, info = env.step(0)     # action 0 deals a row
>>> int(obs["stock"]), reward, terminated, truncated, info["illegal"]
(88, 0.0, False, False, False)
>>> env.step(move_to_action("1>f"))[1]      # not legal here: the game is unchanged
-1.0

**Actions.** One fixed ``Discrete(len(ACTION_MOVES))`` space (6,150 actions) serves every rules
preset: action ``i`` is the move ``ACTION_MOVES[i]``, the same move under any rules, and
``info["action_mask"]`` (int8, 1 = legal) marks exactly the moves of ``game.legal_moves``
(with ``new_positions_only=True``: of ``game.new_position_moves()``). The moves are those the
engine's move generator writes, listed source by source:

* 0: ``d``, deal a row;
* for each column ``s`` (1..8), 743 moves: ``s>f``; ``s>t`` onto each other column ``t`` (the
  run that fits, or the whole run into an empty column); ``s:k>t``, k = 1..103 (part of a run
  into an empty column, where any card may fill one, or a Yukon group of k face-up cards);
  ``s>r`` and ``s:k>r``, k = 2..13, into the reserve; ``s>c`` into a free cell;
* the reserve, 105 moves: ``r>t``, ``r:k>t`` (k = 1..12) and ``r>f``;
* for each foundation ``p`` (1..8), 8 moves: ``fp>t``, its top card back onto column ``t``;
* for each cell ``c`` (1..4), 9 moves: ``cc>t`` and ``cc>f``.

A run holds at most 13 cards (King to Ace); a Yukon group, any face-up cards, fewer than all
104; hence the counts. :func:`move_to_action` and
:func:`action_to_move` convert. A move the engine also takes in another spelling (``3:2>5`` for
the ``3>5`` it generates) has an action that the mask never offers.

**Observations** (a ``Dict``; card codes as in :mod:`milligan_widget.engine.cards`, 0..51, and
:data:`NO_CARD` = 52 for an empty slot, :data:`FACE_DOWN` = 53 for a face-down card, whose
face is never shown): ``columns``, each column bottom to top, padded to the number of cards in
the game; ``foundations``, each pile's height (its suits as in
``game.foundation_suits``); ``reserve`` (13 slots) and ``cells`` (4 slots); ``stock``, how many
cards are left to deal. Never the stock's order.

**Rewards**: the change in the number of cards on the foundations (+1 for a card sent home,
-1 for one taken back where the rules allow), plus ``win_bonus`` (10) when the game is won.
An action outside the mask changes nothing, scores ``-illegal_penalty`` (-1) and sets
``info["illegal"]``; it still counts as a step. What is not an action of the space at all (a
float, a string, a bool, an int past 6,149) raises ``ValueError``, as a Gymnasium environment
refuses it, and changes nothing:

>>> env.step(0.9)  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
ValueError: 0.9 (float) is not an action of the action space Discrete(6150): an action is ...

**Episodes** terminate when ``game.status`` is ``"won"`` or ``"lost"`` (the stock is empty and
no move reaches a new position, though legal moves may be left), and are truncated after
``max_steps`` steps (1,000). ``info`` holds ``action_mask``, ``illegal`` and ``status``.

Once this module is imported, ``gymnasium.make(ENV_ID, rules="easy")`` makes one too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    import gymnasium as gym
    import numpy as np
    from gymnasium import spaces
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(
        'milligan_widget.studies.env needs Gymnasium: pip install "milligan-widget[gym]"'
    ) from error

from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import MAX_CELLS, MAX_COLUMNS, MAX_COUNT, MAX_FOUNDATIONS, Move
from milligan_widget.engine.rules import Rules

NO_CARD = 52  #: the value of an empty slot in an observation
FACE_DOWN = 53  #: the value of a face-down card in an observation (Milligan Harp, Yukon)
MAX_RUN = 13  #: the longest run (King to Ace), so the most cards the reserve takes
MAX_GROUP = MAX_COUNT - 1  #: the most cards one column-to-column move carries (a Yukon group)
Observation = dict[str, Any]


def _column_moves(s: str) -> list[Move]:
    others = [f"t{t}" for t in range(1, MAX_COLUMNS + 1) if f"t{t}" != s]
    moves = [Move(s, "f")]
    moves += [Move(s, t) for t in others]
    moves += [Move(s, t, k) for t in others for k in range(1, MAX_GROUP + 1)]
    moves += [Move(s, "reserve")] + [Move(s, "reserve", k) for k in range(2, MAX_RUN + 1)]
    return [*moves, Move(s, "c")]


def _action_table() -> tuple[Move, ...]:
    """Every move an action may stand for, in the order of the module docstring."""
    columns = [f"t{t}" for t in range(1, MAX_COLUMNS + 1)]
    moves = [Move.deal()]
    for s in columns:
        moves += _column_moves(s)
    moves += [Move("reserve", t) for t in columns]
    moves += [Move("reserve", t, k) for t in columns for k in range(1, MAX_RUN)]
    moves.append(Move("reserve", "f"))
    for p in range(1, MAX_FOUNDATIONS + 1):
        moves += [Move(f"f{p}", t) for t in columns]
    for c in range(1, MAX_CELLS + 1):
        moves += [*(Move(f"c{c}", t) for t in columns), Move(f"c{c}", "f")]
    return tuple(moves)


#: The move of each action: ``ACTION_MOVES[i]`` is what action ``i`` plays.
ACTION_MOVES: tuple[Move, ...] = _action_table()
_INDEX: dict[Move, int] = {move: i for i, move in enumerate(ACTION_MOVES)}


def move_to_action(move: Move | str) -> int:
    """The action of a move as the engine writes it (``"3>5"``, ``"3:2>r"``, ``"d"``...).
    A move outside the table (such as ``"3>f5"``, a pile named) raises ``KeyError``."""
    return _INDEX[Move.parse(move)]


def action_to_move(action: int) -> Move:
    """The move action ``action`` stands for (``IndexError`` outside the space)."""
    if not 0 <= action < len(ACTION_MOVES):
        raise IndexError(f"there is no action {action}: they run from 0 to {len(ACTION_MOVES) - 1}")
    return ACTION_MOVES[action]


class MilliganEnv(gym.Env):
    """Miss Milligan under ``rules`` (a preset name or :class:`~milligan_widget.engine.rules.Rules`)
    as a Gymnasium environment; see the module docstring for the spaces, rewards and ends.

    ``reset(seed=N)`` deals PySolFC deal ``N`` (1 .. 10**20 - 1; it also seeds ``np_random``),
    ``reset(options={"deck": cards})`` deals an explicit order of every card,
    ``reset(options={"game": game})`` starts from a copy of a game's position (a staged
    ``Game.from_layout``, say), and a plain ``reset()`` deals at random from ``np_random``;
    options other than these two, or both at once, are refused.
    :attr:`game` is the engine's game: it knows the stock, so an agent meant to play fair
    reads only the observations.
    """

    # Gymnasium reads these; text frames have no pace of their own, 4 fps is its usual figure.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012
    action_space: spaces.Discrete  # gymnasium declares a Space; this one is always Discrete

    def __init__(
        self,
        rules: str | Rules = "classic",
        *,
        max_steps: int = 1000,
        new_positions_only: bool = False,
        win_bonus: float = 10.0,
        illegal_penalty: float = 1.0,
        render_mode: str | None = None,
    ) -> None:
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps!r}")
        self.rules = Rules.coerce(rules)
        self.max_steps = max_steps
        self.new_positions_only = new_positions_only
        self.win_bonus = float(win_bonus)
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(len(ACTION_MOVES))
        self.observation_space = _observation_space(self.rules)
        self._game = Game.new(1, self.rules)  # until reset() deals
        self._legal: dict[int, Move] = {}
        self._steps = 0

    @property
    def game(self) -> Game:
        """The game being played (the engine object, which knows the stock order)."""
        return self._game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        options = _checked_options(options)
        super().reset(seed=seed)
        self._game = self._new_game(seed, options)
        self._steps = 0
        self._legal = self._legal_actions()
        return self._observation(), self._info(False, self._game.status)

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        move = self._legal.get(_as_index(action, self.action_space))
        self._steps += 1
        if move is None:
            reward, illegal = -self.illegal_penalty, True
        else:
            before = self._game.foundation_count
            self._game.play(move)
            reward, illegal = float(self._game.foundation_count - before), False
            self._legal = self._legal_actions()
        status = self._game.status
        if status == "won" and not illegal:
            reward += self.win_bonus
        terminated = status != "playing"
        truncated = not terminated and self._steps >= self.max_steps
        return self._observation(), reward, terminated, truncated, self._info(illegal, status)

    def _new_game(self, seed: int | None, options: dict[str, Any]) -> Game:
        if options.get("game") is not None:
            game: Game = options["game"]  # a Game: _checked_options saw to it
            if game.rules != self.rules:
                raise ValueError(
                    f"the game's rules are not this environment's ({self.rules.name or 'custom'})"
                )
            return game.copy(history=False)
        if options.get("deck") is not None:
            return Game.from_deck(options["deck"], self.rules)
        number = seed if seed is not None else int(self.np_random.integers(1, 10**9 + 1))
        return Game.new(number, self.rules)

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (the name sb3-contrib's maskable agents call)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """The game as text (``str(game)``) in render mode ``"ansi"``; else nothing."""
        return str(self._game) if self.render_mode == "ansi" else None

    def _legal_actions(self) -> dict[int, Move]:
        game = self._game
        moves = game.new_position_moves() if self.new_positions_only else game.legal_moves
        return {_INDEX[move]: move for move in moves}

    def _mask(self) -> np.ndarray:
        mask = np.zeros(len(ACTION_MOVES), dtype=np.int8)
        mask[list(self._legal)] = 1
        return mask

    def _info(self, illegal: bool, status: str) -> dict[str, Any]:
        return {"action_mask": self._mask(), "illegal": illegal, "status": status}

    def _observation(self) -> Observation:
        game, rules = self._game, self.rules
        cells = [NO_CARD if c < 0 else c for c in game.cell_codes]
        return {
            "columns": _card_rows(_seen_columns(game), rules.card_count),
            "foundations": np.array(game.foundation_heights, dtype=np.int8),
            "reserve": _padded(game.reserve_codes, MAX_RUN),
            "cells": _padded(cells, MAX_CELLS),
            "stock": np.int64(game.stock_count),
        }


def _observation_space(rules: Rules) -> spaces.Dict:
    def cards(*shape: int) -> spaces.MultiDiscrete[np.int8]:
        return spaces.MultiDiscrete(np.full(shape, FACE_DOWN + 1), dtype=np.int8)

    return spaces.Dict(
        {
            "columns": cards(rules.columns, rules.card_count),
            "foundations": spaces.MultiDiscrete(
                np.full(rules.foundation_count, MAX_RUN + 1), dtype=np.int8
            ),
            "reserve": cards(MAX_RUN),
            "cells": cards(MAX_CELLS),
            "stock": spaces.Discrete(rules.card_count + 1),
        }
    )


def _seen_columns(game: Game) -> Sequence[Sequence[int]]:
    """The columns as the player sees them: a face-down card is :data:`FACE_DOWN`."""
    columns, down = game.column_codes, game.face_down
    if not any(down):
        return columns
    return [(FACE_DOWN,) * d + tuple(column[d:]) for column, d in zip(columns, down, strict=True)]


def _card_rows(piles: Sequence[Sequence[int]], size: int) -> np.ndarray:
    """The piles as rows of card codes padded with :data:`NO_CARD` to ``size`` cards (int8).
    Filled as bytes: for the columns, twice as fast as a slice assignment per row."""
    buffer = bytearray(bytes([NO_CARD]) * (size * len(piles)))
    for i, pile in enumerate(piles):
        buffer[i * size : i * size + len(pile)] = bytes(pile)
    return np.frombuffer(buffer, dtype=np.int8).reshape(len(piles), size)


def _padded(codes: Sequence[int], size: int) -> np.ndarray:
    row = np.full(size, NO_CARD, dtype=np.int8)
    row[: len(codes)] = codes
    return row


def _as_index(action: Any, space: spaces.Discrete) -> int:
    """The action as an index into ``space``: an int or a numpy integer (a 0-d integer array
    too) in its range, as ``space.contains`` has it, but never a bool."""
    integer = isinstance(action, (int, np.integer)) or (
        isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu"
    )
    if integer and not isinstance(action, (bool, np.bool_)) and space.contains(action):
        return int(action)
    raise ValueError(
        f"{action!r} ({type(action).__name__}) is not an action of the action space {space}: "
        f"an action is an int from 0 to {space.n - 1} (see info['action_mask'])"
    )


_OPTIONS = ("deck", "game")  #: what reset(options=...) reads


def _checked_options(options: Any) -> dict[str, Any]:
    """``reset``'s options as a dict, refusing what it would not read."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise TypeError(
            f"reset's options are a dict such as {{'deck': cards}} or {{'game': game}}, "
            f"not {type(options).__name__} {options!r}"
        )
    unknown = sorted(map(repr, set(options) - set(_OPTIONS)))
    if unknown:
        raise ValueError(
            f"reset does not know the option {', '.join(unknown)}: it reads 'deck' or 'game'"
        )
    if options.get("deck") is not None and options.get("game") is not None:
        raise ValueError("reset deals from 'deck' or starts from 'game': give one, not both")
    game = options.get("game")
    if game is not None and not isinstance(game, Game):
        raise TypeError(
            f"options['game'] is a milligan_widget.Game to start from, "
            f"not {type(game).__name__} {game!r}"
        )
    return options


ENV_ID = "milligan_widget/MissMilligan-v0"  #: for ``gymnasium.make(ENV_ID, rules=...)``
if ENV_ID not in gym.registry:
    gym.register(ENV_ID, entry_point=f"{__name__}:MilliganEnv")

__all__ = [
    "ACTION_MOVES", "ENV_ID", "FACE_DOWN", "NO_CARD", "MilliganEnv", "action_to_move",
    "move_to_action",
]  # fmt: skip
