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
            back = kept_dice(entries, first, members, turn) if all(
                entries[i]["kind"] == "gm" for i in members) else []
            taken.append(entries[first:])  # the newest input, at the log's end
            del entries[first:]
            if back:  # put back in front of where the pending turn began: played anew
                entries.extend(back)
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


def rolled_as(entry: dict[str, Any]) -> tuple[Any, Any]:
    """Which draw a die fracas rolled is (its number, and the part of a joint roll)."""
    return entry.get("rolled"), entry.get("part")


def kept_dice(entries: Entries, first: int, members: list[int],
              turn: Entries | None) -> Entries:
    """What undoing GM edits (``members``, from ``first``) at the log's end leaves of the
    pending turn: its inputs as they were before the edits (``turn``), and the dice
    fracas rolled by itself since, which are never drawn anew (those that no longer fit
    the turn are left out when it is played)."""
    back = [dict(e) for e in turn or ()]
    seen = {rolled_as(e) for e in back if "rolled" in e}
    back += [dict(entries[j]) for j in range(first, len(entries)) if j not in members
             and "rolled" in entries[j] and rolled_as(entries[j]) not in seen]
    return back
