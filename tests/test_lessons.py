"""The lesson API and the built-in lessons (issue 4: teaching)."""

from __future__ import annotations

from collections import deque

import pytest

from milligan_widget import Move
from milligan_widget.teaching.lessons import (
    Feedback,
    Lesson,
    LessonError,
    LessonRun,
    Step,
    ends_with,
    home,
    leftovers,
    stage,
    won,
)
from milligan_widget.teaching.tutorial import _weaving_position, learn_the_rules, variants_tour

RULES_LESSON = learn_the_rules()
TOUR = variants_tour()
ALL_STEPS = [(RULES_LESSON, i) for i in range(len(RULES_LESSON.steps))]
ALL_STEPS += [(TOUR, i) for i in range(len(TOUR.steps))]
IDS = [lesson.steps[i].title for lesson, i in ALL_STEPS]


def task(step: Step) -> list:
    """The moves that complete a step: its expected moves or its goal's solution."""
    return list(step.moves or step.solution)


def snapshot(run: LessonRun) -> tuple:
    return run.game.copy(history=False), run.game.history, run.step_done


def assert_unchanged(run: LessonRun, before: tuple) -> None:
    game, history, done = before
    assert run.game == game and run.game.history == history and run.step_done == done


def colours_step(**changes) -> Step:
    """A small hand-written step: 9♠ onto 10♦, then 8♥ onto 9♠."""
    options = {"moves": ["2>1", "4>1"], "hint": "Black on red.", "success": "Done!"}
    options.update(changes)
    game = stage({1: "10D", 2: "9S", 3: "9H", 4: "8H"}, foundations={6: "6H", 8: "8D"})
    return Step("Colours", "Build on the 10♦.", game, **options)


# ---------------------------------------------------------------------------- built-ins


@pytest.mark.parametrize(("lesson", "index"), ALL_STEPS, ids=IDS)
def test_every_built_in_step_is_completed_by_its_moves(lesson, index):
    run = LessonRun(lesson, index)
    moves = task(run.step)
    assert moves, "every built-in step shows a way to do it"
    for n, move in enumerate(moves, 1):
        assert run.show() is not None
        feedback = run.attempt(move)
        assert feedback.correct and feedback.legal, feedback.message
        assert feedback.step_done == (n == len(moves))
    assert run.step_done and run.step.success in feedback.message
    assert run.show() is None


@pytest.mark.parametrize(("lesson", "index"), ALL_STEPS, ids=IDS)
def test_every_listed_mistake_is_refused_and_explained(lesson, index):
    run = LessonRun(lesson, index)
    for mistake, words in run.step.mistakes.items():
        before = snapshot(run)
        feedback = run.attempt(mistake)
        assert not feedback.correct and words in feedback.message
        reason = run.game.explain(mistake)
        assert feedback.legal == (reason is None)
        if reason:
            assert feedback.message.startswith(reason)
        assert_unchanged(run, before)


@pytest.mark.parametrize(("lesson", "index"), ALL_STEPS, ids=IDS)
def test_built_in_positions_are_full_and_clean(lesson, index):
    step = lesson.steps[index]
    game = step.start()
    rules = game.rules
    counted = game.foundation_count + game.stock_count + len(game.reserve)
    counted += sum(len(col) for col in game.tableau)
    assert counted == rules.card_count
    assert game.status == "playing"
    if step.title != "The deal":
        assert game.foundation_count > rules.card_count / 2
        assert sum(len(col) for col in game.tableau) <= 25


def test_learn_the_rules_covers_the_rules_in_order():
    titles = [step.title for step in RULES_LESSON.steps]
    order = ["deal", "Ace", "in suit", "alternating", "run", "King", "Dealing", "last row"]
    order += ["Weaving", "Winning", "by suit", "Queen", "dealing too soon", "breaking a run"]
    order += ["harmless", "foundation pile"]
    positions = [next(i for i, t in enumerate(titles) if word in t) for word in order]
    assert positions == sorted(positions)


def test_the_variants_tour_visits_the_presets():
    from milligan_widget import PRESETS

    names = {step.position.rules.name for step in TOUR.steps}
    assert names == set(PRESETS) - {"classic"}  # every variant, Harp and Yukon included


def test_the_harp_and_yukon_steps_turn_a_card_up_and_undo_puts_it_back():
    for index in (-2, -1):
        run = LessonRun(TOUR, len(TOUR.steps) + index)
        assert run.game.face_down[0] == 1
        first = task(run.step)[0]
        assert run.attempt(first).correct and run.game.face_down[0] == 0
        run.undo()
        assert run.game.face_down[0] == 1


def test_the_whole_rules_lesson_can_be_played_through():
    run = LessonRun(RULES_LESSON)
    while True:
        for move in task(run.step):
            feedback = run.attempt(move)
            assert feedback.correct, (run.step.title, move, feedback.message)
        if run.next_step() is None:
            break
    assert feedback.step_done and feedback.lesson_done and run.lesson_done
    assert run.completed == set(range(len(RULES_LESSON.steps)))


def test_weaving_really_needs_the_reserve():
    """Without the reserve no line of play gets the hidden 3♦ home (the other 3♦ is there)."""
    start = _weaving_position()
    both_home = home("3D 3D")
    seen, queue = {start.position_key()}, deque([start])
    while queue:
        game = queue.popleft()
        assert not both_home(game)
        for move in game.legal_moves:
            if "r" not in str(move):
                after = game.copy(history=False)
                after.play(move)
                if after.position_key() not in seen:
                    seen.add(after.position_key())
                    queue.append(after)
    assert len(seen) > 1
    weave = start.copy()
    for move in ("1:2>r", "1>f"):
        weave.play(move)
    assert both_home(weave)


def test_the_weaving_step_is_the_worked_example():
    step = RULES_LESSON.steps[[s.title for s in RULES_LESSON.steps].index("Weaving: the reserve")]
    run = LessonRun(RULES_LESSON, RULES_LESSON.steps.index(step))
    assert run.game.stock_count == 0 and run.game.reserve_open
    assert run.attempt("1:2>r").message == "Right: set 5♦ 4♣ from column 1 aside into the reserve."
    second = run.attempt("2>r")  # a second card into an occupied reserve
    assert not second.legal and "the reserve already holds 5♦ 4♣" in second.message
    assert run.attempt("1>f").correct
    assert run.attempt("r>1").step_done


# ---------------------------------------------------------------------------- attempts


def test_an_illegal_move_changes_nothing_and_gives_the_engines_reason():
    run = LessonRun(Lesson("L", [colours_step()]))
    before = snapshot(run)
    feedback = run.attempt("3>1")
    assert feedback == Feedback(False, "9♥ cannot go on 10♦: both are red", legal=False)
    assert feedback.kind == "illegal"
    assert_unchanged(run, before)


def test_text_that_is_no_move_is_refused():
    run = LessonRun(Lesson("L", [colours_step()]))
    feedback = run.attempt("3>>1")
    assert not feedback.correct and not feedback.legal and "is not a move" in feedback.message


def test_a_legal_move_that_is_not_the_task_changes_nothing_and_hints():
    run = LessonRun(Lesson("L", [colours_step()]))
    before = snapshot(run)
    feedback = run.attempt("4>2")  # 8♥ onto 9♠: legal, but not what was asked
    assert not feedback.correct and feedback.legal and feedback.kind == "wrong"
    assert feedback.message == (
        "That is legal (8♥ from column 4 onto 9♠ in column 2), but it is not the task. "
        "Hint: Black on red."
    )
    assert_unchanged(run, before)


def test_explain_text_follows_any_wrong_attempt():
    run = LessonRun(Lesson("L", [colours_step(explain="Red goes on black.")]))
    assert run.attempt("3>1").message == "9♥ cannot go on 10♦: both are red. Red goes on black."
    assert "Red goes on black. Hint: Black on red." in run.attempt("d").message


def test_a_correct_move_is_played_and_the_last_one_finishes_the_step():
    run = LessonRun(Lesson("L", [colours_step()]))
    first = run.attempt("2>1")
    assert first.correct and not first.step_done and first.kind == "correct"
    assert first.message == "Right: 9♠ from column 2 onto 10♦ in column 1."
    assert [str(c) for c in run.game.tableau[0]] == ["10D", "9S"]
    last = run.attempt("4>1")
    assert last.step_done and last.lesson_done and last.kind == "done"
    assert last.message.endswith("Done!")
    late = run.attempt("3>5")
    assert not late.correct and "step is done" in late.message


@pytest.mark.parametrize(
    "spelling", [("1>f", "2>f"), ("1>f1", "2>f1"), ("1>f2", "2>f"), ("1:1>f2", "2:1>f2")]
)
def test_any_spelling_that_reaches_the_same_position_counts(spelling):
    run = LessonRun(RULES_LESSON)  # "The deal": A♣ home, then 2♣ on it ("1>f", "2>f")
    first, second = spelling
    assert run.attempt(first).correct
    assert run.attempt(second).step_done


def test_a_mistake_onto_another_foundation_pile_is_still_explained():
    index = [s.title for s in RULES_LESSON.steps].index("Foundations build up in suit")
    run = LessonRun(RULES_LESSON, index)
    for target in ("f5", "f6", "f"):  # the K♥ pile, the A♥ pile (as listed), any pile
        feedback = run.attempt(f"5>{target}")
        assert not feedback.legal and "the 2♦ needs a diamond pile" in feedback.message


def test_another_empty_column_or_foundation_pile_counts_too():
    index = [s.title for s in RULES_LESSON.steps].index("Only a King fills an empty column")
    for target in ("2", "5", "8"):
        run = LessonRun(RULES_LESSON, index)
        assert run.attempt(f"1>{target}").correct  # the step says column 2
        assert run.attempt("1>f4").step_done  # the other spade pile holds the K♠
    run = LessonRun(RULES_LESSON, 1)  # the A♥ on either empty heart pile
    assert run.attempt("1>f6").step_done


def test_expected_moves_in_any_order():
    index = [s.title for s in RULES_LESSON.steps].index("Mistake: dealing too soon")
    for order in (["1>f", "3>2"], ["3>2", "1>f"]):
        run = LessonRun(RULES_LESSON, index)
        assert [run.attempt(m).step_done for m in order] == [False, True]


def test_hint_restart_and_navigation():
    run = LessonRun(Lesson("L", [colours_step(hint=""), colours_step()]))
    assert run.hint() == "Try this: 9♠ from column 2 onto 10♦ in column 1."
    assert str(run.show()) == "2>1"
    run.attempt("2>1")
    assert run.moves_done == 1 and run.summary()["moves_done"] == 1
    assert str(run.undo()) == "2>1" and run.moves_done == 0 and run.undo() is None
    run.attempt("2>1")
    assert run.attempt("4>1").step_done and str(run.undo()) == "4>1" and not run.step_done
    assert run.attempt("4>1").step_done
    run.restart_step()
    assert run.moves_done == 0 and run.game == run.step.position and not run.step_done
    assert run.previous_step() is None
    assert run.next_step() is run.lesson.steps[1] and run.hint() == "Black on red."
    assert run.next_step() is None and run.index == 1
    assert run.previous_step() is run.lesson.steps[0]
    with pytest.raises(LessonError, match="there is no step 5"):
        run.goto(5)
    summary = run.summary()
    assert summary["count"] == 2 and summary["moves_total"] == 2 and summary["prompt"]


def test_the_staged_position_is_never_changed_by_a_run():
    step = colours_step()
    staged = step.position.copy()
    run = LessonRun(Lesson("L", [step]))
    run.attempt("2>1")
    assert step.position == staged and step.start() == staged


# ---------------------------------------------------------------------------- goals


def goal_step(**changes) -> Step:
    options = {
        "goal": ends_with("10D 9S 8H"),
        "solution": ["2>1", "4>1"],
        "mistakes": {"d": "Not now."},
        "hint": "Black on red.",
    }
    options.update(changes)
    game = stage({1: "10D", 2: "9S", 3: "9H", 4: "8H"}, foundations={6: "6H", 8: "8D"})
    return Step("Goal", "Build 10♦ 9♠ 8♥.", game, **options)


def test_a_goal_step_plays_any_legal_move_until_the_goal_holds():
    run = LessonRun(Lesson("L", [goal_step()]))
    first = run.attempt("4>2")  # 8♥ onto 9♠ first: another way to the goal
    assert first.correct and not first.step_done and str(first.move) == "4>2"
    assert run.show() is None  # off the stored solution: no move to show
    last = run.attempt("2>1")
    assert last.step_done and last.lesson_done


def test_a_goal_step_refuses_its_listed_mistakes():
    run = LessonRun(Lesson("L", [goal_step()]))
    before = snapshot(run)
    feedback = run.attempt("d")
    assert not feedback.correct and feedback.legal
    assert "Not now. Hint: Black on red." in feedback.message
    assert_unchanged(run, before)
    assert str(run.show()) == "2>1" and run.hint() == "Black on red."


def test_goal_helpers():
    game = stage({1: "KH QS", 2: "KS QH", 3: "KC", 4: "KD"}, rest_in_stock=False)
    assert not won(game) and not home("QS QS")(game) and ends_with("KS QH")(game)
    game.play("1>f")
    assert home("QS QS")(game) and not home("QH QH")(game)


# ---------------------------------------------------------------------------- definitions


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"moves": ["2>1", "3>1"]}, "expected move 2 (3>1) is illegal: 9♥ cannot go on 9♠"),
        ({"moves": ["1>2"]}, "expected move 1 (1>2) is illegal: 10♦ cannot go on 9♠"),
        ({"moves": ["2>>1"]}, "the expected move '2>>1' is not a move"),
        ({"moves": []}, "give either expected moves or a goal"),
        ({"goal": won}, "give either expected moves or a goal"),
        ({"mistakes": {"x": "?"}}, "the mistake 'x' is not a move"),
        ({"moves": "2>1", "hint": ""}, None),
    ],
)
def test_bad_expected_moves_are_refused_when_the_step_is_built(changes, problem):
    if problem is None:  # a single move may be given as a string
        assert colours_step(**changes).moves == (Move.parse("2>1"),)
        return
    with pytest.raises(LessonError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        colours_step(**changes)


@pytest.mark.parametrize(
    ("changes", "problem"),
    [
        ({"goal": ends_with("10D")}, "the goal already holds in the staged position"),
        ({"solution": ["2>1", "3>2"]}, "solution move 2 (3>2) is illegal"),
        ({"solution": ["2>1"]}, "the solution does not reach the goal"),
        ({"mistakes": {"4>1": "no"}}, "solution move 2 (4>1) is listed as a mistake"),
    ],
)
def test_bad_goal_steps_are_refused_when_built(changes, problem):
    with pytest.raises(LessonError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        goal_step(**changes)


def test_bad_lessons_are_refused():
    with pytest.raises(LessonError, match="has no steps"):
        Lesson("Empty", [])
    with pytest.raises(LessonError, match="is not a Step"):
        Lesson("Odd", ["2>1"])
    with pytest.raises(LessonError, match="the position must be a Game"):
        Step("No game", "?", "10D 9S", moves=["2>1"])


# ---------------------------------------------------------------------------- staging


def test_leftovers_and_stage():
    tops, rest = leftovers({1: "6C 3D 5D 4C"})
    assert tops == ["KC", "3C", "KS", "KS", "KH", "KH", "KD", "2D"] and len(rest) == 17
    with pytest.raises(LessonError, match="17 cards are left over: 5C 7C"):
        stage({1: "6C 3D 5D 4C"}, rest_in_stock=False)
    with pytest.raises(LessonError, match="too many copies of A♥"):
        leftovers({1: "AH AH AH"})
    with pytest.raises(LessonError, match="foundation 5 cannot reach 3H"):
        leftovers({1: "2H 2H"}, foundations={5: "3H"})
    game = stage({1: "AH"}, foundations={5: None, 6: None}, stock="KS")
    assert game.stock_count == 26 and str(game.foundations[4:6]) == "((), ())"


def test_a_listed_mistake_matches_a_drag_and_only_while_its_card_is_there():
    step = Step(
        "Colours", "Put Q♥ and then J♣ on the black King.",
        stage({1: "KD", 2: "JC QH", 3: "KS"}),
        moves=["2>3", "2>3"], mistakes={"2>1": "Q♥ and K♦ are both red."},
    )
    run = LessonRun(Lesson("Colours", [step]))
    dragged = run.attempt("2:1>1")  # a drag names its count
    assert not dragged.legal and "both red" in dragged.message
    assert run.attempt("2>3").correct
    moved_on = run.attempt("2>1")  # now the J♣: the Q♥ mistake no longer applies
    assert not moved_on.legal and "Q♥ and K♦" not in moved_on.message
