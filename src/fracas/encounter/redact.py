"""Who sees what: the one redaction step every view for a person goes through.

A :class:`Viewer` is the GM (sees all) or a player: their own combatants in full, the
others as the GM's visibility setting allows (``exact`` numbers, a health ``bar``, a
``status`` word, or ``hidden``), and the combatants the GM keeps hidden not at all (their
names are replaced by "someone unseen").

Events say what their numbers tell (:attr:`fracas.core.events.Event.facts`): ``public``
(whose turn, the action declared, the dice shown), ``condition``, or ``private`` facts
(health, defence totals, armour, sheet values). A private event concerns the combatants
it names, or, when it names nobody (``Armor: 3 = 3``), the combatants of the action it
belongs to (the actor and the target), or everybody before the first turn (initiative).
A viewer sees an event in full when they may see those facts of every combatant it
concerns; else its public line where it has one (``Rin → Gorr: hit`` without the damage),
else nothing. Odds shown to a player leave out "takes out" where the target's health is
not theirs to see.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from fracas.core.events import ActionChosen, Event, RoundStarted, TurnStarted
from fracas.encounter.gm import told as told_events

VISIBILITY = ("exact", "bar", "status", "hidden")
UNSEEN = "someone unseen"


@dataclass(frozen=True)
class Viewer:
    """Who looks: the GM, or a player with their own combatants, the visibility of the
    others (``exact``, ``bar``, ``status``, ``hidden``) and the combatants hidden from
    players altogether."""

    gm: bool = True
    own: frozenset[str] = frozenset()
    others: str = "exact"
    hidden: frozenset[str] = frozenset()

    @classmethod
    def player(cls, own: Iterable[str], settings: Mapping[str, Any]) -> Viewer:
        own = frozenset(own)
        return cls(False, own, str(settings.get("others", "bar")),
                   frozenset(h for h in settings.get("hidden", ()) if h not in own))

    def sees(self, cid: str, kind: str) -> bool:
        """May this viewer see ``kind`` facts (``private`` numbers, a ``condition``, ``gm``:
        the GM's alone, as a roll behind the screen) of ``cid``?"""
        if self.gm:
            return True
        if kind == "gm":
            return False
        if cid in self.own:
            return True
        if cid in self.hidden:
            return False
        if kind == "condition":
            return self.others != "hidden"
        return self.others == "exact"

    def mode(self, cid: str) -> str:
        """How ``cid`` is shown: ``full``, a visibility, or ``unseen``."""
        if self.gm or cid in self.own:
            return "full"
        return "unseen" if cid in self.hidden else self.others


_FIELDS: dict[str, tuple[str, ...]] = {}


def _string_fields(event: Event) -> tuple[str, ...]:
    """The fields of an event's type that may hold a combatant's id."""
    kind = event.type
    if kind not in _FIELDS:
        _FIELDS[kind] = tuple(f.name for f in fields(event) if f.name != "rule")
    return _FIELDS[kind]


@dataclass
class Names:
    """Every combatant a fight has known (id -> name), for finding who an event names."""

    names: dict[str, str]
    _patterns: dict[str, re.Pattern[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._words: dict[str, set[str]] = {}
        for cid, name in self.names.items():
            for word in (cid, name):
                self._words.setdefault(word, set()).add(cid)
        alternation = "|".join(re.escape(w) for w in sorted(self._words, key=len, reverse=True))
        self._any = re.compile(rf"(?<![\w])(?:the )?({alternation})(?![\w])") if alternation \
            else None

    def pattern(self, cid: str) -> re.Pattern[str]:
        if cid not in self._patterns:
            words = {re.escape(cid), re.escape(self.names.get(cid, cid))}
            self._patterns[cid] = re.compile(
                r"(?<![\w])(?:the )?(?:" + "|".join(sorted(words, key=len, reverse=True))
                + r")(?![\w])")
        return self._patterns[cid]

    def named(self, event: Event, text: str | None = None) -> set[str]:
        """The combatants ``event`` names: an id in one of its fields, or a name or id in
        its text."""
        found = {v for v in (getattr(event, f) for f in _string_fields(event))
                 if isinstance(v, str) and v in self.names}
        if self._any is not None:
            for match in self._any.finditer(event.text() if text is None else text):
                found |= self._words[match.group(1)]
        return found

    def unseen(self, value: Any, hidden: Iterable[str]) -> Any:
        """``value`` with every hidden combatant's name and id replaced by "someone
        unseen" (strings, lists and dicts, recursively)."""
        if isinstance(value, str):
            for cid in hidden:
                value = self.pattern(cid).sub(UNSEEN, value)
            return value
        if isinstance(value, dict):
            return {k: self.unseen(v, hidden) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.unseen(v, hidden) for v in value]
        return value


Told = dict[int, tuple[Event, str, set[str] | None]]


def event_lines(events: Sequence[Event], names: Names, viewer: Viewer,
                say: Callable[[Event], str] | None = None,
                told: Told | None = None,
                say_public: Callable[[Event], str | None] | None = None
                ) -> list[tuple[Event, str]]:
    """The events ``viewer`` sees, each with the line they see: ``say``'s (the table's
    words, see :func:`fracas.encounter.narration.say`), else the event's own text; an
    event whose private facts the viewer may not see, ``say_public``'s line (the same
    words without them, :func:`fracas.encounter.narration.say_public`), else the event's
    own public text.
    ``told``: what earlier calls with the same ``names`` and ``say`` worked out for each
    event (its line and whom it names), kept by the caller and added to here: a long
    fight's log is then told once, not again for every screen."""
    memo: Told = {} if told is None else told

    def tell(event: Event) -> tuple[str, set[str] | None]:
        known = memo.get(id(event))
        if known is None or known[0] is not event:
            known = (event, say(event) if say else event.text(), None)
            memo[id(event)] = known
        return known[1], known[2]

    events = told_events(events)
    if viewer.gm:
        return [(e, tell(e)[0]) for e in events]
    out = []
    everyone = set(names.names)
    context: set[str] = everyone
    for event in events:
        if isinstance(event, RoundStarted):
            context = everyone
        elif isinstance(event, TurnStarted):
            context = {event.actor}
        elif isinstance(event, ActionChosen):
            context = {event.actor, *([event.target] if event.target else [])}
        said, named = tell(event)
        if named is None:
            text = event.text()
            named = names.named(event, text) | names.named(event, said)
            memo[id(event)] = (event, said, named)
        who = named or context
        kind = event.fact_kind()
        if kind == "public" or all(viewer.sees(cid, kind) for cid in who):
            line: str | None = said
        else:
            line = say_public(event) if say_public else event.public_text()
        if line is None:
            continue
        if viewer.hidden & named:
            if not isinstance(event, RoundStarted):
                continue  # what a hidden combatant does or suffers is not shown at all
            line = names.unseen(line, viewer.hidden)
        out.append((event, line))
    return out


def decision_view(decision: Mapping[str, Any], names: Names, viewer: Viewer
                  ) -> dict[str, Any]:
    """A decision (its ``to_dict``) as ``viewer`` sees it: hidden combatants unnamed, and
    no "takes out" against a combatant whose health the viewer may not see."""
    out = dict(decision)
    if viewer.gm:
        return out
    options = []
    for option in out.get("options") or []:
        option = dict(option)
        odds = option.get("odds")
        target = option.get("target")
        about = ({str(target)} if target else
                 {cid for cid in names.names
                  if names.pattern(cid).search(str(option.get("label", "")))
                  or names.pattern(cid).search(str(out.get("prompt", "")))}
                 or set(names.names) - viewer.own)
        if isinstance(odds, Mapping) and not all(viewer.sees(c, "private") for c in about):
            option["odds"] = {k: v for k, v in odds.items() if k != "p_taken_out"}
        options.append(option)
    out["options"] = options
    return dict(names.unseen(out, viewer.hidden))
