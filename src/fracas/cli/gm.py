"""The GM's commands of ``fracas play`` (each one line, after ``gm``): who decides, a
skipped turn, a free-form action, all initiative at once, damage, healing, conditions,
a combatant joining at a chosen place. Each is logged and taken back by ``u``."""

from __future__ import annotations

import json
import re
from typing import Any

from fracas.core.events import Event
from fracas.encounter import gm, order, who_rolls
from fracas.encounter.policies import DEFAULT_POLICY
from fracas.encounter.session import Session
from fracas.errors import InputError

HELP = """\
  gm auto [POLICY]       fracas decides this turn (default policy: aggressive)
  gm auto ID POLICY      fracas decides for ID from now on;  gm hand ID: by hand again
  gm skip                the acting combatant's turn passes
  gm do TEXT [| roll 2d6 [vs|under N] [= VALUE]] [| [on success|on failure|always]
        damage ID N | heal ID N | cond ID NAME [ROUNDS]] ...
                         a free-form action: the turn passes with it; = VALUE: the table's
                         roll (else fracas rolls); effects on success (default with a
                         target number), on failure, or always
  gm init [ID,ID]        roll every initiative die of the GM's side asked now (not the
                         players' own: a sheet marked player, nor those IDs')
  gm dice [ID] typed|fracas            who rolls the GM side's dice (or ID's) from now
                         on: typed at the table, or fracas (it rolls and says what)
  gm hurt ID N / gm heal ID N          damage or heal by hand (no soak, no armour)
  gm cond ID NAME [ROUNDS | until ID2] / gm uncond ID NAME   a condition: for ROUNDS
                         rounds (through ID's next ROUNDS turns), until the end of ID2's
                         next turn, or (neither) until taken off
  gm move ID before|after ID2          move ID's next turn this round before or after ID2's
                                       (kept from round to round where the rules keep places)
  gm hold [after ID2]    the acting combatant holds its turn: after the next combatant
                         still able to act (or after ID2)
  gm join next|now|end|N {JSON}        bring in a combatant: next round, after this turn,
                                       at the round's end, or at place N of the rest"""

PLACES = {"next": "next round", "now": "after this turn", "end": "end of round"}


def usage(what: str, more: str = "") -> str | None:
    """How ``gm WHAT`` is typed, read from :data:`HELP` and ``more`` (another help's
    lines): the command column of its lines (None: no such command)."""
    forms: list[str] = []
    for line in (HELP + "\n" + more).splitlines():
        indent = len(line) - len(line.lstrip())
        typed = re.split(r"\s{2,}", line.strip())[0]
        if 4 <= indent < 20 and not typed.startswith("gm ") and forms and forms[-1]:
            forms[-1] += " " + typed  # a command's form, carried over to this line
            continue
        found = [part.split(":")[0].strip()
                 for part in re.split(r"\s{2,}|\s/\s|;\s*", line.strip())
                 if part.strip().split()[:2] == ["gm", what]]
        forms.append(", ".join(found))
    return ", ".join(form for form in forms if form) or None


def commands(more: str = "") -> str:
    """Every GM command's word, in the order of the help: ``gm auto, gm hand, ...``."""
    words = re.findall(r"(?:^\s*|[;/]\s*)(gm [a-z]+)", HELP + "\n" + more,
                       flags=re.MULTILINE)
    return ", ".join(dict.fromkeys(words))


def _number(text: str, what: str) -> int:
    if not text.isdigit():
        raise InputError(f"{text!r} is not a whole number", path=what, allowed="0, 1, 2, ...")
    return int(text)


def split_who(session: Session, words: list[str], least_left: int = 0
              ) -> tuple[str, list[str]]:
    """The combatant the first words name (its id or its name, which may be several words:
    ``Captain Vos``) and the words after it; at least ``least_left`` words must follow."""
    for k in range(len(words) - least_left, 0, -1):
        cid = gm.find_combatant(session, " ".join(words[:k]))
        if cid is not None:
            return cid, words[k:]
    return gm.combatant_named(session, words[0] if words else ""), words[1:]


MOMENTS = {"on success": "success", "on failure": "failure", "always": "always"}


def _effect(session: Session, part: str) -> tuple[str, dict[str, Any]]:
    """One ``|`` part of ``gm do``: ``roll ...`` (``= N``: what the table's dice show) or
    an effect, marked ``on success``, ``on failure`` or ``always``."""
    words = part.split()
    when = next((m for m in MOMENTS if " ".join(words[:len(m.split())]).lower() == m), None)
    if when is not None:
        kind, effect = _effect(session, " ".join(words[len(when.split()):]))
        if kind == "roll":
            raise InputError("a roll is not an effect", path="gm do",
                             allowed="on success damage ID N, on failure cond ID NAME")
        return kind, {**effect, "when": MOMENTS[when]}
    head = words[0].lower() if words else ""
    value: int | None = None
    if head == "roll" and len(words) in (4, 6) and words[-2] == "=":
        value = _number(words[-1], "value")
        words = words[:-2]
    if head == "roll" and len(words) in (2, 4):
        roll: dict[str, Any] = {"roll": words[1], "value": value}
        if len(words) == 4:
            if words[2] not in ("vs", "under"):
                raise InputError(f"{words[2]!r}: say vs (at least) or under (at most)",
                                 path="gm do", allowed="roll 2d6 vs 8, roll 2d6 under 8")
            roll["target"] = _number(words[3], "target")
            roll["needs"] = "at least" if words[2] == "vs" else "at most"
        return "roll", roll
    if head in ("damage", "heal") and len(words) >= 3:
        cid, rest = split_who(session, words[1:-1])
        if not rest:
            return "effect", {head: _number(words[-1], head), "to": cid}
    if head == "cond" and len(words) >= 3:
        cid, rest = split_who(session, words[1:], 1)
        return "effect", _condition(session, cid, rest)
    raise InputError(f"not a roll or an effect: {part.strip()!r}", path="gm do",
                     allowed="roll 2d6 [vs|under N] [= VALUE], [on success|on failure|"
                             "always] damage ID N, heal ID N, cond ID NAME [ROUNDS]")


def _condition(session: Session, cid: str, words: list[str]) -> dict[str, Any]:
    """``NAME [ROUNDS | until ID]`` after ``cond ID``: the condition, for ROUNDS rounds
    (none: until taken off), or until the end of ID's next turn."""
    lower = [w.lower() for w in words]
    if "until" in lower[1:]:
        at = len(lower) - 1 - lower[::-1].index("until")
        until = split_who(session, words[at + 1:])[0] if words[at + 1:] else ""
        return {"condition": " ".join(words[:at]), "to": cid, "rounds": 1,
                "until": until or gm.combatant_named(session, "")}
    timed = len(words) >= 2 and words[-1].isdigit()
    name = " ".join(words[:-1] if timed else words)
    return {"condition": name, "to": cid, "rounds": int(words[-1]) if timed else 0}


def command(session: Session, words: list[str], line: str) -> tuple[Event, ...] | None:
    """Carry out a GM command of this module (None: not one of them)."""
    what = words[0].lower() if words else ""
    rest = words[1:]
    if what == "auto" and len(rest) <= 1:
        policy = rest[0] if rest else DEFAULT_POLICY
        return session.decide({"policy": policy})
    if what == "auto" and len(rest) >= 2:
        cid, left = split_who(session, rest[:-1])
        if not left:
            return (gm.set_controller(session, cid, rest[-1]),)
    if what == "hand" and rest:
        cid, left = split_who(session, rest)
        if not left:
            return (gm.set_controller(session, cid, "person"),)
    if what == "skip" and not rest:
        return session.decide({"skip": True})
    if what == "dice":
        return _dice(session, rest)
    if what == "init":
        players = [gm.combatant_named(session, p.strip())
                   for p in " ".join(rest).split(",") if p.strip()]
        return gm.roll_initiative(session, players)
    if what in ("hurt", "heal") and len(rest) >= 2:
        cid, left = split_who(session, rest[:-1])
        if not left:
            amount = _number(rest[-1], what)
            act = gm.damage if what == "hurt" else gm.heal
            return (act(session, cid, amount),)
    if what == "cond" and len(rest) >= 2:
        cid, left = split_who(session, rest, 1)
        condition = _condition(session, cid, left)
        return gm.put_condition(session, cid, condition["condition"], condition["rounds"],
                                condition.get("until"))
    if what == "uncond" and len(rest) >= 2:
        cid, left = split_who(session, rest, 1)
        return (gm.clear_condition(session, cid, " ".join(left)),)
    if what == "do" and rest:
        return _free_action(session, line)
    if what in ("move", "hold", "delay"):
        return _order(session, what, rest)
    if what == "join" and len(rest) >= 2:
        where = rest[0].lower()
        place: str | int = int(where) if where.isdigit() else PLACES.get(where, where)
        if place not in PLACES.values() and not isinstance(place, int):
            raise InputError(f"unknown place {where!r}", path="gm join",
                             allowed="next, now, end or a number")
        text = re.split(r"\s+", line.split("join", 1)[1].strip(), maxsplit=1)[1]
        try:
            entry = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"not JSON: {err.msg}", path="gm join",
                             allowed='a scenario entry: {"id": ..., "side": ...}') from None
        if not isinstance(entry, dict):
            raise InputError("a combatant is a mapping", path="gm join",
                             allowed='{"id": ..., "side": ..., ...}')
        return gm.bring_in(session, entry, place)
    return None


def _free_action(session: Session, line: str) -> tuple[Event, ...]:
    """``gm do TEXT | roll ... | effect ...``: a free-form action with its roll and effects."""
    text = line.split("do", 1)[1]
    description, *parts = text.split("|")
    roll: dict[str, Any] = {}
    effects, typed = [], []
    for part in parts:
        kind, value = _effect(session, part)
        if kind == "roll":
            roll = value
        else:
            effects.append(value)
            typed.append(part.strip())
    try:
        return gm.free_action(session, description.strip(), effects=effects, **roll)
    except InputError as err:  # an effect's place as the table typed it, not its field
        where = re.fullmatch(r"effects\[(\d+)\](\..*)?", err.path or "")
        if where is None:
            raise
        raise InputError(f"'{typed[int(where.group(1))]}': {err.message}", path="gm do",
                         allowed=err.allowed) from None


def _order(session: Session, what: str, rest: list[str]) -> tuple[Event, ...] | None:
    """``gm move ID before|after ID2``, ``gm hold [after ID2]`` (``gm delay`` alike)."""
    if what == "move" and len(rest) >= 3:
        at = next((k for k in range(len(rest) - 1, 0, -1)
                   if rest[k].lower() in ("before", "after")), None)
        if at is None:
            raise InputError("say before or after", path="gm move",
                             allowed="gm move ID before ID2, gm move ID after ID2")
        cid, left = split_who(session, rest[:at])
        other, more = split_who(session, rest[at + 1:])
        if not left and not more:
            return order.move(session, cid, rest[at].lower(), other)
    if what in ("hold", "delay"):
        if not rest:
            return order.hold(session)
        if rest[0].lower() == "after" and len(rest) >= 2:
            other, more = split_who(session, rest[1:])
            if not more:
                return order.hold(session, other)
    return None


def _dice(session: Session, rest: list[str]) -> tuple[Event, ...]:
    """``gm dice [ID] typed|fracas``: who rolls whose dice from now on (the refusal of
    ``gm dice`` alone says whose dice are typed now)."""
    if not rest:
        raise InputError(f"say who rolls (typed at the table now: "
                         f"{who_rolls.typed_text(session)})", path="gm dice",
                         allowed="gm dice typed, gm dice fracas, gm dice ID typed, "
                         "gm dice ID fracas")
    cid = split_who(session, rest[:-1])[0] if rest[:-1] else None
    if cid is not None and len(split_who(session, rest[:-1])[1]) > 0:
        raise InputError(f"not a combatant: {' '.join(rest[:-1])!r}", path="gm dice",
                         allowed=gm.known(session))
    return (session.record(who_rolls.dice_set(session, cid, rest[-1])),)
