"""``w`` in ``fracas play``: who's winning, from the fight as it stands, and what if.

``w`` shows each side's chance to win and the rounds left: a first estimate at once,
then the exact chain's figure where the fight is small (within :data:`EXACT_SECONDS`),
else a narrower estimate (its 95 % interval within :data:`TARGET` either way, or the
last one reached in :data:`SECONDS`). ``w if ...``
does the same for a change the GM is weighing, on a scratch copy: the fight and its log
stay as they are.
"""

from __future__ import annotations

import json
import time
from typing import Any

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from fracas.encounter.session import Session
from fracas.errors import InputError

HELP = """\
  w                      who's winning: each side's chance and the rounds left
  w if ID leaves         ... if that combatant left the fight
  w if ID FIELD VALUE    ... if its value were VALUE (w if gorr health 5)
  w if join {JSON}       ... if a combatant joined (a scenario entry)
                         (a what-if changes nothing in the fight)"""

TARGET = 0.01  # the narrowest interval the key waits for (points either way)
SECONDS = 30.0  # the longest it keeps narrowing
EXACT_SECONDS = 10.0  # the exact chain's budget: past it, the fight is not small


def command(session: Session, words: list[str], console: Console) -> None:
    """``w`` or ``w if ...`` (``words``: what follows ``w``)."""
    from fracas.analysis.winning import of_session

    position = of_session(session)
    if words:
        if words[0].lower() != "if" or len(words) < 2:
            raise InputError(f"{' '.join(words)!r} after w", path="w",
                             allowed="w, w if ID leaves, w if ID FIELD VALUE, "
                             "w if join {JSON}")
        position = _changed(session, position, words[1:])
    show(console, position)


def _changed(session: Session, position: Any, words: list[str]) -> Any:
    """The position with the change ``w if`` names (on a copy)."""
    from fracas.analysis.winning import what_if
    from fracas.cli.gm import split_who
    from fracas.encounter.gm import field_labels, field_named

    if words[0].lower() == "join":
        text = " ".join(words[1:])
        try:
            entry = json.loads(text)
        except ValueError:
            raise InputError(f"{text!r} is not a combatant entry", path="w if join",
                             allowed='{"id": "kat", "name": "Kat", "side": ..., and the '
                             "sheet's fields}") from None
        if not isinstance(entry, dict):
            raise InputError("a combatant entry is a mapping", path="w if join",
                             allowed='{"id": ..., "name": ..., "side": ..., ...}')
        session.check_entry(entry)  # errors name the entry's field
        return what_if(position, join=entry)
    if words[-1].lower() == "leaves":
        cid, rest = split_who(session, words[:-1])
        if rest:
            raise InputError(f"{' '.join(words[:-1])!r} is not one combatant", path="w if",
                             allowed="w if ID leaves")
        return what_if(position, leave=cid)
    cid, rest = split_who(session, words, 2)
    if len(rest) < 2:
        raise InputError("a value set needs a field and a value", path="w if",
                         allowed="w if ID FIELD VALUE")
    said, value = " ".join(rest[:-1]), rest[-1]
    name = field_named(session, cid, said)
    if name is None:
        raise InputError(f"{cid} has no value {said!r}", path="w if",
                         allowed=field_labels(session, cid))
    return what_if(position, values={cid: {name: value}})


def show(console: Console, position: Any) -> None:
    """The figures as they narrow: the first at once, then the last one reached."""
    from fracas.analysis.winning import refine

    began = time.perf_counter()
    first = last = None
    for chance in refine(position, target=TARGET, exact_seconds=EXACT_SECONDS):
        if first is None:
            first = chance
            console.print(view(chance, first=not chance.exact))
        last = chance
        if time.perf_counter() - began > SECONDS:
            break
    if last is not None and last is not first:
        console.print(view(last))


def view(chance: Any, first: bool = False) -> Group:
    """Each side's chance, its 95 % interval, and the rounds left."""
    position = chance.position
    title = "Who's winning" + (" (a first estimate)" if first else "")
    table = Table(show_edge=False)
    table.add_column("side")
    table.add_column("wins", justify="right")
    table.add_column("95% interval", justify="right")
    for side, c in chance.sides.items():
        table.add_row(side, f"{c.p:.1%}", "exact" if chance.exact
                      else f"{c.lo:.1%} – {c.hi:.1%}")
    if chance.no_winner.p >= 0.0005:  # shown where it reads 0.1 % or more
        c = chance.no_winner
        table.add_row("no winner", f"{c.p:.1%}", "exact" if chance.exact
                      else f"{c.lo:.1%} – {c.hi:.1%}")
    lo, hi = chance.rounds_left_ci95
    rounds = (f"{chance.rounds_left:.1f}" if chance.exact
              else f"{chance.rounds_left:.1f} ({lo:.1f} – {hi:.1f})")
    return Group(Text(f"{title}: {position.where}", style="bold"), table, Text(
        f"rounds still to begin: {rounds}; {chance.method_words()}, {chance.seconds:.1f} s; "
        f"played by: {position.played_by_words()}", style="dim"))
