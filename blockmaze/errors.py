"""The exceptions blockmaze raises for input it cannot use."""


class BlockmazeError(ValueError):
    """Bad input, with a message that says what was wrong and what is allowed.

    Example
    -------
    >>> raise BlockmazeError("wall thickness must be a whole number >= 1, got 0")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: wall thickness must be a whole number >= 1, got 0
    """


class BadFileError(BlockmazeError):
    """A file blockmaze was asked to read is damaged, hostile or not what it claims to be; the
    message names the file and what was wrong (the command line exits with code 1 for it).

    Example
    -------
    >>> raise BadFileError("maze.json: not valid JSON: Expecting value: line 1 column 1 (char 0)")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BadFileError: maze.json: not valid JSON: Expecting value: line 1 column 1 (char 0)
    """


def shown(value: object, limit: int = 60) -> str:
    """A value as a message shows it: its repr, at most ``limit`` characters, on one line (never
    failing, even on an int of too many digits to print).

    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    try:
        text = repr(value)
    except ValueError:
        text = "a number of too many digits"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


class BlockmazeWarning(UserWarning):
    """Something a user should know about a file that was still written (the CLI prints it).

    Example: a structure file larger than a structure block loads.
    """


class OutputError(BlockmazeError):
    """An output could not be written though the command was right: disk full, I/O error,
    standard output closed (exit 1)."""
