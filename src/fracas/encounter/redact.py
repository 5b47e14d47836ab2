"""Who sees what: the one redaction step every view for a person goes through.

A :class:`Viewer` is the GM (sees all) or a player: their own combatants in full, the
others as the GM's visibility setting allows (``exact`` numbers, a health ``bar``, a
``status`` word, or ``hidden``), and the combatants the GM keeps hidden not at all (their
names are replaced by "someone unseen").

Events say what their numbers tell (:attr:`fracas.core.events.Event.facts`): ``public``
(whose turn, the action declared, the dice shown), ``condition``, ``opposed`` (a roll
said aloud between an action's two sides, as a contest's: its players hear it, others see
it as private), or ``private`` facts (health, defence totals, armour, sheet values). A
private event concerns the combatants
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
from fracas.encounter.narration import REFERS

VISIBILITY = ("exact", "bar", "status", "hidden")
UNSEEN = "someone unseen"


@dataclass(frozen=True)
class Viewer:
    """Who looks: the GM, or a player with their own combatants, the visibility of their
    allies (``allied``: combatants on a side of their own) and of the enemies (``others``:
    ``exact``, ``bar``, ``status``, ``hidden``), the combatants hidden from players
    altogether, those revealed since (``since``: from which event of the fight on they are
    seen; what they did before stays unseen) and whether odds against a target whose
    health the viewer may not see are left out (``hide_odds``)."""

    gm: bool = True
    own: frozenset[str] = frozenset()
    others: str = "exact"
    hidden: frozenset[str] = frozenset()
    allies: frozenset[str] = frozenset()
    allied: str = "exact"
    since: tuple[tuple[str, int], ...] = ()
    hide_odds: bool = False

    @classmethod
    def player(cls, own: Iterable[str], settings: Mapping[str, Any],
               sides: Mapping[str, str] | None = None) -> Viewer:
        """A player's viewer; ``sides``: each combatant's side (id -> side), for allies."""
        own = frozenset(own)
        sides = sides or {}
        mine = {sides[c] for c in own if c in sides}
        revealed = settings.get("revealed") or {}
        return cls(False, own, str(settings.get("others", "bar")),
                   frozenset(h for h in settings.get("hidden", ()) if h not in own),
                   frozenset(c for c, side in sides.items() if side in mine and c not in own),
                   str(settings.get("allies", "exact")),
                   tuple(sorted((c, int(n)) for c, n in revealed.items() if c not in own
                                and c not in settings.get("past", ()))),
                   bool(settings.get("hide_odds", False)))

    def sees(self, cid: str, kind: str) -> bool:
        """May this viewer see ``kind`` facts (``private`` numbers, a ``condition``, ``gm``:
        the GM's alone, as a roll behind the screen) of ``cid``?"""
        if self.gm:
            return True
        if kind == "gm":
            return False
        mode = self.mode(cid)
        if kind == "condition":
            return mode not in ("hidden", "unseen")
        return mode in ("full", "exact")

    def mode(self, cid: str) -> str:
        """How ``cid`` is shown: ``full``, a visibility, or ``unseen``."""
        if self.gm or cid in self.own:
            return "full"
        if cid in self.hidden:
            return "unseen"
        return self.allied if cid in self.allies else self.others

    def hidden_at(self, index: int) -> frozenset[str]:
        """The combatants unseen in the fight's event ``index``: those hidden now, and
        those revealed after it (their past stays unseen unless the GM shows it)."""
        later = {cid for cid, since in self.since if index < since}
        return self.hidden | later if later else self.hidden


@dataclass
class Names:
    """Every combatant a fight has known (id -> name), for finding who an event names."""

    names: dict[str, str]
    _patterns: dict[str, re.Pattern[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._words: dict[str, set[str]] = {}
        for cid, name in self.names.items():
            self._words.setdefault(name, set()).add(cid)
        alternation = "|".join(re.escape(w) for w in sorted(self._words, key=len, reverse=True))
        self._any = re.compile(rf"(?<![\w])({alternation})(?![\w])") if alternation else None

    def pattern(self, cid: str) -> re.Pattern[str]:
        """A combatant's name as a whole word (``the`` before it taken along)."""
        if cid not in self._patterns:
            self._patterns[cid] = re.compile(
                r"(?<![\w])(?:the )?" + re.escape(self.names.get(cid, cid)) + r"(?![\w])")
        return self._patterns[cid]

    def referred(self, event: Event) -> set[str]:
        """The combatants ``event``'s fields refer to (see
        :data:`fracas.encounter.narration.REFERS`)."""
        found: set[str] = set()
        for f in fields(event):
            if f.name in REFERS:
                _ids_in(getattr(event, f.name), self.names, found)
        return found

    def named(self, event: Event, text: str | None = None) -> set[str]:
        """The combatants ``event`` names: one its fields refer to, or one whose name is
        in its text (never an id inside free text: ``knife`` may be a weapon)."""
        found = self.referred(event)
        if self._any is not None:
            for match in self._any.finditer(event.text() if text is None else text):
                found |= self._words[match.group(1)]
        return found

    def unseen(self, value: Any, hidden: Iterable[str]) -> Any:
        """``value`` with every hidden combatant's name, and every value that is a hidden
        combatant's id, replaced by "someone unseen" (strings, lists and dicts,
        recursively)."""
        hidden = frozenset(hidden)
        if isinstance(value, str):
            if value in hidden:
                return UNSEEN
            for cid in hidden:
                value = self.pattern(cid).sub(UNSEEN, value)
            return value
        if isinstance(value, dict):
            return {k: self.unseen(v, hidden) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.unseen(v, hidden) for v in value]
        return value


def _ids_in(value: Any, names: Mapping[str, str], found: set[str]) -> None:
    if isinstance(value, str):
        if value in names:
            found.add(value)
    elif isinstance(value, tuple | list):
        for v in value:
            _ids_in(v, names, found)


#: what was worked out of an event for screens: the event, its line, and whom it names
#: (those its fields refer to, those named in its text), once asked
Told = dict[int, tuple[Event, str, tuple[set[str], set[str]] | None]]


def event_lines(events: Sequence[Event], names: Names, viewer: Viewer,
                say: Callable[[Event], str] | None = None,
                told: Told | None = None,
                say_public: Callable[[Event], str | None] | None = None,
                first: int = 0) -> list[tuple[Event, str]]:
    """The events ``viewer`` sees, each with the line they see: ``say``'s (the table's
    words, see :func:`fracas.encounter.narration.say`), else the event's own text; an
    event whose private facts the viewer may not see, ``say_public``'s line (the same
    words without them, :func:`fracas.encounter.narration.say_public`), else the event's
    own public text. An ``opposed`` event (a roll said aloud between an action's two
    sides) is told as a private one to a player of either side (the action's actor and
    target, or whom it names; nobody unseen in it): its public line says the totals, not
    the other's sheet; to anybody else not at all. An event whose fields refer to a combatant
    unseen then (hidden, or revealed only later) is left out (what it does or suffers is
    not shown), but the round's order and what the viewer's own combatant does to it (the
    action they chose, its outcome: a public line, as the viewer may not see the unseen
    one's numbers); an unseen one's name in a line shown says "someone unseen" there.
    ``told``: what earlier calls with the same ``names`` and ``say`` worked out for each
    event (its line and whom it names), kept by the caller and added to here: a long
    fight's log is then told once, not again for every screen.
    ``first``: where ``events`` begin in the fight's events (a view of its newest lines
    only), for what was unseen then."""
    memo: Told = {} if told is None else told

    def tell(event: Event) -> tuple[str, tuple[set[str], set[str]] | None]:
        known = memo.get(id(event))
        if known is None or known[0] is not event:
            known = (event, say(event) if say else event.text(), None)
            memo[id(event)] = known
        return known[1], known[2]

    at = {id(e): first + i for i, e in enumerate(events)}
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
            refs = names.referred(event)
            named = (refs, (names.named(event, event.text()) | names.named(event, said)) - refs)
            memo[id(event)] = (event, said, named)
        refs, mentioned = named
        who = refs | mentioned or context
        kind = event.fact_kind()
        heard = kind == "opposed" and bool(viewer.own & (
            who if context is everyone else who | context)) and not any(
            viewer.mode(cid) == "unseen" for cid in who)
        if kind == "public" or all(viewer.sees(cid, kind) for cid in who):
            line: str | None = said
        elif kind == "opposed" and not heard:
            line = None  # said aloud between the action's sides: not theirs to hear
        else:
            line = say_public(event) if say_public else event.public_text()
        if line is None:
            continue
        unseen = viewer.hidden_at(at[id(event)])
        if unseen & refs and not isinstance(event, RoundStarted) and getattr(
                event, "actor", None) not in viewer.own:
            continue  # what an unseen combatant does or suffers is not shown at all
        if unseen & (refs | mentioned):
            line = names.unseen(line, unseen)
        out.append((event, line))
    return out


def unseen_targets(targets: Iterable[str | None], hidden: Iterable[str]
                   ) -> dict[str, tuple[str, str]]:
    """The hidden combatants among an action menu's ``targets`` (in the menu's order),
    each with the value a player's screen names it by (``unseen-1``) and its label
    ("someone unseen", "someone unseen 2"): the player may choose it without learning who
    it is, and the answer is that very combatant's action (never another in its place)."""
    hidden = set(hidden)
    out: dict[str, tuple[str, str]] = {}
    for cid in targets:
        if cid in hidden and cid not in out:
            n = len(out) + 1
            out[cid] = (f"unseen-{n}", UNSEEN if n == 1 else f"{UNSEEN} {n}")
    return out


def decision_view(decision: Mapping[str, Any], names: Names, viewer: Viewer
                  ) -> dict[str, Any]:
    """A decision (its ``to_dict``) as ``viewer`` sees it: a hidden target named as
    :func:`unseen_targets` says, without odds (they would tell of its defence); hidden
    combatants unnamed elsewhere; no "takes out" against a combatant whose health the
    viewer may not see (no odds at all there when the GM hides them, ``hide_odds``)."""
    out = dict(decision)
    if viewer.gm:
        return out
    dice = out.get("dice")
    if isinstance(dice, Mapping) and dice.get("then"):
        # the other parts of a roll of several people's dice are the GM's to type with it:
        # a player is asked for their own die only (and may not know who rolls the rest)
        out["dice"] = {**dice, "then": []}
    menu = out.get("menu")
    targets: dict[str, str] = {}
    unseen: dict[str, tuple[str, str]] = {}
    if isinstance(menu, Mapping):
        facets = list(menu.get("facets") or [])
        unseen = unseen_targets((f.get("target") for f in facets), viewer.hidden)
        targets = {str(f.get("option")): str(f.get("target")) for f in facets
                   if f.get("target")}
        out["menu"] = {**menu, "previous": unseen.get(
            menu.get("previous") or "", (menu.get("previous"),))[0],
            "facets": [{**f, "target": unseen[f["target"]][0],
                        "target_name": unseen[f["target"]][1]}
                       if f.get("target") in unseen else f for f in facets]}
    options = []
    for option in out.get("options") or []:
        option = dict(option)
        odds = option.get("odds")
        target = targets.get(str(option.get("id")))
        if target in unseen:
            option["label"] = names.pattern(target).sub(unseen[target][1],
                                                        str(option.get("label", "")))
            option["odds"] = None
            options.append(option)
            continue
        about = ({target} if target else
                 {cid for cid in names.names
                  if names.pattern(cid).search(str(option.get("label", "")))
                  or names.pattern(cid).search(str(out.get("prompt", "")))}
                 or set(names.names) - viewer.own)
        if isinstance(odds, Mapping) and not all(viewer.sees(c, "private") for c in about):
            option["odds"] = None if viewer.hide_odds else {
                k: v for k, v in odds.items() if k != "p_taken_out"}
        options.append(option)
    out["options"] = options
    return dict(names.unseen(out, viewer.hidden))


def summary_view(summary: Mapping[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The end-of-fight summary (:meth:`fracas.encounter.summary.FightSummary.to_dict`) as
    ``viewer`` sees it: no combatant hidden from them; damage taken only where they may see
    its health, dealt only where they may see the health of everyone it hurt (else None);
    when one went down only where its status is theirs to see."""
    if viewer.gm:
        return dict(summary)
    rows = []
    for c in summary.get("combatants") or []:
        cid = str(c["id"])
        if cid in viewer.hidden:
            continue
        seen = viewer.sees(cid, "condition")
        rows.append({
            "id": cid, "name": c["name"], "side": c["side"],
            "taken": c["taken"] if viewer.sees(cid, "private") else None,
            "dealt": c["dealt"] if all(viewer.sees(str(t), "private")
                                       for t, _ in c.get("dealt_to") or ()) else None,
            "down_round": c["down_round"] if seen else None,
            "down_in_turn_of": (UNSEEN if c["down_in_turn_of"] in viewer.hidden
                                else c["down_in_turn_of"]) if seen else None,
            "dealt_to": []})
    return {**summary, "combatants": rows}
