"""Which words a log was written in: a mark of the code and data that make an event's text.

A log keeps each event's text beside its values. Reading it back, fracas says the text
again from the values; where the two differ, the text is either older words of fracas (a
log written before a rewording) or edited by hand. The mark written in a log's header
tells them apart: a log whose mark is this fracas's own was written in these words, so a
text that differs was edited, and the log is refused, naming the line and the field; a
log from other code (or older, with no mark) gets a warning and is read in fracas's words.
"""

from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path

from fracas.errors import InputError

_SUFFIXES = (".py", ".yaml", ".yml")


@functools.cache
def words_mark(system_module: str) -> str:
    """The mark of this fracas and of the system whose rules live in ``system_module``
    (a plug-in's package too): a hash of every source and data file that can word an
    event (fracas's package and the system's), computed once a process."""
    roots = {Path(__file__).resolve().parents[1]}  # the fracas package
    module = sys.modules.get(system_module)
    if module is not None and getattr(module, "__file__", None):
        roots.add(Path(str(module.__file__)).resolve().parent)
    digest = hashlib.sha256()
    for root in sorted(roots):
        for path in sorted(root.rglob("*")):
            if path.suffix in _SUFFIXES and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def mark_of(system: object) -> str:
    """The words mark for a rule system (a class or an instance: its module names its
    package)."""
    return words_mark(str(getattr(system, "__module__", type(system).__module__)))


def refuse_edited(mark: object, system: object, told: str, file: str | None,
                  line: int) -> None:
    """Refuse a log whose event text differs from fracas's words for its values
    (``told``: both, from :func:`fracas.encounter.log.text_retold`) when the log's
    ``mark`` says it was written by this fracas: the text was edited by hand."""
    if mark is not None and mark == mark_of(system):
        raise InputError(f"an event's text was edited ({told})", file=file,
                         path=f"line {line}: event.text",
                         allowed="the text fracas wrote for the event's values: a log "
                                 "must be as fracas wrote it")
