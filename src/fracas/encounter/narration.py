"""The brief narration a table reads aloud, in its own words.

Events keep combatant ids and rule names (the log must replay); :func:`say` turns the
ones a table hears into a line with the combatants' names (from their sheets) and the
data pack's words for outcomes, values and options. :func:`is_brief` says which: the
round's order, whose turn, the action, each roll with what it showed, what a roll's
symbols were spent on, the outcome, the end, and every change the GM makes by hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

from fracas.core.events import (
    ActionChosen,
    Changed,
    Event,
    FightEnded,
    Outcome,
    Rolled,
    RoundStarted,
    TurnStarted,
)
from fracas.core.words import Words, plain

_PLACE = re.compile(r"^initiative place \d+$")


def is_brief(event: Event, words: Words | None = None) -> bool:
    """Whether the brief narration tells ``event`` (a roll of any system included; with
    the system's ``words``, what its data pack says a table hears too: a contest's roll
    won, its end)."""
    return isinstance(event, RoundStarted | TurnStarted | ActionChosen | Rolled | Outcome
                      | FightEnded) or event.brief or type(event).__name__.endswith(
        ("Rolled", "Spent")) or type(event).__name__.startswith("Combatant") or (
        words is not None and event.rule in words.brief_rules
        and not isinstance(event, Changed))


def health_besides(events: tuple[Event, ...] | list[Event],
                   health_field: Callable[[str], str | None], by_hand: str = ""
                   ) -> dict[int, int]:
    """The changes the brief narration tells besides its outcome lines: in each turn, a
    change of the health field (``health_field(combatant id)``, None for one who left) of
    a combatant no outcome of that turn names as its target (a counter attack's damage to
    the attacker, damage at the start of a turn), and a change of anyone's conditions an
    action made (knocked prone, stunned, dying), by the index of the event, with the index
    of the outcome line it is told after (itself when there is none); a change by hand
    (rule ``by_hand``) is told already."""
    out: dict[int, int] = {}
    start = 0
    for end in [i for i, e in enumerate(events) if isinstance(e, TurnStarted)] + [
            len(events)]:
        turn = range(start, end)
        outcomes = [i for i in turn if isinstance(events[i], Outcome)]
        targets = {getattr(events[i], "target", "") for i in outcomes}
        for i in turn:
            e = events[i]
            if not isinstance(e, Changed) or e.before == e.after or e.rule == by_hand:
                continue
            if (e.target not in targets and e.field == health_field(e.target)) or (
                    e.field == "conditions" and outcomes and _named(e.before) != _named(
                        e.after)):  # not a condition's rounds counting down
                out[i] = next((j for j in outcomes if j > i), outcomes[-1] if outcomes else i)
        start = end
    return out


def _named(conditions: Any) -> set[str]:
    """The names of a list of conditions, without the values kept after them
    (``disoriented:1`` is ``disoriented``)."""
    if not isinstance(conditions, tuple | list):
        return set()
    return {str(c).split(":", 1)[0] for c in conditions}


def unhurt_hits(events: Sequence[Event], history: Sequence[Event] = ()) -> set[int]:
    """The outcomes of attacks that hit and took nothing (all of it stopped by armour or
    soak), by index in ``events``: their lines say so (``Dura loses nothing``), where a
    hit's line would else leave the table asking how much. Hits of other actions (a
    grapple, a disarm) deal no damage by their nature and are left as they are. The action
    is the actor's last chosen before the outcome, in ``events`` or, when it was told
    earlier (a turn that waited for dice), in ``history`` (the fight's events so far)."""
    out: set[int] = set()
    for i, e in enumerate(events):
        if not (isinstance(e, Outcome) and e.hit and not e.damage and e.target):
            continue
        earlier = list(events[:i])
        at = next((k for k in range(len(history) - 1, -1, -1) if history[k] == e), None)
        if at is not None:
            earlier = list(history[:at])
        chosen = next((c for c in reversed(earlier)
                       if isinstance(c, ActionChosen) and c.actor == e.actor), None)
        if chosen is not None and chosen.action == "attack":
            out.add(i)
    return out


class Names:
    """Combatant ids to names, and the text of any event with its ids put into names."""

    def __init__(self, names: Mapping[str, str]):
        self.names = dict(names)
        ids = sorted((i for i, n in self.names.items() if i != n), key=len, reverse=True)
        self._pattern = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b") \
            if ids else None
        shown = sorted(set(self.names.values()), key=len, reverse=True)
        self._shown = re.compile("|".join(map(re.escape, shown))) if shown else None

    def __call__(self, cid: str) -> str:
        return self.names.get(cid, cid)

    def label(self, text: str) -> str:
        """A die's label with its ids put as names, where a one-letter id is also a word
        (``a's cards until a number card``): such an id only where it owns something."""
        for cid, shown in self.names.items():
            if len(cid) == 1:
                owner = f"{shown}'s".replace("\\", "\\\\")  # a replacement, not a pattern
                text = re.sub(rf"\b{re.escape(cid)}'s\b", owner, text)
        return Names({i: n for i, n in self.names.items() if len(i) > 1}).put(text)

    def put(self, text: str) -> str:
        """``text`` with every combatant id that is not inside a name written as the name."""
        if self._pattern is None:
            return text
        pattern = self._pattern
        if self._shown is None:
            return pattern.sub(lambda m: self.names[m.group(1)], text)
        out, last = [], 0
        for m in self._shown.finditer(text):  # names stay as they are
            out.append(pattern.sub(lambda x: self.names[x.group(1)], text[last:m.start()]))
            out.append(m.group(0))
            last = m.end()
        out.append(pattern.sub(lambda x: self.names[x.group(1)], text[last:]))
        return "".join(out)


#: The fields of an event that refer to combatants (an id, or ids inside tuples): the only
#: places where a name is put for an id. Free text (a rule's note, a weapon's name, the
#: action in the table's words, a GM's description) is never searched for ids: "knife"
#: is the Knife fighter's id and also the name of his knife.
REFERS = frozenset({"actor", "target", "who", "attacker", "defender", "combatant", "order",
                    "names", "segments"})


def _named_value(value: Any, names: Names) -> Any:
    if isinstance(value, str):
        return names.names.get(value, value)
    if isinstance(value, tuple):
        return tuple(_named_value(v, names) for v in value)
    return value


def in_names(event: Event, names: Names) -> Event:
    """``event`` with the combatants its fields refer to (:data:`REFERS`) given by name."""
    changes = {}
    for f in fields(event):
        if f.name in REFERS:
            value = getattr(event, f.name)
            named = _named_value(value, names)
            if named != value:
                changes[f.name] = named
    return replace(event, **changes) if changes else event


def field_label(name: str, words: Words) -> str:
    """A field's label from the system's data pack, else its name in plain words."""
    return plain(words.field(name))


def value_words(value: Any, words: Words) -> str:
    """A state's or a sheet's value as the table says it: yes/no/none, conditions by their
    labels, a mapping as its labelled fields, a list of records one after another."""
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, Mapping):
        shown = [f"{field_label(str(k), words)} {value_words(v, words)}"
                 for k, v in value.items()]
        return ", ".join(shown) if shown else "none"
    if isinstance(value, tuple | list):
        if not value:
            return "none"
        if all(not isinstance(v, Mapping | tuple | list) for v in value):
            return ", ".join(plain(words.condition(v)) if isinstance(v, str)
                             else value_words(v, words) for v in value)
        return "; ".join(" ".join(value_words(x, words) for x in v)
                         if isinstance(v, tuple | list) else value_words(v, words)
                         for v in value)
    return str(value)


def state_words(field: str, value: Any, words: Words, names: Names) -> str:
    """A value of a combatant's state ``field`` as the table says it: the data pack's words
    for that value (``shown``), a combatant's id as its name, an empty text as ``none``,
    else :func:`value_words`."""
    word = words.fields.get(field)
    key = "yes" if value is True else "no" if value is False else value
    if word is not None and isinstance(key, str) and key in word.shown:
        return word.shown[key]
    if isinstance(value, str):
        return names(value) if value in names.names else value or "none"
    return value_words(value, words)


LONG_LIST = 8  # a list longer than this is told by its size and what came and went


def _long_list_change(before: Any, after: Any, words: Words) -> str | None:
    """A change of a long list of plain values (a c22 draw pile of 22 cards) as its sizes
    and what left it or joined it (``22 → 20 (less 4S, 4H)``), not both lists whole; None
    for anything else. More than :data:`LONG_LIST` items moved are told by count only."""
    if not (isinstance(before, tuple) and isinstance(after, tuple)) or max(
            len(before), len(after)) <= LONG_LIST or any(
            isinstance(v, Mapping | tuple | list) for v in (*before, *after)):
        return None
    left, joined = list(before), []
    for v in after:
        if v in left:
            left.remove(v)
        else:
            joined.append(v)
    parts = [f"{word} {value_words(tuple(moved), words)}"
             for word, moved in (("less", left), ("plus", joined))
             if moved and len(moved) <= LONG_LIST]
    return f"{len(before)} → {len(after)}" + (f" ({'; '.join(parts)})" if parts else "")


def say_public(event: Event, names: Names, words: Words) -> str | None:
    """The line for ``event`` without its private facts (see :meth:`Event.public_text`), in
    the table's words: names from the sheets, the data pack's word for an outcome; None
    when nothing of it may be shown."""
    if isinstance(event, Outcome):
        outcome = words.outcome(event.outcome)
        if not event.target:
            return f"{names(event.actor)}: {outcome}"
        return f"{names(event.actor)} → {names(event.target)}: {outcome}"
    return in_names(event, names).public_text()


def public_teller(names: Mapping[str, str], words: Words) -> Callable[[Event], str | None]:
    """Each event's line without its private facts, in the table's words (for a player
    who may not see them: :func:`fracas.encounter.redact.event_lines`)."""
    shown = Names(names)
    return lambda event: say_public(event, shown, words)


def teller(names: Mapping[str, str], words: Words) -> Callable[[Event], str]:
    """Each event's line in the table's words (names by id, the system's words), for a
    screen that prints events: the terminal's commands and the web tracker's log."""
    shown = Names(names)
    return lambda event: say(event, shown, words)


def say(event: Event, names: Names, words: Words) -> str:
    """One line for ``event`` in the table's words (any event; :func:`is_brief` says which
    the brief narration tells)."""
    if isinstance(event, RoundStarted):
        order = []
        for candidates, label, *_ in event.slots:
            if len(candidates) == 1:
                order.append(names(candidates[0]))
            else:
                order.append(f"{label}: " + " or ".join(names(c) for c in candidates))
        return f"Round {event.round}: " + ", ".join(order)
    if isinstance(event, TurnStarted):
        slot = "" if not event.slot or _PLACE.match(event.slot) else f" ({event.slot})"
        return f"{names(event.actor)}'s turn{names.put(slot)}"
    if isinstance(event, ActionChosen):
        said = event.said or words.action(event.action).label
        by = "" if event.policy in ("person", "") else f" (fracas decides: {event.policy})"
        return f"{names(event.actor)}: {said}{by}"
    if isinstance(event, Outcome):
        outcome = words.outcome(event.outcome)
        if not event.target:
            return f"{names(event.actor)}: {outcome}"
        hurt = f"; {names(event.target)} loses {event.damage}" if event.damage else ""
        return f"{names(event.actor)} → {names(event.target)}: {outcome}{hurt}"
    if isinstance(event, Changed):
        field = f"{names(event.target)}: {words.field(event.field)}"
        if event.before is None:  # a value given for the first time: nothing was there
            return f"{field} set to {state_words(event.field, event.after, words, names)}"
        moved = _long_list_change(event.before, event.after, words)
        if moved is not None:
            return f"{field} {moved}"
        return (f"{field} {state_words(event.field, event.before, words, names)} → "
                f"{state_words(event.field, event.after, words, names)}")
    return in_names(event, names).text()
