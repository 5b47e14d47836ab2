"""An answer to a pending decision as the session's log keeps it: an option chosen, the
dice typed or a roll drawn, a skipped turn, a policy deciding (the checks of
:meth:`fracas.encounter.session.Session.decide`, before the turn is played with it)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fracas.encounter.decisions import Decision
from fracas.encounter.policies import POLICIES
from fracas.errors import InputError


def answer_entry(pending: Decision, answer: Mapping[str, Any], by: str,
                 draw: Callable[[], int]) -> dict[str, Any]:
    """The log entry of an answer to ``pending`` (see :meth:`Session.decide`), or an
    :class:`InputError` saying what fits; ``draw`` numbers a new roll."""
    policy = answer.get("policy")
    if policy is not None and str(policy) not in POLICIES:
        raise InputError(f"unknown policy {policy!r}", path="policy",
                         allowed=", ".join(POLICIES))
    if answer.get("skip"):
        if pending.kind != "action":
            raise InputError(f"only a turn can be skipped, not: {pending.prompt}",
                             path="skip", allowed="skip at an action decision")
        return {"kind": "answer", "decision": "action", "skip": True, "by": by}
    if policy is not None and pending.kind != "dice":
        return {"kind": "answer", "decision": pending.kind, "policy": str(policy),
                "by": by}
    if pending.kind == "dice":
        part = {"part": pending.dice.part} if pending.dice and pending.dice.part else {}
        if answer.get("roll") or policy is not None:
            if pending.dice is not None and pending.dice.shared is not None:
                # a part of a roll another part of which was rolled: the same draw
                return {"kind": "dice", **part, "rolled": pending.dice.shared, "by": by}
            return {"kind": "dice", **part, "rolled": draw(), "by": by}
        values = answer.get("dice")
        symbols = pending.dice is not None and pending.dice.typed == "symbols"
        if symbols and (isinstance(values, str) or (
                isinstance(values, list | tuple) and len(values) != 1)):
            # the symbols of the whole pool are one value: "ss a t", "2s 1a", "" (none)
            text = values if isinstance(values, str) else " ".join(map(str, values))
            values = [text.strip() or "-"]
        if isinstance(values, str):
            values = [v.strip() for v in values.replace(" ", ",").split(",") if v.strip()]
        if not isinstance(values, list | tuple) or not values:
            shown = pending.dice.allowed if pending.dice else "the die's values"
            raise InputError(f"{pending.prompt}: give the dice", path="dice",
                             allowed=f"a list of values ({shown}), or roll: true")
        return {"kind": "dice", **part, "dice": [typed_number(v) for v in values], "by": by}
    option = answer.get("option")
    ids = [o.id for o in pending.options]
    if option is None:  # no option given: dice or a roll sent to a choice, or nothing
        given = next((key for key in ("roll", "dice") if key in answer), None)
        raise InputError(f"{pending.prompt} is a choice, not a roll" if given else
                         f"{pending.prompt}: choose one of its options",
                         path=given or "option", allowed="option: " + ", ".join(ids))
    if str(option) not in ids:
        raise InputError(f"{option!r} is not an option of: {pending.prompt}",
                         path="option", allowed=", ".join(ids))
    return {"kind": "answer", "decision": pending.kind, "option": str(option), "by": by}


def typed_number(value: Any) -> Any:
    """A value typed for a die: a whole number as a number; ``00`` stays as typed (a d100's
    100 as percentile dice show it, refused on any other die: the die reads it)."""
    if isinstance(value, str) and value.strip() == "00":
        return "00"
    digits = value.strip().removeprefix("-") if isinstance(value, str) else ""
    if digits.isascii() and digits.isdigit() and len(digits) <= 30:  # "--5", 5,000 digits: text
        return int(value)
    return value


def kind_of(value: Any) -> str:
    return {list: "a list", str: "text", dict: "a mapping", type(None): "nothing"}.get(
        type(value), f"a {type(value).__name__}")


def parts_typed(pending: Decision, values: list[Any], by: str, draw: Callable[[], int]
                ) -> list[dict[str, Any]] | None:
    """The log entries of a part of a roll of several people's dice typed together with
    the parts asked after it (both dice of a contest's roll on one line: ``12 8``), where
    ``by`` may answer those too (the GM, or the owner of each): one entry a part, each
    read back for its owner. None when the values are for the pending part alone (its own
    count, or no later part is ``by``'s); a count that fits no number of parts is an
    :class:`InputError` saying which do."""
    asked = pending.dice
    assert asked is not None
    if asked.count is None or len(values) <= asked.count:
        return None
    parts = [asked]
    for later in asked.then:
        if (by != "gm" and by != later.who) or later.count is None:
            break
        parts.append(later)
    if len(parts) == 1:  # none of the rest is the answerer's: this part's dice alone
        return None
    sizes = [r.count or 0 for r in parts]
    wanted = [sum(sizes[:i]) for i in range(1, len(parts) + 1)]
    if len(values) not in wanted:
        whose = [r.what.partition("'s ")[0] + "'s" for r in parts]
        ways = " or ".join(f"{n} ({', then '.join(whose[:i + 1])})"
                           for i, n in enumerate(wanted))
        raise InputError(f"{pending.prompt}: type {ways}, not {len(values)}", path="dice",
                         allowed=f"{' or '.join(map(str, wanted))} values, each "
                         f"{asked.allowed}")
    at, entries = 0, []
    for request in parts[:wanted.index(len(values)) + 1]:
        typed = values[at:at + (request.count or 0)]
        at += len(typed)
        entry = answer_entry(Decision("dice", request.who, pending.prompt, dice=request),
                             {"dice": typed}, by, draw)
        entry["owner"] = request.asked_of()
        entries.append(entry)
    return entries
