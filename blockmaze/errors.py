"""The one exception blockmaze raises for input it cannot use."""


class BlockmazeError(ValueError):
    """Bad input, with a message that says what was wrong and what is allowed.

    Example
    -------
    >>> raise BlockmazeError("wall thickness must be a whole number >= 1, got 0")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: wall thickness must be a whole number >= 1, got 0
    """


class BlockmazeWarning(UserWarning):
    """Something a user should know about a file that was still written (the CLI prints it).

    Example: a structure file larger than a structure block loads.
    """


class BadFileError(BlockmazeError):
    """A file given as input is unreadable or malformed (exit 1)."""


class OutputError(BlockmazeError):
    """An output could not be written though the command was right: disk full, I/O error,
    standard output closed (exit 1)."""
