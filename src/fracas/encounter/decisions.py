"""An action chosen in steps, as a table says it: what, with what, at whom, then options.

The rules offer an actor a flat list of actions (every weapon × target × option). A
:class:`ActionMenu` reads each one's facets (:class:`Facets`: its group — attack,
grapple, disarm, defend, move or something else —, its kind, weapon, target and
options) and a :class:`Draft` holds the steps taken so far. :meth:`ActionMenu.step`
gives the next :class:`Step`: a short list of :class:`Entry` (never more than
:data:`MAX_ENTRIES`; a longer one is split into pages), each with the exact odds of
the action it leads to, and the composed action so far with its odds. The terminal and
the web only draw these; the answer given to the session is the flat action's option
id (:meth:`ActionMenu.option_id`), so logs, undo and replay are unchanged.

>>> from fracas.registry.scenarios import load_scenario
>>> from fracas.encounter.session import Session
>>> s = Session.start(load_scenario("examples/tristat/duel-fight.yaml"), seed=1,
...                   controllers={"rin": "person", "gorr": "person"}, roll_all=True)
>>> menu = s.pending.menu
>>> [e.label for e in menu.step(Draft()).entries]
['Attack', 'Grapple', 'Disarm', 'Defend']
>>> menu.usual().label
'Attack Rin with brass knuckles'
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from fracas.core.model import Action, Roster
from fracas.core.system import RuleSystem
from fracas.core.words import GROUP_LABELS, GROUPS, Words
from fracas.odds.cache import cached_odds
from fracas.odds.text import fraction_text

MAX_ENTRIES = 12
STEPS = ("group", "kind", "weapon", "target", "options")
STEP_TITLES = {"group": "what", "kind": "which", "weapon": "with what", "target": "at whom",
               "options": "options"}


@dataclass(frozen=True)
class Odds:
    """The exact odds of one option, from the rule code: chance to hit, expected damage,
    chance to take the target out (exact fractions as text, and floats)."""

    p_hit: str
    expected_damage: str
    p_taken_out: str
    #: the word for what ``p_hit`` counts, from the data pack (c22: ``full hit``, a graze
    #: being no hit there though it may take the target out)
    hit_word: str = "hit"

    def to_dict(self) -> dict[str, Any]:
        return {"p_hit": self.p_hit, "expected_damage": self.expected_damage,
                "p_taken_out": self.p_taken_out}

    def short(self) -> str:
        def pct(text: str) -> str:
            num, _, den = text.partition("/")
            return f"{100 * int(num) / int(den or 1):.0f}%"
        exp = self.expected_damage.partition("/")
        dmg = int(exp[0]) / int(exp[2] or 1)
        return (f"{self.hit_word} {pct(self.p_hit)}, dmg {dmg:.2f}, "
                f"out {pct(self.p_taken_out)}")


def action_odds(system: RuleSystem, action: Action, roster: Roster) -> Odds | None:
    """The odds of an offensive action on a target (None for the others), memoised."""
    if not action.offensive or action.target is None or action.target not in roster:
        return None
    odds = cached_odds(system, action, roster)
    return Odds(fraction_text(odds.p_hit), fraction_text(odds.expected_damage),
                fraction_text(odds.p_taken_out), system.words.odds_hit)


@dataclass(frozen=True)
class LaterOdds:
    """The odds of one action on a roster, worked out when called: what an option holds
    until its odds are first read. Plain data, so that another process may work it out
    (the tracker's odds worker)."""

    system: RuleSystem
    action: Action
    roster: Roster

    def __call__(self) -> Odds | None:
        return action_odds(self.system, self.action, self.roster)


@dataclass(frozen=True)
class Option:
    """One choice on offer: its id (``"1"``, ``"2"``, ...), label and odds (None where
    there are none, e.g. a non-offensive action). The odds may be given as a function:
    they are then computed the first time they are read (a menu drawn a step at a time
    reads only those of the entries it shows)."""

    id: str
    label: str
    given: Odds | Callable[[], Odds | None] | None = field(default=None, compare=False,
                                                          repr=False)

    @property
    def odds(self) -> Odds | None:
        if callable(self.given):
            object.__setattr__(self, "given", self.given())
        return self.given if isinstance(self.given, Odds) else None

    @property
    def ready(self) -> bool:
        """Whether the odds are known (computed, or none to compute)."""
        return not callable(self.given)

    def to_dict(self, wait: bool = True) -> dict[str, Any]:
        """The option as data; ``wait=False``: odds not computed yet are left out and
        marked ``odds_pending`` (a screen shows the choice at once, the odds after)."""
        if not wait and not self.ready:
            return {"id": self.id, "label": self.label, "odds": None, "odds_pending": True}
        return {"id": self.id, "label": self.label,
                "odds": None if self.odds is None else self.odds.to_dict()}


@dataclass(frozen=True)
class DiceRequest:
    """A roll the rules make now: the die's label, whose roll (a combatant id or ``gm``),
    what for (``Rin's defence``), how many values (None: as many as the rules read, e.g.
    cards until a number card), what a value may be, what the roll needs and how the
    table writes what it shows."""

    die: str
    who: str
    what: str
    count: int | None
    allowed: str
    stream: str = "dice"
    needs: str = ""  # what the roll needs, in words ("6 or less"), where the rules say
    typed: str = "values"  # how the table writes it: values (3,5), cards or symbols
    # one owner's part of a roll of several people's dice at once (see fracas.dice.joint):
    part: int = 0  # which part (from 1; 0: a whole roll)
    parts: int = 0  # how many parts the roll has
    shared: int | None = None  # the "roll it" number an earlier part was rolled with
    rest: tuple[tuple[int, str], ...] = ()  # the other parts still missing, and whose
    owner: str = ""  # whose roll the rules asked (before a trial run named the roller)
    bonus: str = ""  # what the roller adds to the die, in words ("+ 5 (sword 4, strength 1)")
    # the parts still missing, as each is asked (typed on the same line by one who may
    # answer them too: the GM, or a player whose combatants roll them)
    then: tuple[DiceRequest, ...] = ()

    def asked_of(self) -> str:
        """Whose roll the rules asked: the owner an answer to it is read back for."""
        return self.owner or self.who

    def to_dict(self) -> dict[str, Any]:
        return {"die": self.die, "who": self.who, "what": self.what, "count": self.count,
                "allowed": self.allowed, "stream": self.stream, "needs": self.needs,
                "typed": self.typed, "part": self.part, "parts": self.parts,
                "bonus": self.bonus, "then": [r.to_dict() for r in self.then]}
        # whose the other parts are and what for only in ``then``, which a player's view
        # leaves out (a player may not know a hidden enemy)


@dataclass(frozen=True)
class Decision:
    """What is asked now: ``kind`` (``action``, ``reaction``, ``dice``, or a rule's own
    mid-resolution choice such as ``spend`` or ``split``), who must answer, a prompt,
    the options (empty for dice), for dice the request, and for an action the menu that
    composes it step by step."""

    kind: str
    who: str
    prompt: str
    options: tuple[Option, ...] = ()
    dice: DiceRequest | None = None
    menu: ActionMenu | None = None  # an action's options by step (see ActionMenu)

    @property
    def odds_ready(self) -> bool:
        return all(o.ready for o in self.options)

    def compute_odds(self) -> None:
        """Work out every option's odds (kept on the option), in the background: an
        option whose odds cannot be worked out is shown without them, never waited for."""
        for option in self.options:
            try:
                _ = option.odds
            except Exception:
                logging.getLogger("fracas.odds").exception("odds of %r", option.label)
                object.__setattr__(option, "given", None)

    def to_dict(self, wait: bool = True) -> dict[str, Any]:
        return {"kind": self.kind, "who": self.who, "prompt": self.prompt,
                "options": [o.to_dict(wait) for o in self.options],
                "dice": None if self.dice is None else self.dice.to_dict(),
                "menu": None if self.menu is None else self.menu.to_dict()}


class Needed(Exception):
    """Raised out of a turn when an answer is needed that has not been given yet."""

    def __init__(self, decision: Decision):
        super().__init__(decision.prompt)
        self.decision = decision


@dataclass(frozen=True)
class Facets:
    """One of the rules' actions as a table names it. ``weapon`` is the weapon's name
    (the data pack's word for none, e.g. "bare hands", on an attack without one; empty
    for an action that takes no weapon); ``toggles`` the option keys it sets."""

    index: int
    group: str
    kind: str
    kind_label: str
    weapon: str
    target: str | None
    target_name: str
    toggles: frozenset[str]
    offensive: bool

    def get(self, step: str) -> str | None:
        return {"group": self.group, "kind": self.kind, "weapon": self.weapon,
                "target": self.target or ""}.get(step)


@dataclass(frozen=True)
class Toggle:
    """An option that can be set on or off: its key (``field=value``), label, one line."""

    key: str
    label: str
    description: str = ""


@dataclass(frozen=True)
class Draft:
    """The steps taken so far: each step's chosen value (None: not chosen yet), the
    options switched on, and the page shown of a long step."""

    group: str | None = None
    kind: str | None = None
    weapon: str | None = None
    target: str | None = None
    toggles: frozenset[str] = frozenset()
    page: int = 0
    taken: tuple[str, ...] = ()  # the steps chosen, in order (for going back)

    def get(self, step: str) -> str | None:
        value: str | None = getattr(self, step)
        return value

    def choose(self, step: str, value: str) -> Draft:
        changes: dict[str, Any] = {step: value, "page": 0, "taken": (*self.taken, step)}
        return replace(self, **changes)

    def back(self) -> Draft:
        """The draft one step back (the options switched on go first)."""
        if self.toggles:
            return replace(self, toggles=frozenset(), page=0)
        if not self.taken:
            return self
        changes: dict[str, Any] = {self.taken[-1]: None, "page": 0, "taken": self.taken[:-1]}
        return replace(self, **changes)


@dataclass(frozen=True)
class Entry:
    """One line of a step: the key to press, its label and one-line description, the
    option id of the action it leads to (whose odds are shown beside it), and for an
    option whether it is on."""

    key: str
    label: str
    description: str
    option: str | None
    value: str
    on: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "description": self.description,
                "option": self.option, "value": self.value, "on": self.on}


@dataclass(frozen=True)
class Step:
    """What to choose next: the step's name and title, its entries (at most
    :data:`MAX_ENTRIES`, ``more`` when a page follows), the action composed so far (its
    option id and label) and whether it is complete (only options are left)."""

    name: str
    title: str
    entries: tuple[Entry, ...]
    composed: str
    composed_label: str
    complete: bool
    more: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title,
                "entries": [e.to_dict() for e in self.entries], "composed": self.composed,
                "composed_label": self.composed_label, "complete": self.complete,
                "more": self.more}


@dataclass(frozen=True)
class ActionMenu:
    """The actions on offer, by facets (see the module docstring). ``previous`` is the
    target the actor last acted on (the default target, else the first the rules list)."""

    actor: str
    actor_name: str
    facets: tuple[Facets, ...]
    toggles: tuple[Toggle, ...]
    previous: str | None = None
    labels: tuple[str, ...] = field(default=(), compare=False)

    # -- reading the facets -----------------------------------------------------------
    def toggle(self, key: str) -> Toggle:
        return next(t for t in self.toggles if t.key == key)

    def candidates(self, draft: Draft) -> list[Facets]:
        return [f for f in self.facets if all(
            draft.get(s) is None or f.get(s) == draft.get(s) for s in STEPS[:4])]

    def pick(self, draft: Draft) -> Facets:
        """The action a draft leads to: each step not taken at its usual value (the first
        the rules list; the previous target), the options closest to those switched on."""
        cands = self.candidates(draft) or list(self.facets)
        for step in ("kind", "weapon", "target"):
            if draft.get(step) is None:
                values = [f.get(step) for f in cands]
                want = self.previous if step == "target" and self.previous in values \
                    else values[0]
                cands = [f for f in cands if f.get(step) == want]
        return min(cands, key=lambda f: (len(f.toggles ^ draft.toggles),
                                         -len(f.toggles & draft.toggles)))

    def by_option(self, option: str) -> Facets:
        """The facets of the flat action with this option id."""
        return next(f for f in self.facets if str(f.index + 1) == option)

    def option_id(self, draft: Draft) -> str:
        return str(self.pick(draft).index + 1)

    def label_of(self, facets: Facets) -> str:
        return self.labels[facets.index] if self.labels else facets.kind_label

    def usual(self) -> Entry | None:
        """The system's usual attack (its first weapon, no options) on the previous target,
        else the first listed: the one-key shortcut. None when there is no attack."""
        if not any(f.group == "attack" for f in self.facets):
            return None
        chosen = self.pick(Draft(group="attack"))
        return Entry("a", self.label_of(chosen), "the usual attack", str(chosen.index + 1),
                     "usual")

    # -- the steps --------------------------------------------------------------------
    def next_step(self, draft: Draft) -> str | None:
        """The first step not taken with more than one value left (None: only options)."""
        cands = self.candidates(draft)
        for step in STEPS[:4]:
            if draft.get(step) is not None:
                continue
            values = _unique(f.get(step) for f in cands)
            if len(values) > 1:
                return step
        return None

    def step(self, draft: Draft) -> Step:
        """The step to choose next (see :class:`Step`)."""
        name = self.next_step(draft)
        chosen = self.pick(draft)
        if name is None:
            return self._options(draft, chosen)
        cands = self.candidates(draft)
        values = _unique(f.get(name) for f in cands)
        entries = []
        for value in values:
            leads = self.pick(draft.choose(name, value))
            label, description = self._value_words(name, value, leads)
            entries.append(Entry("", label, description, str(leads.index + 1), value))
        return self._paged(name, entries, draft, chosen, complete=False)

    def _options(self, draft: Draft, chosen: Facets) -> Step:
        cands = self.candidates(replace(draft, group=chosen.group, kind=chosen.kind,
                                        weapon=chosen.weapon, target=chosen.target))
        units = _units([f.toggles for f in cands])
        entries = []
        for unit in units:
            on = unit <= chosen.toggles
            after = self.pick(replace(draft, group=chosen.group, kind=chosen.kind,
                                      weapon=chosen.weapon, target=chosen.target,
                                      toggles=(chosen.toggles - unit) if on
                                      else _with(chosen.toggles, unit, cands)))
            words = [self.toggle(k) for k in sorted(unit)]
            label = " · ".join(w.label for w in words if w.label)
            description = "; ".join(w.description for w in words if w.description)
            entries.append(Entry("", label, description, str(after.index + 1),
                                 ",".join(sorted(unit)), on))
        return self._paged("options", entries, draft, chosen, complete=True)

    def _paged(self, name: str, entries: list[Entry], draft: Draft, chosen: Facets,
               complete: bool) -> Step:
        per = MAX_ENTRIES - 1 if len(entries) > MAX_ENTRIES else MAX_ENTRIES
        pages = max(1, -(-len(entries) // per))
        page = draft.page % pages
        shown = entries[page * per:(page + 1) * per]
        keyed = tuple(replace(e, key=str(i + 1)) for i, e in enumerate(shown))
        return Step(name, STEP_TITLES[name], keyed, str(chosen.index + 1),
                    self.label_of(chosen), complete, more=pages > 1)

    def _value_words(self, step: str, value: str, leads: Facets) -> tuple[str, str]:
        if step == "group":
            return GROUP_LABELS[value], ""
        if step == "kind":
            return leads.kind_label, ""
        if step == "target":
            return leads.target_name or "nobody", ""
        return value, ""

    def choose(self, draft: Draft, step: Step, key: str) -> Draft:
        """The draft after pressing ``key`` at ``step`` (a numbered entry, or ``+`` for the
        next page); ValueError names what is allowed."""
        if key == "+" and step.more:
            return replace(draft, page=draft.page + 1)
        entry = next((e for e in step.entries if e.key == key), None)
        if entry is None:
            keys = [e.key for e in step.entries] + (["+"] if step.more else [])
            raise ValueError(f"{key!r} is not on this list (allowed: {', '.join(keys)})")
        if step.name != "options":
            return draft.choose(step.name, entry.value)
        chosen = self.by_option(step.composed)
        after = self.by_option(entry.option or step.composed)
        return replace(draft, group=chosen.group, kind=chosen.kind, weapon=chosen.weapon,
                       target=chosen.target, toggles=after.toggles)

    def keys_for(self, index: int) -> list[str]:
        """The keys that compose the flat action ``index`` step by step, ending with the
        empty line that confirms it (for scripts and tests)."""
        goal = self.by_option(str(index + 1))
        draft = Draft()
        keys: list[str] = []
        for _ in range(4 * len(STEPS) + len(self.facets)):
            step = self.step(draft)
            if step.name == "options" and step.composed == str(index + 1):
                return [*keys, ""]
            if step.name != "options":
                want = goal.get(step.name)
                entry = next((e for e in step.entries if e.value == want), None)
            else:  # switch on an option the goal has, else off one it has not
                entry = next((e for e in step.entries if not e.on and e.option is not None
                              and goal.toggles >= set(e.value.split(","))), None) or next(
                    (e for e in step.entries if e.on), None)
            key = "+" if entry is None else entry.key  # not on this page: the next one
            keys.append(key)
            draft = self.choose(draft, step, key)
        raise ValueError(f"action {index + 1} cannot be composed")

    def to_dict(self) -> dict[str, Any]:
        return {"actor": self.actor, "actor_name": self.actor_name,
                "previous": self.previous,
                "facets": [{"option": str(f.index + 1), "group": f.group, "kind": f.kind,
                            "kind_label": f.kind_label, "weapon": f.weapon,
                            "target": f.target, "target_name": f.target_name,
                            "toggles": sorted(f.toggles)} for f in self.facets],
                "toggles": [{"key": t.key, "label": t.label, "description": t.description}
                            for t in self.toggles]}


def _unique(values: Any) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def _units(sets: Sequence[frozenset[str]]) -> list[frozenset[str]]:
    """The options a table switches on one at a time: each non-empty option set with no
    smaller non-empty one inside it (``controlled, effect=limb`` is one option)."""
    nonempty = _unique(s for s in sets if s)
    return [s for s in nonempty if not any(o < s for o in nonempty)]


def _with(current: frozenset[str], unit: frozenset[str], cands: Sequence[Facets]
          ) -> frozenset[str]:
    """The options after switching ``unit`` on: with as many of those on now as an action
    offers together with it (the rules' actions say which go together)."""
    best = max((f.toggles for f in cands if unit <= f.toggles),
               key=lambda t: (len(t & current), -len(t)), default=unit)
    return best


def page_of(options: Sequence[Option], page: int) -> tuple[tuple[Option, ...], bool]:
    """The options a flat list shows on ``page`` (at most :data:`MAX_ENTRIES` a page,
    the last place kept for "more"), and whether there are more pages."""
    if len(options) <= MAX_ENTRIES:
        return tuple(options), False
    per = MAX_ENTRIES - 1
    pages = -(-len(options) // per)
    start = (page % pages) * per
    return tuple(options[start:start + per]), True


# -- building a menu --------------------------------------------------------------------
def option_keys(action: Action) -> frozenset[str]:
    """The options an action sets away from their defaults, as ``field=value`` keys."""
    if action.options is None:
        return frozenset()
    changed = action.options.model_dump(exclude_defaults=True)
    return frozenset(f"{k}={_value(v)}" for k, v in changed.items())


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list):
        return ",".join(map(str, value))
    return str(value)


def _key_words(words: Words, key: str, action: Action) -> Toggle:
    field_name, _, _ = key.partition("=")
    value = action.options.model_dump().get(field_name) if action.options is not None else None
    word = words.option(field_name, value)
    if word is None:
        return Toggle(key, "")
    return Toggle(key, word.label, word.description)


def build_menu(actor: str, actions: Sequence[Action], roster: Roster, words: Words,
               label: Callable[[Action], str], previous: str | None = None) -> ActionMenu:
    """The menu of ``actions`` (the rules' flat list) for ``actor``."""
    facets, toggles = [], {}
    for i, action in enumerate(actions):
        word = words.action(action.kind)
        group: str = word.group
        if action.kind in GROUPS and action.kind not in words.actions:
            group = action.kind
        weapon = action.weapon or (words.unarmed if action.offensive and group in (
            "attack", "disarm") else "")
        keys = option_keys(action)
        for key in keys:
            if key not in toggles:
                toggles[key] = _key_words(words, key, action)
        target = action.target if action.target in roster else None
        facets.append(Facets(i, group, action.kind, word.label, weapon, target,
                             roster[target].name if target is not None else word.on_nobody,
                             keys, action.offensive))
    order = {g: n for n, g in enumerate(GROUPS)}
    ordered = sorted(facets, key=lambda f: order[f.group])  # stable: the rules' order inside
    return ActionMenu(actor, roster[actor].name, tuple(ordered), tuple(toggles.values()),
                      previous, tuple(label(a) for a in actions))
