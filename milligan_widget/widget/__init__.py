"""The Jupyter widget: a thin view on the engine, in layers (bottom up; each module imports
only from the layers below it, which ``tests/widget/test_layers.py`` checks).

- the basics: :mod:`.words` (sentences, counts of moves), :mod:`.lock` (the widget's lock, and
  calls that wait for it to be let go), :mod:`.view` (the engine's position as the small view
  the front end draws; ``js/src/types.ts`` mirrors it), :mod:`.requests` (what the front end
  may ask, parsed and checked), :mod:`.scores` (a game's scorecard and when it counts in the
  statistics), :mod:`.storage` (the notebook's save folder and the auto-save);
- :mod:`.modes`: play, a lesson and the replay viewer, what each takes and what it adds to
  the view: the one place that decides what a mode allows;
- :mod:`.assistant`: the solver working in the background, shown only through a small
  ``Host``: :mod:`.assistant.jobs` (a job, its thread), :mod:`.assistant.winning_line` (a win
  remembered), :mod:`.assistant.hints`, :mod:`.assistant.indicator` ("still winnable?") and
  :mod:`.assistant.solution` (the solution playing back), :mod:`.assistant.coach` (the live
  coach: each move judged as it is played); Think longer is the assistant's own;
- :mod:`.setaside`: the games Restart and New game replaced, which Undo brings back;
- :mod:`.table`: the game on show in its mode; the one gate in (``Table.require`` asks the
  mode) and the one door out (``Table.publish`` sends one frame in one update);
- the rooms, one per kind of thing the player does on the table: :mod:`.playing` (moves, undo,
  New game, Restart), :mod:`.teaching` (lesson mode, the replay viewer), :mod:`.helping` (the
  solver's tools as the player asks for them) and :mod:`.keeping` (Save, Open, Resume,
  Statistics);
- :mod:`.milligan`: :class:`MilliganWidget`, the anywidget: its traits, its typed public
  methods and the request path (parse, the gate, the room).

Words: a *lesson* is :class:`~milligan_widget.teaching.lessons.Lesson` (its steps), run as a
:class:`~milligan_widget.teaching.lessons.LessonRun`, shown in lesson mode; *the replay viewer*
is the mode that steps through a game's moves (:meth:`MilliganWidget.show_replay`, ``step_to`` and
the front end's ``seek``), while :meth:`MilliganWidget.replay` plays moves on visibly in play.

>>> from milligan_widget import MilliganWidget
>>> MilliganWidget(seed=27).game.seed
27
"""

from milligan_widget.widget.milligan import MAX_SET_ASIDE, MilliganWidget, sentence
from milligan_widget.widget.modes import ModeError
from milligan_widget.widget.requests import RequestError

__all__ = ["MAX_SET_ASIDE", "MilliganWidget", "ModeError", "RequestError", "sentence"]
