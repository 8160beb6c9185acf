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
