"""Reading a text file a person names (a scenario, a script of lines): whatever the path
is (a folder, a device that never ends, a missing file, bytes that are not UTF-8), the
answer is the text or an :class:`~fracas.errors.InputError` naming the file, never a
traceback or a read without end."""

from __future__ import annotations

from pathlib import Path

from fracas.errors import InputError

MAX_TEXT = 1 << 24  # 16 MiB: far beyond any scenario or script a person writes


def read_text(path: Path | str, what: str = "a text file", limit: int = MAX_TEXT,
              where: str | None = None) -> str:
    """The UTF-8 text of the file at ``path`` (at most ``limit`` bytes); ``what`` names
    what it should be, for the error (``a scenario YAML file``); ``where``: the option
    it was given to (``--script``)."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(limit + 1)
    except FileNotFoundError:
        raise InputError("no such file", file=str(p), path=where, allowed=what) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", file=str(p), path=where,
                         allowed=what) from None
    except OSError as err:
        raise InputError(f"cannot read the file: {err.strerror or err}", file=str(p),
                         path=where, allowed=what) from None
    if len(raw) > limit:
        raise InputError(f"more than {limit:,} bytes", file=str(p), path=where,
                         allowed=what) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start + 1})", file=str(p), path=where,
                         allowed=what) from None
