"""Small helpers for messages in plain English."""


def article(word: str) -> str:
    """``word`` with "a" or "an" before it, by its first letter.

    >>> article("upsilon"), article("hex"), article("square")
    ('an upsilon', 'a hex', 'a square')
    """
    return ("an " if word[:1].lower() in "aeiou" and word else "a ") + word


def counted(count: int, word: str) -> str:
    """``count`` and ``word``, with an s unless the count is one.

    >>> counted(1, "room"), counted(0, "dead end"), counted(3, "level")
    ('1 room', '0 dead ends', '3 levels')
    """
    return f"{count} {word}{'s' * (count != 1)}"
