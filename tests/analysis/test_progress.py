"""Long work says how far it got on stderr even when stderr is not a terminal (a line every
few seconds), and says nothing with --quiet."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fracas.cli import progress
from tests.conftest import TOY
from tests.foundation.test_cli import run_main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DUEL = str(TOY / "duel-fight.yaml")
VAMPIRE = str(EXAMPLES / "tristat" / "vampire.yaml")


@pytest.mark.parametrize("args, line", [
    (["simulate", DUEL, "-n", "300", "--method", "steps", "--json"],
     r"fracas: simulate: [\d,]+ of 300 \(\d+%\) fights, \d+ s"),
    (["sweep", VAMPIRE, "--vary", "attacker.skills.melee=1..3", "--jobs", "1", "--json"],
     r"fracas: sweep: \d of 3 \(\d+%\) points, \d+ s"),
    (["odds", str(EXAMPLES / "zamani" / "duel-fight.yaml"), "--fight", "--json"],
     r"fracas: odds --fight: [\d,]+ fight states explored, \d+ s"),
], ids=["simulate", "sweep", "odds --fight"])
def test_progress_lines_on_a_pipe_and_none_when_quiet(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        args: list[str], line: str) -> None:
    monkeypatch.setattr(progress, "EVERY", 0.0)  # a line at every step of the work
    code, out, err = run_main(monkeypatch, capsys, *args)
    assert code == 0 and json.loads(out)
    lines = err.splitlines()
    assert lines and all(re.fullmatch(line, text) for text in lines), err
    code, quiet_out, err = run_main(monkeypatch, capsys, *args, "--quiet")
    timeless = [{k: v for k, v in json.loads(text).items() if k != "seconds"}
                for text in (out, quiet_out)]
    assert code == 0 and err == "" and timeless[0] == timeless[1]
