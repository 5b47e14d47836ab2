"""The dice a person types, read as the rules' variables ask for them: how many values a
roll takes and what each may be, the values served to ``from_script``, the prompt that
asks for them and the error that says, in the table's words, why typed values do not fit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fracas.core.words import count
from fracas.dice.variables import RollOff, Variable
from fracas.encounter.decisions import Decision, DiceRequest
from fracas.encounter.narration import Names
from fracas.errors import InputError, ScriptError


def dice_count(var: Variable[Any]) -> int | None:
    """How many values a person enters for ``var`` (None: as many as the rules read)."""
    from fracas.dice.cards import DrawCard
    from fracas.dice.variables import Die, Faces, Group, Keep, Mapped, Pool, Sum

    if isinstance(var, Die | Faces | DrawCard):
        return 1
    if isinstance(var, Pool):
        inner = dice_count(var.die)
        return None if inner is None else var.count * inner
    if isinstance(var, Keep):
        return var.count
    if isinstance(var, Mapped):
        return dice_count(var.source)
    if isinstance(var, Sum | Group):
        parts = [p for _, p in var.parts] if isinstance(var, Sum) else list(var.parts)
        counts = [dice_count(p) for p in parts]
        return None if any(c is None for c in counts) else sum(c or 0 for c in counts)
    if isinstance(var, RollOff):  # each tied name rolls the die once in the first round
        each = dice_count(var.die)
        return None if each is None else len(var.names) * each
    for name in ("count", "ids", "names"):  # hands, everybody's initiative
        value = getattr(var, name, None)
        if isinstance(value, int):
            return value
        if isinstance(value, tuple):
            return len(value)
    return None if type(var).__name__ in ("UntilNumber", "CriticalRoll") else 1


class _Probe:
    """A script that gives one impossible value: the error it causes names what is allowed."""

    def take(self, die: str, stream: str = "dice") -> tuple[object, int]:
        return "?", 1


def dice_allowed(var: Variable[Any]) -> str:
    """What a value of ``var``'s first die may be: the cards left for a draw, else what
    the rules' own check says of an impossible value."""
    from fracas.dice.cards import Card

    pile = getattr(var, "pile", None)
    if pile is None:
        pile = getattr(getattr(var, "deck", None), "draw_pile", None)
    if isinstance(pile, tuple) and all(isinstance(c, Card) for c in pile):
        return ", ".join(c.label for c in pile) or "none: the draw pile is empty"
    try:
        var.from_script(_Probe())
    except ScriptError as err:
        return err.allowed or err.message
    except (InputError, ValueError, TypeError) as err:
        return str(err)
    return "any value"


class TypedValues:
    """The values a person entered for one roll, served in order to ``from_script``."""

    def __init__(self, values: Sequence[object]):
        self.values = list(values)
        self.used = 0

    def take(self, die: str, stream: str = "dice") -> tuple[object, int]:
        if self.used >= len(self.values):
            raise ScriptError(f"needs more than the {count(len(self.values), 'value')} given",
                              die=die, position=self.used + 1,
                              allowed=f"at least {count(self.used + 1, 'value')}")
        self.used += 1
        return self.values[self.used - 1], self.used


def scripted(var: Variable[Any], entry: Mapping[str, Any]) -> Any:
    """``var``'s value from the values a person entered (all of them used)."""
    values = TypedValues(list(entry.get("dice", [])))
    value = var.from_script(values)
    if values.used != len(values.values):
        extra = values.values[values.used:]
        raise ScriptError(f"{count(len(extra), 'value')} too many "
                          f"({', '.join(map(str, extra))})", die=var.label,
                          position=values.used + 1,
                          allowed=f"exactly {count(values.used, 'value')}")
    return value


def dice_prompt(request: DiceRequest) -> str:
    """``Rin's defence: 2d6, needs 6 or less`` — who rolls what for, the dice (with what
    the roller adds: ``d20 + 5 (sword 4, strength 1)``), the need."""
    die = request.die
    if request.typed == "symbols" and die.startswith("pool "):
        die = f"dice {die[5:]}"
    bonus = f" {request.bonus}" if request.bonus else ""
    needs = f", needs {request.needs}" if request.needs else ""
    return f"{request.what}: {die}{bonus}{needs}"


def dice_error(err: ScriptError, pending: Decision, names: Names, typed: int) -> InputError:
    """A typed roll that does not fit, told once in the table's words: the prompt names
    the die, then what is wrong (a one-value roll's value, a wrong count of values with
    how many the roll needs, a value one of its dice cannot show); ``typed``: how many
    values were typed."""
    said = err.message.split(": ", 1)[-1]  # a deck's owner by name, not id
    asked = pending.dice
    if asked is not None and asked.count in (1, None) and err.position == 1 and (
            names.label(err.die) == asked.die):
        # the prompt names the die and this is its one value: not named again
        said = said.replace(f"a value {err.die} can show", "a value it can show")
        return InputError(f"{pending.prompt}: {said}", path="dice", allowed=err.allowed)
    if asked is not None and asked.count and (
            "value" in said and ("given" in said or "too many" in said)):
        # a wrong count: say how many the roll needs, once
        need = count(asked.count, "value")
        if typed == asked.count and "given" in said:  # the count was right: a roll-off's
            # values left a tie, and it reads on
            return InputError(f"{pending.prompt}: the values typed leave a tie, and a "
                              f"roll-off goes on while tied: type {need} that break it",
                              path="dice", allowed=f"{need}, each {asked.allowed}, no tie")
        return InputError(f"{pending.prompt}: type {need}, not {typed}", path="dice",
                          allowed=need + (f", each {asked.allowed}" if asked.count > 1
                                          else f": {asked.allowed}"))
    if asked is not None and asked.count and asked.count > 1 and " can show" in said:
        # one of the values a die cannot show: the die is named by the prompt
        return InputError(f"{pending.prompt}: {names.label(said)}", path="dice",
                          allowed=err.allowed)
    shown = names.label(f"{err.die}: {said}")
    return InputError(f"{pending.prompt}: value {err.position} for {shown}", path="dice",
                      allowed=err.allowed)
