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


class BlockmazeWarning(UserWarning):
    """Something a user should know about a file that was still written (the CLI prints it).

    Example: a structure file larger than a structure block loads.
    """
