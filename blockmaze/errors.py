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


def printable(text: str) -> str:
    r"""``text`` with every control character but newline and tab shown as its escape, so a
    name or any text from a file cannot move the cursor, recolour or clear a terminal.

    >>> print(printable("Maze\x1b[2J\x07 one\u0085"))
    Maze\x1b[2J\x07 one\x85
    """
    return "".join(c if c in "\n\t" or (c.isprintable() and c not in "\u2028\u2029")
                   else c.encode("unicode_escape").decode("ascii") for c in text)


class BlockmazeWarning(UserWarning):
    """Something a user should know about a file that was still written (the CLI prints it).

    Example: a structure file larger than a structure block loads.
    """


class OutputError(BlockmazeError):
    """An output could not be written though the command was right: disk full, I/O error,
    standard output closed (exit 1)."""


class LimitError(OutputError):
    """The machine's limits stopped a run that was right: an address-space or file-size limit
    the process was started under (exit 1, as for an output that could not be written)."""


class ParameterError(BlockmazeError):
    """Bad parameters, worded for whoever passed them: a Python caller reads the library's
    parameter names (``floor=False``), the command's user its flags (``--no-floor``).

    The message is a template: ``{name}`` names a parameter, ``{name=value}`` a parameter with
    its value. :meth:`worded` renders it with another namer (the command's flags).

    >>> error = ParameterError("{lights} go into the floor: drop {floor=False}")
    >>> str(error)
    'lights go into the floor: drop floor=False'
    >>> error.worded(lambda name, value: f"--{name}" if value is None else f"--no-{name}")
    '--lights go into the floor: drop --no-floor'
    """

    def __init__(self, template: str):
        self.template = template
        super().__init__(self.worded(_as_parameter))

    def worded(self, namer) -> str:
        """The message with each ``{name}`` or ``{name=value}`` as ``namer(name, value)`` says
        (``value`` None for a bare name)."""
        import re

        return re.sub(r"\{(\w+)(?:=([^}]*))?\}", lambda m: namer(m[1], m[2]), self.template)


def _as_parameter(name: str, value: str | None) -> str:
    return name if value is None else f"{name}={value}"
