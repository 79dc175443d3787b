"""Lessons: staged positions with a task, each move checked and explained
(:mod:`.lessons`), and the built-in lessons (:mod:`.tutorial`).

>>> from milligan_widget.teaching import LessonRun, learn_the_rules
>>> LessonRun(learn_the_rules()).step.title
'The deal'
"""

from .lessons import (
    Feedback,
    Lesson,
    LessonError,
    LessonRun,
    Step,
    all_of,
    ends_with,
    home,
    reserve_empty,
    stage,
)
from .tutorial import learn_the_rules, variants_tour

__all__ = [
    "Feedback",
    "Lesson",
    "LessonError",
    "LessonRun",
    "Step",
    "all_of",
    "ends_with",
    "home",
    "learn_the_rules",
    "reserve_empty",
    "stage",
    "variants_tour",
]
