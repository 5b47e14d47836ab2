"""The attack's caches and working copy give what a plain build gives: a plan (or a
simple check's pool) reused from another roster equals the one made afresh for this
one, and the combatants as settled are the fold of the settled events (over every
attack of the example fights)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.core.events import Changed
from fracas.core.model import apply_events
from fracas.dice import RandomRoller
from fracas.systems.genesys import attack, check
from fracas.systems.genesys.check import Read
from tests.genesys.helpers import FIGHTS, attacks_of


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: p.stem)
def test_a_plan_or_simple_pool_reused_from_another_roster_equals_one_made_afresh(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = attacks_of(path, range(12), monkeypatch)
    attack._plan.cache_clear()
    check._simple_pool.cache_clear()
    for system, action, roster in seen:
        fresh = attack._plan.__wrapped__(system, action, Read(
            (roster[action.actor], roster[action.target or ""]), ()))
        assert attack.plan_attack(system, action, roster) == fresh
        for c in roster.values():
            for skill in ("Cool", "Vigilance"):
                made = check._simple_pool.__wrapped__(system.defaults, skill, Read((c,), ()))
                assert check.simple_pool(system.defaults, c, skill) == made
    plans = attack._plan.cache_info().misses
    assert plans < len({(action, roster) for _, action, roster in seen}) // 2
    assert check._simple_pool.cache_info().hits > check._simple_pool.cache_info().misses


@pytest.mark.parametrize("path", FIGHTS, ids=lambda p: p.stem)
def test_the_settled_combatants_are_the_fold_of_the_settled_events(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = attacks_of(path, range(6), monkeypatch)
    for i, (system, action, roster) in enumerate(seen):
        plan = attack.plan_attack(system, action, roster)
        result = plan.pool.sample(RandomRoller(i).rng)
        pre = attack._settle(system, plan, action, roster, result, result.symbols)
        folded = apply_events(roster, pre.events)
        assert {cid: pre.after(cid, roster) for cid in roster} == dict(folded)
        assert {c.id for c in pre.changed} <= {e.target for e in pre.events
                                               if isinstance(e, Changed)}
