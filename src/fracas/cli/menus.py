"""The pending decision drawn in a terminal, and the keys that answer it.

An action is composed step by step from the session's :class:`ActionMenu` (what, with
what, at whom, then options switched on and off), each step a short numbered list with
the exact odds of each entry, the action composed so far always shown with its odds;
``a`` takes the usual attack, Enter goes with the action shown, ``b`` steps back. A
reaction or a rule's own choice is a numbered list; dice are typed as the table shows
them (see :func:`dice_words`). Commands (``u``, ``s``, ``q``...) work everywhere, and
with a ``/`` in front (``/u``) even where the same key is a die's symbol.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Console
from rich.text import Text

from fracas.core.events import Event
from fracas.encounter.decisions import Decision, Draft, Option, Step, page_of
from fracas.encounter.session import Session
from fracas.errors import InputError


def esc(text: str) -> str:
    return text.replace("[", r"\[")


def _odds(session: Session, option: str | None) -> str:
    p = session.pending
    if p is None or option is None:
        return ""
    found = next((o for o in p.options if o.id == option), None)
    return "" if found is None or found.odds is None else found.odds.short()


@dataclass
class Composer:
    """The terminal's draft of the pending action (reset when the decision changes)."""

    decision: Decision | None = None
    draft: Draft = field(default_factory=Draft)
    page: int = 0  # the page shown of a long reaction or choice

    def current(self, session: Session) -> tuple[Decision | None, Draft]:
        if session.pending is not self.decision:
            self.decision, self.draft, self.page = session.pending, Draft(), 0
        return self.decision, self.draft

    def step(self, session: Session) -> Step | None:
        pending, draft = self.current(session)
        if pending is None or pending.menu is None:
            return None
        return pending.menu.step(draft)

    def key(self, session: Session, line: str) -> str | None:
        """Carry out a key of the action menu: the option id to answer with when the
        action is composed, else None (the draft moved on). InputError for a key that is
        not on the list."""
        pending, draft = self.current(session)
        assert pending is not None and pending.menu is not None
        menu = pending.menu
        step = menu.step(draft)
        text = line.strip().lower()
        if text in ("", "go", "0"):
            return step.composed
        if text == "a":
            usual = menu.usual()
            if usual is None:
                raise InputError("there is no attack to take", path="input",
                                 allowed=_allowed(step))
            return usual.option
        if text == "b":
            self.draft = draft.back()
            return None
        try:
            self.draft = menu.choose(draft, step, text)
        except ValueError:
            raise InputError(f"{line.strip()!r} is not on this list", path="input",
                             allowed=_allowed(step)) from None
        after = menu.step(self.draft)
        if after.name == "options" and not after.entries:
            return after.composed  # nothing left to choose: go
        return None


def _allowed(step: Step) -> str:
    keys = [e.key for e in step.entries] + (["+ (more)"] if step.more else [])
    return ", ".join([*keys, "a (usual attack)", "b (back)", "Enter (go)"])


def show_menu(console: Console, session: Session, composer: Composer) -> None:
    """The action's step: the action composed so far with its odds, then the entries."""
    p = session.pending
    step = composer.step(session)
    assert p is not None and step is not None
    odds = _odds(session, step.composed)
    console.print(Text.from_markup(
        f"  [bold]→ {esc(step.composed_label)}[/]" + (f"  [dim]{odds}[/]" if odds else "")),
        highlight=False)
    if step.name == "options":
        console.print("  [dim]options (a number switches it on or off):[/]")
    else:
        console.print(f"  [dim]{step.title}:[/]")
    for entry in step.entries:
        mark = "" if entry.on is None else (r"\[x] " if entry.on else r"\[ ] ")
        odds = "" if entry.on else _odds(session, entry.option)  # on: the odds shown above
        line = f"  {entry.key:>2}. {mark}{esc(entry.label)}"
        if entry.description:
            line += f" [dim]— {esc(entry.description)}[/]"
        if odds:
            line += f"  [dim]{odds}[/]"
        console.print(Text.from_markup(line), highlight=False)
    keys = ["Enter: go"]
    declined = declined_by_all(session) if not composer.draft.taken else None
    if declined is not None:
        keys.append(f"n: {esc(declined)}")
    if may_pass(session):
        keys.append(f"p: {esc(session.system.words.pass_turn)}")
    usual = p.menu.usual() if p.menu is not None else None
    if usual is not None and not composer.draft.taken:
        keys.append(f"a: {esc(usual.label)}")
    if composer.draft.taken or composer.draft.toggles:
        keys.append("b: back")
    if step.more:
        keys.append("+: more")
    console.print(f"  [dim]{' · '.join(keys)}[/]", highlight=False)


def declined_by_all(session: Session) -> str | None:
    """The words of the key ``n`` at a choice before the round's initiative that may be
    declined (Zamani's sacrifice: ``Nobody sacrifices``), None elsewhere."""
    from fracas.encounter.gm import at_round_start

    p = session.pending
    if p is None or p.menu is None or not at_round_start(session):
        return None
    shown = p.menu.by_option(p.menu.step(Draft()).composed)
    if shown.toggles:
        return None
    return session.system.words.action(shown.kind).declined_by_all or None


def may_pass(session: Session) -> bool:
    """Whether ``p`` lets the turn go by: an action decision with one thing to do (a
    turn with more has them listed; ``gm skip`` passes any turn)."""
    from fracas.encounter.gm import at_round_start

    p = session.pending
    return p is not None and p.kind == "action" and len(p.options) == 1 and (
        not at_round_start(session))  # a choice before initiative is no turn


def decline_all(session: Session) -> tuple[Event, ...]:
    """``n``: every choice left before this round's initiative declined (each its own
    input, as Enter at each would be), up to the first that cannot be."""
    done: list[Event] = []
    while (p := session.pending) is not None and p.menu is not None and (
            declined_by_all(session) is not None):
        done += session.decide({"option": p.menu.step(Draft()).composed})
    return tuple(done)


def show_options(console: Console, options: tuple[Option, ...], page: int = 0) -> None:
    """A reaction's or a choice's options, numbered (a long list a page at a time: ``+``
    shows the next; any option's number is taken on any page)."""
    shown, more = page_of(options, page)
    for option in shown:
        odds = f"  [dim]{option.odds.short()}[/]" if option.odds is not None else ""
        console.print(f"  {option.id:>2}. {esc(option.label)}{odds}", highlight=False)
    if more:
        console.print("  [dim]+: more[/]", highlight=False)


def answer_hint(options: tuple[Option, ...]) -> str:
    """What to type at a reaction or a choice, said when Enter is pressed with nothing
    typed (the list is on the screen already)."""
    ids = [o.id for o in options]
    numbers = " or ".join(ids) if len(ids) <= 2 else f"{ids[0]} to {ids[-1]}"
    more = ", or + for more of the list" if page_of(options, 0)[1] else ""
    return f"type the number of an answer ({numbers}){more}, then Enter"


def dice_words(line: str, typed: str) -> list[str]:
    """What a table typed for a roll, as the values the session takes: symbols are one
    value for the whole pool (``ss a t``, ``2s 1a``, ``s,a``, ``sat``, blank for none);
    numbers and cards are separated by commas or spaces (``3,5``, ``4H 2S``)."""
    if typed == "symbols":
        return [line.strip() or "-"]
    return line.replace(",", " ").split()
