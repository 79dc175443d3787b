"""The Jupyter widget: a thin view on the engine, in rooms of its own.

- :mod:`.wire`: :class:`MilliganWidget`, the anywidget (traits, the bundle, the public API,
  which hands each call to a room);
- :mod:`.table`: the game on show in its mode, and publishing: every change reaches the
  front end as one view;
- the rooms on the table: :mod:`.playing` (moves, undo, New game, Restart), :mod:`.teaching`
  (lesson mode, the replay viewer), :mod:`.advice` (the solver's tools as the player asks
  for them) and :mod:`.keeping` (Save, Open, Resume, Statistics);
- :mod:`.requests`: what the front end may ask, parsed and checked in one place;
- :mod:`.modes`: play, a lesson and the replay viewer, and what each allows;
- :mod:`.assistant`: the solver's jobs, which it shows only through a small ``Host``:
  :mod:`.hints`, :mod:`.indicator` ("still winnable?"), Think longer, :mod:`.solution` (the
  solution playing back), :mod:`.memory` (the winning line remembered) and :mod:`.jobs`
  (their threads, or the kernel's thread where none can start);
- :mod:`.records`: what counts in the statistics; :mod:`.files`: Save, Open and auto-save;
- :mod:`.setaside`: the games Restart and New game replaced, which Undo brings back;
- :mod:`.view`: the engine's position as the small view the front end draws
  (``js/src/types.ts`` mirrors it); :mod:`.lock` and :mod:`.words` serve them all.

>>> from milligan_widget import MilliganWidget
>>> MilliganWidget(seed=27).game.seed
27
"""

from milligan_widget.widget.modes import ModeError
from milligan_widget.widget.requests import RequestError
from milligan_widget.widget.wire import MAX_SET_ASIDE, MilliganWidget, sentence

__all__ = ["MAX_SET_ASIDE", "MilliganWidget", "ModeError", "RequestError", "sentence"]
