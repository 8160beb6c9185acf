"""Small helpers for messages in plain English."""


def article(word: str) -> str:
    """``word`` with "a" or "an" before it, by its first letter.

    >>> article("upsilon"), article("hex"), article("square")
    ('an upsilon', 'a hex', 'a square')
    """
    return ("an " if word[:1].lower() in "aeiou" and word else "a ") + word
