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


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` kept short for a message: long text is cut, and a huge number (whose
    repr Python refuses past 4,300 digits) is called what it is."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "a number that long"
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit] + "…"
    try:
        text = repr(value)
    except Exception:  # an object whose repr fails says nothing useful anyway
        text = f"a {type(value).__name__}"
    return text if len(text) <= 2 * limit else text[: 2 * limit] + "…"
