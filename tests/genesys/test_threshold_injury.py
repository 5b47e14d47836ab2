"""Issue 35: one Critical Injury whenever wounds first go past the wound threshold, whatever
the strain and whatever the harm (seed 004 · Step 6: a Critical Injury "may occur because
... the target suffers a number of wounds greater than its wound threshold"), in an attack,
its odds (fresh `fracas` processes) and a fight's turn (Bleeding Out)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from fracas.core.model import apply_events
from fracas.dice import ScriptedRoller
from fracas.systems.genesys.events import GenesysCriticalInjury
from tests.genesys.helpers import pc
from tests.genesys.test_fight import roster

STRAINED = Path(__file__).parent / "data" / "threshold-while-strained.yaml"


def fracas(*args: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-m", "fracas", *args, "--json"],
                         capture_output=True, text=True, check=False, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def test_an_attack_past_the_threshold_on_a_target_down_by_strain_rolls_an_injury() -> None:
    got = fracas("attack", str(STRAINED))  # pinned: one success, then d100 30
    assert got["outcome"] == "critical injury" and got["damage"] == 4
    vex = got["defender"]
    assert vex["wounds"] == 12 and vex["strain"] == 9  # type: ignore[index]
    assert vex["critical_injuries"] == ["Discouraging Wound"]  # type: ignore[index]


def test_the_odds_of_that_attack_count_the_injury_on_every_hit() -> None:
    """Every hit (one success or more: 6 + successes - soak 3 >= 4 wounds, 8 -> 12 or
    more) crosses the threshold: the chance of an injury is the chance of a hit."""
    odds = fracas("odds", str(STRAINED))
    assert set(odds["outcomes"]) == {"critical injury", "miss"}  # type: ignore[arg-type]
    assert odds["p_hit"] == odds["outcomes"]["critical injury"]  # type: ignore[index]


def test_bleeding_past_the_threshold_rolls_an_injury() -> None:
    """A PC at 10 of 10 wounds, Bleeding Out: her turn's wound takes her to 11, past the
    threshold: incapacitated and one Critical Injury (the d100 is asked)."""
    system, r = roster({"id": "ann", "side": "h", **pc(wound_threshold=10, wounds=10,
                                                       critical_injuries=["Bleeding Out"])},
                       {"id": "bob", "side": "v", **pc()})
    events = system.start_turn(ScriptedRoller([30]), "ann", r)
    injuries = [e for e in events if isinstance(e, GenesysCriticalInjury)]
    assert len(injuries) == 1
    ann = apply_events(r, events)["ann"].state
    assert ann.wounds == 11 and ann.incapacitated
    # d100 30, +10 for the one untreated injury (Bleeding Out): 40
    assert ann.critical_injuries == ("Bleeding Out", "Stinger")
