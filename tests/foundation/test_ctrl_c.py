"""Ctrl-C on a real terminal (issue 17): ``simulate``, ``report``, ``odds --fight`` and
``fight`` exit 130 with the one line ``fracas: interrupted`` and no traceback from any
process, whether it comes at once (while the command imports its modules), while worker
processes start, or a second into the work. (``sweep``: tests/analysis/test_sweep.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.ptyrun import Ready, assert_interrupted, importing, interrupt, printed, workers

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GENESYS_DUEL = str(EXAMPLES / "genesys" / "duel-fight.yaml")
BRAWL = str(EXAMPLES / "genesys" / "three-vs-three-fight.yaml")
TRISTAT_DUEL = str(EXAMPLES / "tristat" / "duel-fight.yaml")
FIGHTS = 200_000


def past_first_chunk(pid: int, seen: bytes) -> bool:
    """The progress bar counts fights past the first chunk, which runs before the pool
    starts: the worker processes are playing fights."""
    return any(int(n) > 64 for n in re.findall(rb"(\d+)/%d" % FIGHTS, seen))


SIMULATE = ["simulate", GENESYS_DUEL, "--method", "steps", "-n", str(FIGHTS), "--jobs", "2"]
REPORT = ["report", TRISTAT_DUEL, "--max-states", "20", "-n", str(FIGHTS)]
ODDS = ["odds", BRAWL, "--fight"]


@pytest.mark.parametrize("args, ready, delay", [
    (SIMULATE, importing, 0.0),
    (SIMULATE, workers, 0.0),
    (SIMULATE, past_first_chunk, 1.0),
    (REPORT, importing, 0.0),
    (REPORT, printed(b"fights simulated"), 1.0),
    (ODDS, importing, 0.0),
    (ODDS, printed(b"fight states explored"), 1.0),
], ids=["simulate-at-once", "simulate-workers-start", "simulate-after-a-second",
        "report-at-once", "report-after-a-second", "odds-fight-at-once",
        "odds-fight-after-a-second"])
def test_ctrl_c_exits_130_with_one_line(args: list[str], ready: Ready, delay: float,
                                        tmp_path: Path) -> None:
    code, text = interrupt(args, ready, delay, cwd=tmp_path)
    assert_interrupted(code, text)
    assert not (tmp_path / "report.html").exists()


@pytest.mark.parametrize("ready, delay", [(importing, 0.0), (printed(b"Round 3"), 1.0)],
                         ids=["at-once", "after-a-second"])
def test_ctrl_c_stops_a_fight_and_keeps_its_log(ready: Ready, delay: float,
                                                tmp_path: Path) -> None:
    """A long fight (soak above any damage, only the threat spent on a minion's own strain
    wounds it, 200 wounds to go: hundreds of rounds) runs until Ctrl-C; its log keeps
    every finished turn."""
    endless = tmp_path / "long.yaml"
    text = Path(GENESYS_DUEL).read_text().replace("soak: 3", "soak: 50")
    endless.write_text(re.sub(r"wound_threshold: \d+", "wound_threshold: 200", text))
    log = tmp_path / "fight.jsonl"
    code, text = interrupt(["fight", str(endless), "--seed", "1", "--max-rounds", "100000",
                            "--log", str(log)], ready, delay)
    assert_interrupted(code, text)
    if delay:
        assert "Round 3" in text and len(log.read_text().splitlines()) > 3
