"""Long work says how far it got on stderr even when stderr is not a terminal (a line every
few seconds), and says nothing with --quiet."""

from __future__ import annotations

import json
import re
import time
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
     r"fracas: odds --fight: [\d,]+ fight states? explored, \d+ s"),
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


def test_report_says_how_far_it_got_and_nothing_when_quiet(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setattr(progress, "EVERY", 0.0)
    page = tmp_path / "report.html"
    args = ["report", DUEL, "-o", str(page),
            "--max-states", "20", "-n", "64"]
    code, _, err = run_main(monkeypatch, capsys, *args)
    assert code == 0 and page.exists()
    line = (r"fracas: report: [\d,]+( of 64 \(\d+%\))? "
            r"(sections? written|fight states? explored|fights simulated), \d+ s")
    lines = err.splitlines()
    assert lines and all(re.fullmatch(line, text) for text in lines), err
    assert any(text.startswith("fracas: report: 64 of 64 (100%) fights") for text in lines)
    code, _, err = run_main(monkeypatch, capsys, *args, "--quiet")
    assert code == 0 and err == ""


def test_a_long_silent_unit_of_work_still_gets_a_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """One sweep point can take minutes and report nothing: the heartbeat still shows it."""
    monkeypatch.setattr(progress, "EVERY", 0.0)
    seen = ""
    with progress.progress("sweep", "points", 4, False, True):
        for _ in range(400):  # up to 40 s on a loaded machine; usually one pass
            time.sleep(0.1)
            seen += capsys.readouterr().err
            if seen:
                break
    assert re.match(r"fracas: sweep: 0 of 4 \(0%\) points, \d+ s\n", seen), seen


def test_balance_counts_one_value_tried_in_the_singular(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(progress, "EVERY", 0.0)  # a line at every value tried
    code, out, err = run_main(monkeypatch, capsys, "balance", VAMPIRE, "--vary",
                              "attacker.skills.melee=1..3", "--target", "hunters=50%",
                              "--jobs", "1", "--json")
    assert code == 0 and json.loads(out)
    lines = err.splitlines()
    assert lines and all(re.fullmatch(r"fracas: balance: (1 value|[02-9]\d* values) tried, "
                                      r"\d+ s", text) for text in lines), err
    assert any(text.startswith("fracas: balance: 1 value tried,") for text in lines), err
