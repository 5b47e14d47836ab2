"""One family of errors, each carrying the facts a GM needs to fix the input.

Every error fracas raises on purpose is a :class:`FracasError`. Errors caused by
the user's input (a scenario file, a dice expression, pinned dice) are also
:class:`ValueError`, so plain Python callers can catch them the usual way.
"""

from __future__ import annotations

from collections.abc import Sequence


class FracasError(Exception):
    """Base class of every error fracas raises on purpose."""


class InputError(FracasError, ValueError):
    """Bad input: names where it is (file, entry path, field) and what is allowed.

    >>> str(InputError("must be at least 0", file="joe.yaml",
    ...                path="combatants[0].body", allowed="a whole number >= 0"))
    'joe.yaml: combatants[0].body: must be at least 0 (allowed: a whole number >= 0)'
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        path: str | None = None,
        allowed: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.path = path
        self.allowed = allowed
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ": ".join(part for part in (self.file, self.path) if part)
        text = f"{where}: {self.message}" if where else self.message
        if self.allowed:
            text += f" (allowed: {self.allowed})"
        return text

    def located(self, *, file: str | None = None, prefix: str | None = None) -> InputError:
        """The same error placed inside a file and/or under an entry path."""
        path = self.path
        if prefix:
            path = join_path(prefix, path) if path else prefix
        err = type(self).__new__(type(self))
        err.__dict__.update(self.__dict__)
        InputError.__init__(
            err, self.message, file=file or self.file, path=path, allowed=self.allowed
        )
        return err


class DiceSyntaxError(InputError):
    """A dice expression that does not parse: the column (1-based) and what was expected."""

    def __init__(self, expression: str, column: int, expected: str) -> None:
        self.expression = expression
        self.column = column
        self.expected = expected
        found = expression[column - 1] if 0 < column <= len(expression) else "end of input"
        super().__init__(
            f"bad dice expression {expression!r} at column {column}: "
            f"expected {expected}, found {found!r}"
        )

    def located(self, *, file: str | None = None, prefix: str | None = None) -> InputError:
        return InputError(self.message, file=file, path=prefix, allowed=self.allowed)


class ScriptError(InputError):
    """Pinned dice that do not fit: a value a die cannot show, too few or too many values."""

    def __init__(
        self, message: str, *, die: str, position: int, allowed: str | None = None
    ) -> None:
        self.die = die
        self.position = position
        super().__init__(f"pinned value #{position} for {die}: {message}", allowed=allowed)


class RulesError(FracasError, ValueError):
    """An action the rules do not allow in the current state (e.g. attacking while grappled out)."""


class UnknownSystemError(InputError):
    """A system id that no registered rule system has."""


def join_path(prefix: str, path: str) -> str:
    """Join entry paths: ``combatants[1]`` + ``weapons[0].damage``."""
    if not path:
        return prefix
    if path.startswith("["):
        return prefix + path
    return f"{prefix}.{path}"


def format_loc(loc: Sequence[int | str]) -> str:
    """Turn a pydantic location tuple into ``weapons[0].damage``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text = f"{text}.{part}" if text else str(part)
    return text
