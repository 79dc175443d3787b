"""The errors the library raises: each a ValueError whose message is meant for a person."""


class MilliganError(ValueError):
    """Base class of every error raised for bad input."""


class InvalidMoveError(MilliganError):
    """Text or values that do not describe a move at all, such as ``"3>>5"`` or ``Move("t9")``."""


class IllegalMoveError(MilliganError):
    """A well-formed move that the rules do not allow in this position.

    The message is the reason a player would be told, for example
    ``"Q♥ cannot go on K♦: both are red"``.
    """


class RulesError(MilliganError):
    """An unknown preset or a combination of rule options that makes no sense."""


class SaveFileError(MilliganError):
    """A saved game that cannot be loaded: not JSON, a wrong version, bad cards, an illegal move."""
