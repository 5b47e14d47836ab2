"""The analysis commands as a user runs them: plots (PNG and SVG), odds --fight, advise,
report; bad input exits 2 with a message."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from fracas.analysis.duel import duel_odds
from fracas.encounter.engine import setup_from_scenario
from fracas.registry.scenarios import load_scenario
from tests.conftest import run_main

EXAMPLES = Path(__file__).parents[2] / "examples"
PNG = b"\x89PNG"


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
        ) -> tuple[int, str, str]:
    monkeypatch.setenv("COLUMNS", "160")
    return run_main(monkeypatch, capsys, *args)


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_odds_and_simulate_plots(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                 suffix: str) -> None:
    odds = tmp_path / f"odds.{suffix}"
    code, out, _ = run(monkeypatch, capsys, "odds", str(EXAMPLES / "c22" / "full-hit-parry.yaml"),
                       "--plot", str(odds))
    assert code == 0 and "Expected damage" in out
    sim = tmp_path / f"sim.{suffix}"
    code, _, _ = run(monkeypatch, capsys, "simulate", str(EXAMPLES / "tristat" /
                                                          "duel-fight.yaml"),
                     "-n", "300", "--plot", str(sim))
    assert code == 0
    for path in (odds, sim):
        head = path.read_bytes()[:200]
        assert head.startswith(PNG) if suffix == "png" else b"<svg" in head or b"<?xml" in head


def test_a_plot_needs_png_or_svg(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(monkeypatch, capsys, "odds", str(EXAMPLES / "tristat" /
                                                          "vampire.yaml"),
                         "--plot", str(tmp_path / "odds.jpg"))
    assert code == 2 and "--plot" in err and ".png or .svg" in err and out == ""


def test_odds_fight_json_is_exact_and_sums_to_one(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    path = EXAMPLES / "zamani" / "duel-fight.yaml"
    picture = tmp_path / "duel.png"
    code, out, _ = run(monkeypatch, capsys, "odds", str(path), "--fight", "--json",
                       "--plot", str(picture))
    assert code == 0 and picture.read_bytes().startswith(PNG)
    data = json.loads(out)
    assert data["exact"] is True and data["states"] > 0
    assert sum(Fraction(v["exact"]) for v in data["outcomes"].values()) == 1
    assert sum(data["rounds"].values()) == pytest.approx(1)
    scenario = load_scenario(path)
    duel = duel_odds(setup_from_scenario(scenario), scenario.roster)
    assert Fraction(data["outcomes"]["river"]["exact"]) == duel.p_win("river")
    code, out, _ = run(monkeypatch, capsys, "odds", str(path), "--fight")
    assert code == 0 and "exact odds over" in out and "Rounds to the end" in out


def test_odds_fight_past_the_budget_says_so(monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(monkeypatch, capsys, "odds", str(EXAMPLES / "tristat" /
                                                       "duel-fight.yaml"),
                       "--fight", "--max-states", "50")
    assert code == 2 and "more than 50 states" in err and "fracas simulate" in err
    code, _, err = run(monkeypatch, capsys, "odds", str(EXAMPLES / "c22" / "boarding-fight.yaml"),
                       "--fight", "--max-seconds", "1")
    assert code == 2 and "--max-seconds" in err and "more than 1 s" in err


def test_advise_table_and_plot(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    picture = tmp_path / "advice.svg"
    code, out, _ = run(monkeypatch, capsys, "advise", str(EXAMPLES / "contest" / "dodge.yaml"),
                       "--plot", str(picture))
    assert code == 0 and "the attacker's options" in out and "defender's answers" in out
    assert "Sponge" in out and "Called shot" in out  # the data pack's words
    assert b"<svg" in picture.read_bytes()[:400]


def test_report_is_one_offline_page(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    code, out, _ = run(monkeypatch, capsys, "report", str(EXAMPLES / "tristat" /
                                                          "vampire.yaml"), "-o", str(page))
    assert code == 0 and "Report written" in out
    text = page.read_text(encoding="utf-8")
    assert text.count('src="data:image/png;base64,') >= 2
    assert "http://" not in text and "https://" not in text
    assert "The attacker's options" in text and "Exact odds" in text and "(as written)" in text
    fight = tmp_path / "fight.html"
    code, _, _ = run(monkeypatch, capsys, "report", str(EXAMPLES / "genesys" /
                                                        "duel-fight.yaml"), "-o", str(fight))
    assert code == 0
    text = fight.read_text(encoding="utf-8")
    assert "Exact fight odds" in text and 'src="data:image/png;base64,' in text


def test_report_simulates_past_the_budget(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    code, _, _ = run(monkeypatch, capsys, "report", str(EXAMPLES / "tristat" /
                                                        "duel-fight.yaml"), "-o", str(page),
                     "--max-states", "20", "-n", "500")
    assert code == 0
    text = page.read_text(encoding="utf-8")
    assert "Simulated fights" in text and "500" in text


def test_report_refuses_more_fights_than_fit_naming_n(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    code, out, err = run(monkeypatch, capsys, "report", str(EXAMPLES / "tristat" /
                                                            "duel-fight.yaml"),
                         "-o", str(tmp_path / "r.html"), "-n", str(10**12))
    assert code == 2 and out == "" and not (tmp_path / "r.html").exists()
    assert err == ("fracas: error: -n: 1,000,000,000,000 fights are too many (allowed: at "
                   "most 10,000,000 (run more in parts with other seeds))\n")


EXACT_SPAN = re.compile(r'<span class="exact" title="([^"]+)" data-exact="([^"]+)">([^<]+)'
                        r"</span>")


def test_report_shows_decimals_with_the_exact_fraction_in_a_tooltip_and_json(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    path = EXAMPLES / "tristat" / "duel-fight.yaml"
    page = tmp_path / "duel.html"
    code, _, _ = run(monkeypatch, capsys, "report", str(path), "-o", str(page), "--quiet")
    assert code == 0
    text = page.read_text(encoding="utf-8")
    spans = EXACT_SPAN.findall(text)
    assert len(spans) == 3  # blades, fists, round limit
    for title, data, shown in spans:
        assert title == data and len(shown) <= 16
        assert float(shown) == pytest.approx(float(Fraction(title)), rel=1e-9)
    assert max(len(title) for title, _, _ in spans) > 100  # the 180-digit fractions, hidden
    block = re.search(r'<script type="application/json" class="fracas-exact" '
                      r'data-section="fight">(.*?)</script>', text)
    assert block is not None
    scenario = load_scenario(path)
    duel = duel_odds(setup_from_scenario(scenario), scenario.roster, 10_000)
    assert json.loads(block.group(1))["outcomes"] == duel.to_json()["outcomes"]
    assert [t for t, _, _ in spans] == [v["exact"] for v in duel.to_json()["outcomes"].values()]


def test_report_of_an_attack_among_several_combatants_has_the_whole_fight(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    page = tmp_path / "tony.html"
    code, _, _ = run(monkeypatch, capsys, "report", str(EXAMPLES / "contest" / "tony.yaml"),
                     "-o", str(page), "--quiet", "--max-states", "50", "-n", "200")
    assert code == 0
    text = page.read_text(encoding="utf-8")
    assert "Exact odds" in text and "The attacker's options" in text
    assert "The whole fight" in text and "fight of all 3 combatants" in text
    assert "Simulated fights" in text and "200 fights were simulated" in text
    duel = tmp_path / "vampire.html"  # two combatants: the attack is the whole story
    code, _, _ = run(monkeypatch, capsys, "report", str(EXAMPLES / "tristat" / "vampire.yaml"),
                     "-o", str(duel), "--quiet")
    assert code == 0 and "The whole fight" not in duel.read_text(encoding="utf-8")


def test_advise_cuts_no_column_when_stdout_is_not_a_terminal() -> None:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    path = str(EXAMPLES / "tristat" / "called_shot.yaml")
    piped = subprocess.run([sys.executable, "-m", "fracas", "advise", path, "--top", "8"],
                           capture_output=True, text=True, check=True, env=env).stdout
    data = json.loads(subprocess.run([sys.executable, "-m", "fracas", "advise", path,
                                      "--json"], capture_output=True, text=True, check=True,
                                     env=env).stdout)
    assert "…" not in piped
    rows = [line for line in piped.splitlines() if "│" in line]
    for i, option in enumerate(data["options"][:8], 1):
        label = option["label"]
        assert any(line.split("│")[0].strip() == str(i) and label in line for line in rows), \
            label
