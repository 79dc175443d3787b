"""Lessons: staged positions with a task, each move checked and explained in plain words.

A :class:`Lesson` is a title and a list of :class:`Step`. A step shows a staged position
(a :class:`~milligan_widget.engine.game.Game`), a prompt, and either the moves expected, in order
(any spelling that reaches the same position counts), or a ``goal`` predicate over the
position after each move. A :class:`LessonRun` walks a learner through it:

>>> from milligan_widget.teaching.tutorial import learn_the_rules  # the built-in lessons
>>> run = LessonRun(learn_the_rules())
>>> run.step.title
'The deal'
>>> run.attempt("2>f").message
'2♣ cannot go to a foundation yet: the clubs foundations need the A♣ first'
>>> run.attempt("1>f").message
'Right: A♣ from column 1 to the clubs foundation (1).'
>>> feedback = run.attempt("2>f1")
>>> feedback.correct, feedback.step_done
(True, True)
>>> run.next_step().title
'An Ace starts a foundation'

Teachers write their own with :func:`stage` (name the cards that matter; the foundations
take the rest) and the goal helpers :func:`ends_with`, :func:`home` and :func:`won`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from milligan_widget.engine.cards import CARDS, Card, cards_text, parse_cards
from milligan_widget.engine.errors import MilliganError
from milligan_widget.engine.game import Game
from milligan_widget.engine.moves import Move
from milligan_widget.engine.position import PositionKey
from milligan_widget.engine.rules import Rules

Goal = Callable[[Game], bool]
MoveLike = Move | str


class LessonError(MilliganError):
    """A lesson that cannot work: an expected move that is illegal, a goal never reached…"""


# ---------------------------------------------------------------------------- feedback


@dataclass(frozen=True)
class Feedback:
    """What the learner is told after one attempt.

    ``correct``: the move was (part of) the task and was played. ``legal``: the engine allows
    it. ``message``: plain words for the learner. ``move``: the move played, if any.

    >>> Feedback(False, "the stock is empty", legal=False).step_done
    False
    """

    correct: bool
    message: str
    step_done: bool = False
    lesson_done: bool = False
    legal: bool = True
    move: Move | None = None

    @property
    def kind(self) -> str:
        """``"done"``, ``"correct"``, ``"wrong"`` (legal, not the task) or ``"illegal"``."""
        if self.step_done:
            return "done"
        if self.correct:
            return "correct"
        return "wrong" if self.legal else "illegal"


# ---------------------------------------------------------------------------- steps


@dataclass(frozen=True, eq=False)
class Step:
    """One task on one staged position.

    Give either ``moves`` (the expected moves; in order, unless ``any_order``) or ``goal``
    (a predicate on the position after each move; any legal move not listed in ``mistakes``
    is played). ``solution`` shows one way to a goal: it is checked when the step is built
    and used by :meth:`LessonRun.show`. ``mistakes`` maps tempting wrong moves to the words
    shown when they are tried; ``explain`` is shown after any wrong attempt, ``hint`` after
    a legal wrong one (and by :meth:`LessonRun.hint`), ``success`` when the step is done.
    A bad step raises :class:`LessonError` at once.

    >>> game = stage({1: "10D", 2: "9S"})
    >>> Step("Colours", "Put the 9♠ on the 10♦.", game, moves=["2>1"]).length
    1
    >>> Step("Colours", "Put the 9♠ on the 10♦.", game, moves=["1>2"])
    Traceback (most recent call last):
    ...
    milligan_widget.teaching.lessons.LessonError: step 'Colours': expected move 1 (1>2) is \
illegal: 10♦ cannot go on 9♠: the rank must be exactly one lower
    """

    title: str
    prompt: str
    position: Game
    moves: Sequence[MoveLike] = ()
    goal: Goal | None = None
    solution: Sequence[MoveLike] = ()
    any_order: bool = False
    hint: str = ""
    explain: str = ""
    mistakes: Mapping[MoveLike, str] = field(default_factory=dict)
    success: str = "Well done!"
    _levels: tuple[frozenset[PositionKey], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not isinstance(self.position, Game):
            raise LessonError(f"step {self.title!r}: the position must be a Game")
        set_(self, "position", self.position.copy(history=False))
        set_(self, "moves", tuple(self._parse(self.moves, "expected move")))
        set_(self, "solution", tuple(self._parse(self.solution, "solution move")))
        parsed = self._parse(self.mistakes, "mistake")
        set_(self, "mistakes", dict(zip(parsed, self.mistakes.values(), strict=True)))
        if (self.goal is None) == (not self.moves):
            raise LessonError(f"step {self.title!r}: give either expected moves or a goal")
        if self.goal is None:
            set_(self, "_levels", _expected_levels(self))
        else:
            set_(self, "_levels", ())
            _check_goal(self, self.goal)

    def _parse(self, moves: Iterable[MoveLike] | str, what: str) -> list[Move]:
        """Moves from their text (a single string is one move)."""
        parsed = []
        for move in [moves] if isinstance(moves, str) else moves:
            try:
                parsed.append(Move.parse(move))
            except MilliganError as error:
                raise self._fail(f"the {what} {move!r} is not a move: {error}") from None
        return parsed

    @property
    def length(self) -> int | None:
        """The number of moves the task takes (``None`` for a goal step)."""
        return len(self.moves) if self.goal is None else None

    def start(self) -> Game:
        """A fresh copy of the staged position."""
        return self.position.copy(history=False)

    def _fail(self, problem: str) -> LessonError:
        return LessonError(f"step {self.title!r}: {problem}")


def _expected_levels(step: Step) -> tuple[frozenset[PositionKey], ...]:
    """Position keys after 0, 1, 2 … expected moves (in any order if ``step.any_order``)."""
    states: list[tuple[Game, frozenset[int]]] = [(step.start(), frozenset())]
    levels = [frozenset({states[0][0].position_key()})]
    for _ in step.moves:
        following: dict[PositionKey, tuple[Game, frozenset[int]]] = {}
        for game, done in states:
            for i in _next_indices(step, done):
                _play_expected(step, game, i, done, following)
        if not following:
            raise step._fail(_first_problem(step))
        states = list(following.values())
        levels.append(frozenset(following))
    return tuple(levels)


def _next_indices(step: Step, done: frozenset[int]) -> list[int]:
    if step.any_order:
        return [i for i in range(len(step.moves)) if i not in done]
    return [len(done)]


def _play_expected(
    step: Step,
    game: Game,
    i: int,
    done: frozenset[int],
    into: dict[PositionKey, tuple[Game, frozenset[int]]],
) -> None:
    after = game.copy(history=False)
    if after.is_legal(step.moves[i]):
        after.play(step.moves[i])
        into.setdefault(after.position_key(), (after, done | {i}))


def _first_problem(step: Step) -> str:
    """Why the expected moves, played in the order given, fail."""
    game = step.start()
    for n, move in enumerate(step.moves, 1):
        reason = game.explain(move)
        if reason:
            return f"expected move {n} ({move}) is illegal: {reason}"
        game.play(move)
    return "the expected moves cannot be played in any order"  # pragma: no cover


def _check_goal(step: Step, goal: Goal) -> None:
    game = step.start()
    if goal(game):
        raise step._fail("the goal already holds in the staged position")
    for n, move in enumerate(step.solution, 1):
        reason = game.explain(move)
        if reason:
            raise step._fail(f"solution move {n} ({move}) is illegal: {reason}")
        if _matching_mistake(step, game, Move.parse(move)) is not None:
            raise step._fail(f"solution move {n} ({move}) is listed as a mistake")
        game.play(move)
    if step.solution and not goal(game):
        raise step._fail("the solution does not reach the goal")


def _matching_mistake(step: Step, game: Game, move: Move) -> str | None:
    """The words for ``move`` if it is one of the step's listed mistakes: the same move, or
    one reaching the same position, or one refused for the same reason (any count, since a
    drag names its cards) while the card it would lift is still the one the mistake meant."""
    for mistake, words in step.mistakes.items():
        if _same_attempt(game, move, Move.parse(mistake), step.position):
            return words
    return None


def _same_attempt(game: Game, a: Move, b: Move, staged: Game) -> bool:
    if _top_card(game, b) != _top_card(staged, b):
        return False  # the mistake was written about another card
    if a == b:
        return True
    reason_a, reason_b = game.explain(a), game.explain(b)
    if reason_a is None and reason_b is None:
        return _key_after(game, a) == _key_after(game, b)
    if reason_a is None or reason_b is None or a.source != b.source:
        return False
    return reason_a == reason_b or (_to_foundation(a) and _to_foundation(b))


def _to_foundation(move: Move) -> bool:
    return move.target is not None and move.target.startswith("f")


def _top_card(game: Game, move: Move) -> Card | None:
    """The card on top of the move's source pile (``None`` for the stock or an empty pile)."""
    source = move.source
    if source.startswith("t"):
        pile = game.tableau[int(source[1:]) - 1]
    elif source.startswith("f"):
        pile = game.foundations[int(source[1:]) - 1]
    elif source.startswith("c"):
        pile = tuple(c for c in game.cells[int(source[1:]) - 1 : int(source[1:])] if c)
    else:
        pile = game.reserve if source == "reserve" else ()
    return pile[-1] if pile else None


def _key_after(game: Game, move: Move) -> PositionKey:
    after = game.copy(history=False)
    after.play(move)
    return after.position_key()


# ---------------------------------------------------------------------------- lessons


@dataclass(frozen=True)
class Lesson:
    """A title, an introduction and the steps, in order.

    >>> lesson = Lesson("Colours", [Step("9♠ on 10♦", "Go.", stage({1: "10D", 2: "9S"}),
    ...                                  moves=["2>1"])])
    >>> len(lesson.steps)
    1
    """

    title: str
    steps: Sequence[Step]
    intro: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(self.steps))
        if not self.steps:
            raise LessonError(f"lesson {self.title!r} has no steps")
        for step in self.steps:
            if not isinstance(step, Step):
                raise LessonError(f"lesson {self.title!r}: {step!r} is not a Step")


class LessonRun:
    """A learner working through a lesson: one staged position at a time.

    >>> from milligan_widget.teaching.tutorial import learn_the_rules
    >>> run = LessonRun(learn_the_rules())
    >>> run.attempt("d").message.startswith("That is legal (deal a row of 8 cards), but it")
    True
    >>> run.game.stock_count == run.step.position.stock_count  # nothing changed
    True
    """

    def __init__(self, lesson: Lesson, start: int = 0) -> None:
        self.lesson = lesson
        self.completed: set[int] = set()
        self.goto(start)

    # -- looking at it

    @property
    def index(self) -> int:
        """The current step, counted from 0."""
        return self._index

    @property
    def step(self) -> Step:
        return self.lesson.steps[self._index]

    @property
    def game(self) -> Game:
        """The current position. Play on it only through :meth:`attempt`."""
        return self._game

    @property
    def step_done(self) -> bool:
        return self._done

    @property
    def lesson_done(self) -> bool:
        """Is the last step done?"""
        return self._done and self._index == len(self.lesson.steps) - 1

    @property
    def moves_done(self) -> int:
        """Correct moves played in this step."""
        return len(self._game.history)

    def summary(self) -> dict[str, Any]:
        """JSON-ready state for a lesson panel."""
        step = self.step
        return {
            "lesson": self.lesson.title,
            "intro": self.lesson.intro,
            "rules": self._game.rules.name,
            "index": self._index,
            "count": len(self.lesson.steps),
            "title": step.title,
            "prompt": step.prompt,
            "moves_done": self.moves_done,
            "moves_total": step.length,
            "step_done": self._done,
            "lesson_done": self.lesson_done,
            "completed": sorted(self.completed),
        }

    # -- playing

    def attempt(self, move: MoveLike) -> Feedback:
        """Check ``move`` against the task; play it only if it is right (or, in a goal step,
        legal and not a listed mistake)."""
        if self._done:
            return Feedback(False, "This step is done: go on to the next one.", step_done=True)
        try:
            move = Move.parse(move)
        except MilliganError as error:
            return Feedback(False, str(error), legal=False)
        reason = self._game.explain(move)
        if reason is not None:
            return self._refuse_illegal(move, reason)
        goal = self.step.goal
        if goal is None:
            return self._attempt_expected(move)
        return self._attempt_goal(move, goal)

    def _refuse_illegal(self, move: Move, reason: str) -> Feedback:
        words = _matching_mistake(self.step, self._game, move) or self.step.explain
        return Feedback(False, _join(reason, words), legal=False)

    def _refuse_legal(self, move: Move) -> Feedback:
        step = self.step
        words = _matching_mistake(step, self._game, move) or step.explain
        hint = f"Hint: {step.hint}" if step.hint else ""
        what = self._game.describe(move)
        text = _join(f"That is legal ({what}), but it is not the task.", words, hint)
        return Feedback(False, text)

    def _attempt_expected(self, move: Move) -> Feedback:
        done = len(self._game.history) + 1
        if _key_after(self._game, move) not in self.step._levels[done]:
            return self._refuse_legal(move)
        return self._play(move, done == len(self.step.moves))

    def _attempt_goal(self, move: Move, goal: Goal) -> Feedback:
        if _matching_mistake(self.step, self._game, move) is not None:
            return self._refuse_legal(move)
        after = self._game.copy(history=False)
        after.play(move)
        return self._play(move, bool(goal(after)), "Played")

    def _play(self, move: Move, finishing: bool, verb: str = "Right") -> Feedback:
        words = self._game.describe(move)
        self._game.play(move)
        if not finishing:
            return Feedback(True, f"{verb}: {words}.", move=move)
        self._done = True
        self.completed.add(self._index)
        message = _join(f"Right: {words}.", self.step.success)
        return Feedback(True, message, True, self.lesson_done, move=move)

    # -- help and navigation

    def hint(self) -> str:
        """The step's hint, or the next move in words if it has none."""
        if self.step.hint:
            return self.step.hint
        if self._done:
            return "This step is done."
        move = self.show()
        if move is None:
            return "Restart the step to see a way through."
        return f"Try this: {self._game.describe(move)}."

    def show(self) -> Move | None:
        """A move that does the next part of the task here (``None`` once the step is done)."""
        if self._done:
            return None
        step = self.step
        if step.goal is None:
            level = step._levels[len(self._game.history) + 1]
            return next(
                (m for m in self._game.legal_moves if _key_after(self._game, m) in level), None
            )
        return _replay_solution(step, self._game)

    def undo(self) -> Move | None:
        """Take back the last move of this step (``None`` if there is none); the step is
        then not done any more."""
        if not self._game.history:
            return None
        self._done = False
        return self._game.undo()

    def restart_step(self) -> None:
        """Back to the staged position of this step."""
        self._game = self.step.start()
        self._done = False

    def goto(self, index: int) -> Step:
        """Go to step ``index`` (from 0), freshly staged."""
        if not 0 <= index < len(self.lesson.steps):
            raise LessonError(f"there is no step {index}: the lesson has {len(self.lesson.steps)}")
        self._index = index
        self.restart_step()
        return self.step

    def next_step(self) -> Step | None:
        """Go on to the next step (done or not); ``None`` after the last one."""
        if self._index + 1 >= len(self.lesson.steps):
            return None
        return self.goto(self._index + 1)

    def previous_step(self) -> Step | None:
        """Go back one step; ``None`` at the first."""
        return self.goto(self._index - 1) if self._index else None


def _replay_solution(step: Step, game: Game) -> Move | None:
    """The solution's next move if the learner has followed it so far."""
    history = game.history
    if history == list(step.solution[: len(history)]) and len(history) < len(step.solution):
        return Move.parse(step.solution[len(history)])
    return None


def _join(*parts: str) -> str:
    """Sentences joined with spaces; a full stop is added where one runs into the next."""
    kept = [part.strip() for part in parts if part and part.strip()]
    return " ".join(
        part if i == len(kept) - 1 or part[-1] in ".!?" else part + "."
        for i, part in enumerate(kept)
    )


# ---------------------------------------------------------------------------- staging


def leftovers(
    tableau: Mapping[int, str] | Sequence[str],
    *,
    foundations: Mapping[int, str | None] | None = None,
    stock: str = "",
    reserve: str = "",
    cells: Sequence[str | None] = (),
    rules: str | Rules = "classic",
) -> tuple[list[str | None], list[str]]:
    """Foundation tops as high as the cards not named allow, and the cards still left over.

    ``tableau``: column number (from 1) → cards bottom to top, or a list of columns.
    ``foundations``: pile number (from 1) → the highest card that pile may reach (``None``:
    keep it empty). Piles are C C S S H H D D.

    >>> tops, rest = leftovers({1: "3D 5D 4C", 2: "6S"}, foundations={8: "2D"})
    >>> tops
    ['KC', '3C', 'KS', '5S', 'KH', 'KH', 'KD', '2D']
    >>> " ".join(rest)
    '5C 6C 7C 8C 9C 10C JC QC KC 7S 8S 9S 10S JS QS KS 4D 6D 7D 8D 9D 10D JD QD KD'
    """
    rules = Rules.coerce(rules)
    named = [c for col in _columns(tableau, rules) for c in col]
    named += parse_cards(stock) + parse_cards(reserve) + parse_cards([c for c in cells if c])
    unused = Counter({code: rules.decks for code in range(52)})
    unused.subtract(named)
    if any(n < 0 for n in unused.values()):
        extra = sorted(c for c, n in unused.items() if n < 0)
        raise LessonError(f"too many copies of {cards_text(extra)}")
    tops = [
        _fill_pile(unused, pile, rules, (foundations or {}))
        for pile in range(rules.foundation_count)
    ]
    rest = sorted(unused.elements(), key=lambda c: (c & 3, c >> 2))
    return tops, [str(CARDS[c]) for c in rest]


def _fill_pile(
    unused: Counter[int], pile: int, rules: Rules, caps: Mapping[int, str | None]
) -> str | None:
    suit = pile // rules.decks
    cap = caps.get(pile + 1, "KC")
    limit = 0 if cap is None else Card.parse(cap).rank
    height = 0
    while height < limit and unused[height * 4 + suit] > 0:
        unused[height * 4 + suit] -= 1
        height += 1
    if cap is not None and pile + 1 in caps and height != limit:
        raise LessonError(f"foundation {pile + 1} cannot reach {cap}: its cards are elsewhere")
    return str(CARDS[(height - 1) * 4 + suit]) if height else None


def _columns(tableau: Mapping[int, str] | Sequence[str], rules: Rules) -> list[list[int]]:
    if isinstance(tableau, Mapping):
        tableau = [tableau.get(i + 1, "") for i in range(rules.columns)]
    columns = [parse_cards(col) for col in tableau]
    return columns + [[] for _ in range(rules.columns - len(columns))]


def stage(
    tableau: Mapping[int, str] | Sequence[str],
    *,
    foundations: Mapping[int, str | None] | None = None,
    stock: str = "",
    reserve: str = "",
    cells: Sequence[str | None] = (),
    rules: str | Rules = "classic",
    rest_in_stock: bool = True,
    face_down: Sequence[int] | None = None,
) -> Game:
    """A full staged position from the cards that matter (see :func:`leftovers`).

    The foundations take all they can; the cards left over go to the stock after ``stock``
    (its first row is dealt first), or, with ``rest_in_stock=False``, must be none: the error
    lists them so they can be placed in the tableau. ``face_down``: per column, how many of its
    lowest cards lie face down (rules with a face-down deal, docs/rules.md §3.10).

    >>> game = stage({1: "3D 5D 4C", 2: "6S"}, foundations={8: "2D"})
    >>> game.stock_count, game.foundation_count
    (25, 75)
    """
    rules = Rules.coerce(rules)
    tops, rest = leftovers(
        tableau, foundations=foundations, stock=stock, reserve=reserve, cells=cells, rules=rules
    )
    if rest and not rest_in_stock:
        raise LessonError(f"{len(rest)} cards are left over: {' '.join(rest)}")
    return Game.from_layout(
        tableau=[[str(CARDS[c]) for c in col] for col in _columns(tableau, rules)],
        foundations=tops,
        stock=parse_cards(stock) + parse_cards(rest),
        reserve=parse_cards(reserve),
        cells=list(cells) or None,
        rules=rules,
        face_down=face_down,
    )


# ---------------------------------------------------------------------------- goals


def ends_with(cards: str) -> Goal:
    """Goal: some column ends with these cards (bottom to top).

    >>> ends_with("10D 9S")(stage({1: "10D 9S"}))
    True
    """
    wanted = tuple(parse_cards(cards))

    def goal(game: Game) -> bool:
        return any(tuple(c.code for c in col[-len(wanted) :]) == wanted for col in game.tableau)

    return goal


def home(cards: str) -> Goal:
    """Goal: every one of these cards is on a foundation (a card named twice: both copies).

    >>> home("AH")(stage({1: "AH"}, foundations={5: None, 6: None}))
    False
    """
    wanted = Counter(parse_cards(cards))

    def goal(game: Game) -> bool:
        there = Counter(c.code for pile in game.foundations for c in pile)
        return all(there[c] >= n for c, n in wanted.items())

    return goal


def won(game: Game) -> bool:
    """Goal: all cards are on the foundations."""
    return game.status == "won"


def all_of(*goals: Goal) -> Goal:
    """Goal: every one of ``goals`` holds."""
    return lambda game: all(goal(game) for goal in goals)


def reserve_empty(game: Game) -> bool:
    """Goal: the reserve and the free cells are empty."""
    return not game.reserve and not any(game.cells)


__all__ = [
    "Feedback",
    "Goal",
    "Lesson",
    "LessonError",
    "LessonRun",
    "Step",
    "all_of",
    "ends_with",
    "home",
    "leftovers",
    "reserve_empty",
    "stage",
]
