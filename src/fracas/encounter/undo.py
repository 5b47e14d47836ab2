"""What undo takes back, worked out on a session's inputs alone (see
:meth:`fracas.encounter.session.Session.undo`)."""

from __future__ import annotations

from typing import Any

from fracas.core.words import count
from fracas.errors import InputError

Entries = list[dict[str, Any]]


def plan_undo(now: Entries, steps: int) -> tuple[Entries, list[Entries], bool]:
    """The inputs left after taking back the last ``steps`` (an answer, dice, a GM edit,
    with the dice the session rolled by itself after them; inputs made as one are one
    step), what was taken (for redo, the last taken last), and whether a GM edit was
    taken from before the pending turn's inputs (``{"kind": "reinsert"}``), or the
    pending turn's inputs as they were before an edit were put back (its ``turn``: the
    dice fracas had rolled come back as rolled): the session is then played again from
    the start. Too many steps: :class:`InputError`."""
    entries = list(now)
    taken: list[list[dict[str, Any]]] = []
    middle = False
    for done in range(steps):
        made = [i for i, e in enumerate(entries) if not e.get("auto")]
        if not made:
            raise InputError("nothing to undo" if not done else
                             f"only {count(done, 'step')} to undo", path="undo",
                             allowed=f"undo 1 to {done}" if done else "a decision first")
        last = max(made, key=lambda i: (int(entries[i].get("n", 0)), i))
        group = entries[last].get("group")
        members = [i for i in made if i == last or (
            group is not None and entries[i].get("group") == group)]
        first = min(members)
        # the inputs of the turn a GM edit went in front of, as they were before it: the
        # dice fracas had rolled by itself among them come back as they were rolled
        turn = next((e["turn"] for e in (entries[i] for i in members) if e.get("turn")),
                    None)
        if all(entries[j].get("auto") or j in members for j in range(first, len(entries))):
            taken.append(entries[first:])  # the newest input, at the log's end
            del entries[first:]
            if turn:  # put back in front of where the pending turn began: played anew
                entries.extend(dict(e) for e in turn)
                middle = True
            continue
        # a GM edit made before the pending turn's inputs: it alone is taken out
        middle = True
        put = [entries[i] for i in members]
        taken.append([{"kind": "reinsert", "entries": put}])
        for i in sorted(members, reverse=True):
            del entries[i]
        if turn is not None:  # the inputs of the turn the edit left out come back
            entries[first:] = [dict(e) for e in turn]
    return entries, taken, middle
