"""The choices an actor has on its turn, for the encounter layer's policies.

Every weapon against every active enemy in reach, with each maneuver (the split chosen
by the default policy); an enemy out of reach is approached along the shortest legal
path (the turn's movement action, or Dash's two). With nobody to attack: a Dash toward
the nearest enemy. Always last: an Evasive turn in place (defensive).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fracas.core.model import Action, Roster
from fracas.systems.c22.grid import Pos, find_path, reachable
from fracas.systems.c22.moves import occupied_by_others
from fracas.systems.c22.sheet import Options

if TYPE_CHECKING:
    from fracas.systems.c22.rules import C22

MOVERS = ("dash",)


def _reach(system: C22, start: Pos, target: Pos, reach: int, maneuver: str, occupied: set[Pos]
           ) -> tuple[Pos, ...] | None:
    conf = system.conf
    m = conf.maneuver(maneuver)
    allowance = conf.allowance(None if m is None else m.base)
    return find_path(conf.grid, start, lambda p: conf.grid.distance(p, target) <= reach,
                     allowance, occupied)


def attack_choices(system: C22, actor: str, roster: Roster) -> list[Action]:
    me = roster[actor]
    maneuvers = [k for k in system.defaults.maneuvers if k not in MOVERS]
    out: list[Action] = []
    occupied = occupied_by_others(roster, actor)
    for enemy in roster.enemies_of(actor):
        if not system.is_active(enemy):
            continue
        for weapon in me.sheet.weapons:
            here, there = me.state.position, enemy.state.position
            plays: list[tuple[str, tuple[Pos, ...]]] = []
            if here is None or there is None:
                plays = [(m, ()) for m in ("none", *maneuvers)]
            else:
                walk = _reach(system, here, there, weapon.range, "none", occupied)
                if walk is not None:
                    plays = [(m, walk) for m in ("none", *maneuvers)]
                else:
                    for mover in MOVERS:
                        if mover in system.defaults.maneuvers:
                            dash = _reach(system, here, there, weapon.range, mover, occupied)
                            if dash is not None:
                                plays.append((mover, dash))
            for maneuver, path in plays:
                out.append(Action(actor, enemy.id, weapon.name, "attack",
                                  Options(maneuver=maneuver, path=path)))
    return out


def move_choices(system: C22, actor: str, roster: Roster) -> list[Action]:
    me = roster[actor]
    out: list[Action] = []
    enemies = [e for e in roster.enemies_of(actor) if system.is_active(e)]
    here = me.state.position
    located = [e.state.position for e in enemies if e.state.position is not None]
    if here is not None and located and "dash" in system.defaults.maneuvers:
        grid = system.conf.grid
        nearest = min(located, key=lambda p: grid.distance(here, p))
        occupied = occupied_by_others(roster, actor)
        # the farthest Dash's base movement gets toward the nearest enemy: the closest
        # reachable space sets the reach (one search, whatever the distance)
        dash = system.conf.maneuver("dash")
        spaces = reachable(grid, here, system.conf.allowance(None if dash is None else
                                                             dash.base), occupied)
        closest = min(grid.distance(p, nearest) for p in spaces)
        reach = min(max(closest, 1), grid.distance(here, nearest))
        best = _reach(system, here, nearest, reach, "dash", occupied) if reach else None
        if best:
            out.append(Action(actor, None, None, "move", Options(maneuver="dash", path=best),
                              offensive=False))
    if "evasive" in system.defaults.maneuvers:
        out.append(Action(actor, None, None, "move", Options(maneuver="evasive"),
                          offensive=False))
    return out
