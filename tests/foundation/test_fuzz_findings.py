"""Regression tests of the fuzz findings of issue 17: each is now a bounded result or a
clean error (exit 2, one line naming the option or file), never a traceback or a hang."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from fracas.analysis import plots
from tests.foundation.test_cli import run_main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ALLEY = str(EXAMPLES / "tristat" / "alley-fight.yaml")
VAMPIRE = str(EXAMPLES / "tristat" / "vampire.yaml")
HUGE = "1" * 5000  # over Python's 4,300-digit limit of int()


def clean_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert err.startswith("fracas: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, err


def test_a_plain_roll_rolls_die_by_die(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    started = time.monotonic()
    values = set()
    for seed in range(3):
        code, out, _ = run_main(monkeypatch, capsys, "roll", "100d1000", "--seed", str(seed),
                                "--json")
        assert code == 0
        data = json.loads(out)
        assert len(data["dice"]) == 100
        values.add(data["value"])
    assert all(100 <= v <= 100_000 for v in values) and len(values) == 3
    assert time.monotonic() - started < 30  # building the exact distribution never ended


def test_exact_odds_of_a_roll_have_a_budget(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(monkeypatch, capsys, "roll", "100d1000", "--odds")
    clean_error(code, err, "--max-work", "more than the budget of 5,000,000")
    code, _, err = run_main(monkeypatch, capsys, "roll", "10d6", "--odds", "--max-work", "10")
    clean_error(code, err, "--max-work")
    code, out, _ = run_main(monkeypatch, capsys, "roll", "10d6", "--odds", "--json")
    assert code == 0 and '"60": "1/60466176"' in out


@pytest.mark.parametrize("args, words", [
    (["roll", HUGE + "d6"], ["bad dice expression", "column 1"]),
    (["roll", "d" + HUGE], ["number of sides"]),
    (["roll", "2d6+" + HUGE], ["column 5"]),
    (["attack", VAMPIRE, "--dice", f"1,{HUGE},3"], ["is not a value"]),
    (["sweep", VAMPIRE, "--vary", f"attacker.skills.melee=1..{HUGE}"], ["--vary"]),
], ids=["count", "sides", "constant", "--dice", "--vary range"])
def test_integers_of_thousands_of_digits_are_clean_errors(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        args: list[str], words: list[str]) -> None:
    code, _, err = run_main(monkeypatch, capsys, *args)
    clean_error(code, err, *words)


def test_a_varied_value_of_thousands_of_digits_is_a_point_in_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(monkeypatch, capsys, "sweep", VAMPIRE, "--vary",
                              f"attacker.skills.melee=1,{HUGE}", "--json", "--jobs", "1")
    assert code == 0 and "Traceback" not in err
    points = json.loads(out)["points"]
    assert "error" not in points[0] and "skills.melee" in points[1]["error"]


def test_an_integer_of_thousands_of_digits_in_yaml_is_a_clean_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(Path(VAMPIRE).read_text().replace("weapon: knife",
                                                      "weapon: knife\n  x: " + HUGE))
    code, _, err = run_main(monkeypatch, capsys, "attack", str(path))
    clean_error(code, err, str(path), "more than 4300 digits")


@pytest.mark.parametrize("args, words", [
    (["roll", "2d6", "--seed", "-1"], ["--seed"]),
    (["fight", ALLEY, "--seed", "-5"], ["--seed"]),
    (["simulate", ALLEY, "--seed", "-5"], ["--seed"]),
    (["attack", VAMPIRE, "--seed", str(2**128)], ["--seed", "2**128 - 1"]),
    (["fight", ALLEY, "--max-rounds", "1000000"], ["--max-rounds", "1 to 100,000"]),
    (["simulate", ALLEY, "--max-rounds", "1000000"], ["--max-rounds"]),
    (["simulate", ALLEY, "-n", "1000000000000"], ["-n", "at most 10,000,000"]),
    (["demo", "--examples", "/nonexistent"], ["/nonexistent", "no such folder"]),
    (["sweep", ALLEY, "--vary", "max_rounds=0..1000000000"], ["--vary", "1,000,000,001"]),
    (["sweep", ALLEY, "--vary", "max_rounds=1..3", "--vary", "max_rounds=4..5"],
     ["varied twice"]),
], ids=["roll seed", "fight seed", "simulate seed", "seed too big", "fight rounds",
        "simulate rounds", "simulate n", "demo", "sweep range", "sweep twice"])
def test_out_of_range_options_are_clean_errors_before_any_work(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        args: list[str], words: list[str]) -> None:
    started = time.monotonic()
    code, out, err = run_main(monkeypatch, capsys, *args)
    clean_error(code, err, *words)
    assert out == "" and time.monotonic() - started < 30


def test_a_dollar_in_a_title_or_name_is_drawn_as_a_dollar() -> None:
    summary = {"fights": 10, "method": "steps",
               "sides": {"$pirates^{": {"wins": 6, "p_win": 0.6, "ci95": [0.3, 0.8]},
                         "crew_$x$": {"wins": 4, "p_win": 0.4, "ci95": [0.2, 0.7]}},
               "no_winner": {"count": 0, "p": 0.0},
               "rounds": {"mean": 2.0, "quantiles": {}, "histogram": {"1": 4, "3": 6}},
               "combatants": {}}
    fig = plots.simulation_figure(summary, "Cost: $5 and $\\frac{")
    assert plots.to_bytes(fig, "png").startswith(b"\x89PNG")
    assert b"$5 and $" in plots.to_bytes(plots.simulation_figure(summary, "$5 and $"), "svg")
