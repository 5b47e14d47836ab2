"""Dice a person reads off the table, for the tests: values a request allows, typed in."""

from __future__ import annotations

import random
import re
from typing import Any

from fracas.encounter.live import Decision
from fracas.systems.genesys.dice import DIE_ORDER, PoolSpec, die_faces


def hand_values(pending: Decision, rng: random.Random) -> list[Any]:
    """Values for a dice request as a player would read them: numbers in the allowed
    range, cards left in the pile, or the symbols each Genesys die shows."""
    request = pending.dice
    assert request is not None, pending
    numbers = re.fullmatch(r"(-?\d+) to (-?\d+)( \(00 is 100\))?", request.allowed)
    if numbers:
        low, high = int(numbers[1]), int(numbers[2])
        each = re.fullmatch(r"(\d*)d\d+ each", request.die)
        if each:  # a roll-off goes on while tied: type untied dice
            per = int(each[1] or 1)  # Tri-Stat: 2d6 each
            while True:
                values = [rng.randint(low, high) for _ in range(request.count or 1)]
                sums = [sum(values[i:i + per]) for i in range(0, len(values), per)]
                if len(set(sums)) == len(sums):
                    return values
        values = [rng.randint(low, high) for _ in range(request.count or 1)]
        # percentile dice show 100 as 00, and the table types what they show
        return ["00" if v == 100 and numbers[3] else v for v in values]
    if request.die.startswith("pool "):
        spec, faces = PoolSpec.parse(request.die[5:]), die_faces()
        shown = [rng.choice(faces[kind].faces) for kind in DIE_ORDER
                 for _ in range(getattr(spec, kind))]
        return [" ".join(f for f in shown if f) or "-"]
    cards = [c.strip() for c in request.allowed.split(",")]
    if request.count:
        return rng.sample(cards, request.count)
    shown: list[Any] = []  # cards until a number card: the jokers turned over, then it
    while not shown or shown[-1] in ("RJ", "BJ"):
        shown.append(rng.choice([c for c in cards if c not in shown]))
    return shown
