"""The words a table reads, from a system's data pack (``data/words.yaml``).

Every action kind, option, reaction, outcome, state value and condition a person meets
has a label and a one-line description there, so menus, prompts and narration never
show a code identifier. The file is validated by :class:`Words` (errors name the file,
the entry and the field).

Options are keyed ``field`` (a yes/no option set, or any value shown with ``{value}``)
or ``field=value`` (one value of a choice), e.g.::

    options:
      vital_target: {label: "Called shot: vital spot", description: "−8 to hit, ..."}
      trick_shot: {label: "Trick shot (−{value})", description: "..."}
      move=half_before: {label: "Half move first", description: "..."}

A noun after a value says both its forms as ``[one|many]``, and the one that agrees with
the value just before it is shown: ``"{value} [boon|boons] to the attacker"`` reads
``1 boon to the attacker``, ``2 boons to the attacker``; ``"{0} more [round|rounds]"``
reads ``1 more round``. Such a pair before any value is refused as the words load.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

GROUPS = ("attack", "grapple", "disarm", "defend", "move", "other")
GROUP_LABELS = {"attack": "Attack", "grapple": "Grapple", "disarm": "Disarm",
                "defend": "Defend", "move": "Move", "other": "Something else"}


#: A value to put in (``{value}``, ``{0}``) or a noun's two forms (``[round|rounds]``).
_PIECE = re.compile(r"\{(?P<name>\w+)\}|\[(?P<one>[^\[\]|{}]*)\|(?P<many>[^\[\]|{}]*)\]")
_ONE = re.compile(r"[+\-−]?1")


class Word(BaseModel):
    """A label (a few words) and a one-line description."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    label: str = Field(min_length=1)
    description: str = ""
    #: For a condition kept with values after its name (``disoriented:1``, ``burning:2:3``):
    #: what they say, the first as ``{0}`` (``"{0} more [round|rounds]"``).
    values: str = ""
    #: For a state value: the words of each of its values a table would not read as they
    #: are (Zamani's focus ``ready``: ``ready, to declare when used``; an empty value is
    #: ``none`` unless given here under ``""``).
    shown: dict[str, str] = {}

    @field_validator("label", "description", "values")
    @classmethod
    def _forms_follow_a_value(cls, text: str) -> str:
        for found in _PIECE.finditer(text):
            if found.group("one") is None:
                break  # a value first: every pair after it has one to agree with
            raise ValueError(f"[{found.group('one')}|{found.group('many')}] comes before any "
                             "value: a word's two forms follow the value they agree with, "
                             "e.g. \"{value} [boon|boons]\"")
        return text


class ActionWord(Word):
    """An action kind: its label, its description, and the group a table names it by."""

    group: Literal["attack", "grapple", "disarm", "defend", "move", "other"] = "other"
    #: The action's label when taken with none of its options (a sacrifice of no ranks:
    #: ``Sacrifice nothing``); empty: the label.
    without_options: str = ""
    #: The entry at the "at whom" step for this action on nobody else (Zamani's guard:
    #: ``Guard yourself``); empty: ``nobody``.
    on_nobody: str = ""
    #: A choice before a round's initiative that everybody may decline: the words of the
    #: one key that declines it for everybody left (Zamani: ``Nobody sacrifices``).
    declined_by_all: str = ""
    #: How the weapon follows the label, ``{weapon}`` put in (contest's pick-up: ``the
    #: {weapon}``, ``Pick up the club``); empty: ``with {weapon}``.
    weapon_words: str = ""


class Glance(BaseModel):
    """One value a GM glances for beside a combatant's health in the status (``s``): the
    state ``field``, said by ``label`` with ``{value}`` (and ``{most}``, the value of the
    field ``most``) put in. It is shown only where it says something: a value that is not
    empty, zero or no (with ``most``: where that most is over 0, an armour of 0 HP of 0
    being no armour). ``count`` shows a list by how many it holds; ``values`` gives the
    whole words for a value of its own (``self: "on guard"``), or of a list's item."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    field: str = Field(min_length=1)
    label: str = Field(min_length=1)
    most: str = ""
    count: bool = False
    values: dict[str, str] = {}
    #: The value is a combatant's id, shown by its name (Zamani's guard over an ally).
    combatant: bool = False

    def said(self, state: Mapping[str, Any], names: Mapping[str, str] | None = None
             ) -> str | None:
        """The words for this value of ``state`` (None: nothing worth a glance); a
        combatant's id by its name in ``names``."""
        value, most = state.get(self.field), state.get(self.most) if self.most else None
        if self.most:
            if not isinstance(most, int) or most <= 0:
                return None
        elif not value:
            return None
        if isinstance(value, str) and value in self.values:
            return self.values[value]
        if self.combatant and isinstance(value, str):
            value = (names or {}).get(value, value)
        if self.count and isinstance(value, list | tuple):
            value = len(value)
        elif isinstance(value, list | tuple):
            value = ", ".join(self.values.get(str(v), str(v)) for v in value)
        return fill(self.label, value=value, most=most)


class Words(BaseModel):
    """The data pack's ``words.yaml``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    unarmed: str = "bare hands"
    #: The attack as declared when the defender reacts with nothing (Tri-Stat's defender
    #: still rolls its defence: ``Defend without willpower``).
    no_reaction: str = "No reaction"
    #: What the chance to hit in a menu's odds counts (``hit 52%``): c22's ``full hit``,
    #: where a graze is no hit though it deals half and may take the target out.
    odds_hit: str = "hit"
    #: The key that lets a turn with one thing to do go by (a Zamani segment where only a
    #: half move is left): the turn passes, as the GM's ``gm skip``.
    pass_turn: str = "pass (do nothing this turn)"
    actions: dict[str, ActionWord] = {}
    options: dict[str, Word] = {}
    outcomes: dict[str, Word] = {}
    fields: dict[str, Word] = {}
    conditions: dict[str, Word] = {}
    rolls: dict[str, Word] = {}
    #: What the system's GM glances for beside each combatant's health in the status, in
    #: order (Zamani's guard, focus and sacrifice; contest's armour HP; c22's cards left).
    glance: list[Glance] = []
    #: The rules whose lines the brief narration tells besides every roll and outcome, as
    #: a table hears them (the contest's: who won each roll and the running count, the
    #: contest's end); a change of state keeps its own place (told beside its outcome).
    brief_rules: list[str] = []

    # -- reading ------------------------------------------------------------------------
    def action(self, kind: str) -> ActionWord:
        found = self.actions.get(kind)
        if found is not None:
            return found
        group = kind if kind in GROUPS else "other"
        return ActionWord(label=kind.capitalize(), group=group)

    def option(self, field: str, value: Any) -> Word | None:
        """The words of one option set to ``value`` (None: the option says nothing, e.g. a
        value only read together with another)."""
        key = f"{field}={_text(value)}"
        word = self.options.get(key)
        if word is None:
            word = self.options.get(field)
            if word is not None:
                word = Word(label=fill(word.label, value=value),
                            description=fill(word.description, value=value))
        if word is None:  # not in the data pack: shown as it is (a test finds it)
            return Word(label=field if value is True else f"{field}={_text(value)}")
        return None if word.label == "-" else word

    def options_text(self, changed: Mapping[str, Any]) -> list[str]:
        """The labels of options changed from their defaults (``path`` and the like that
        say nothing to a table are labelled ``-`` in the data pack and left out)."""
        out = []
        for field, value in changed.items():
            if isinstance(value, Mapping):  # a nested option: field.part=value
                out += self.options_text({f"{field}.{k}": v for k, v in value.items()})
                continue
            word = self.option(field, value)
            if word is not None:
                out.append(word.label)
        return out

    def outcome(self, name: str) -> str:
        word = self.outcomes.get(name)
        return word.label if word is not None else name

    def field(self, name: str) -> str:
        word = self.fields.get(name)
        return word.label if word is not None else name

    def glanced(self, state: Mapping[str, Any], names: Mapping[str, str] | None = None
                ) -> list[str]:
        """The :attr:`glance` values of a combatant's state worth showing, in their words
        (combatants by their ``names``)."""
        return [said for g in self.glance if (said := g.said(state, names)) is not None]

    def condition(self, name: str) -> str:
        """A condition's label; one kept with values after its name (``disoriented:1``)
        as its label and what they say (``disoriented (1 more round)``)."""
        word = self.conditions.get(name)
        if word is not None:
            return word.label
        head, sep, rest = name.partition(":")
        if not sep:
            return name
        values = rest.split(":")
        word = self.conditions.get(head)
        if word is None:
            return f"{plain(head)} ({', '.join(values)})"
        if word.values:
            try:
                return f"{word.label} ({fill(word.values, values)})"
            except (IndexError, KeyError, ValueError):
                pass  # fewer values than the words name: shown as they are
        return f"{word.label} ({', '.join(values)})"


def _text(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, tuple | list):
        return ", ".join(map(str, value))
    return str(value)


def fill(text: str, values: tuple[Any, ...] | list[Any] = (), **named: Any) -> str:
    """A data-pack text with its values put in: ``{0}``, ``{1}``... the ``values`` in order,
    ``{value}`` (any name) the ``named`` one; a noun's forms ``[one|many]`` as the value just
    before them needs (``one`` after 1, else ``many``). A name not given is left as it is;
    a position past the values given raises IndexError."""
    last: str | None = None

    def put(found: re.Match[str]) -> str:
        nonlocal last
        name = found.group("name")
        if name is None:
            one = last is not None and _ONE.fullmatch(last.strip()) is not None
            return found.group("one") if one else found.group("many")
        if name.isdigit():
            last = _text(values[int(name)])
        elif name in named:
            last = _text(named[name])
        else:
            return found.group(0)
        return last

    return _PIECE.sub(put, text)


_SNAKE = re.compile(r"\b([A-Za-z]+)_([A-Za-z_]+)\b")


def count(n: int, one: str, many: str = "") -> str:
    """``1 square``, ``2 squares``: a number and its noun (``many``: the plural, if not
    ``one`` + s)."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def plain(text: str) -> str:
    """``half_before`` → ``half before``: the last resort for a name with no label."""
    return _SNAKE.sub(lambda m: m.group(0).replace("_", " "), str(text))


def load_words(path: Path, data: Any) -> Words:
    """The words of a data pack (an empty set when the file is absent)."""
    if data is None:
        return Words()
    try:
        return Words.model_validate(data)
    except ValidationError as err:
        from fracas.core.scenario import validation_error

        raise validation_error(err, file=str(path), prefix=None, model=Words) from None
