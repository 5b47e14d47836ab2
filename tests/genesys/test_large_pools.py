"""Large pools: a plain roll rolls the dice directly; --odds gives the marginals without
the joint (and they equal the joint's where both can be computed); --joint is bounded;
pool notation errors speak of pools."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from fracas.cli.app import _dash_pool, app
from fracas.errors import InputError
from fracas.systems.genesys.dice import DIE_ORDER, MAX_DICE, PoolSpec, die_faces
from fracas.systems.genesys.pool import GenesysPool, pool_marginals, pool_table, roll_directly
from fracas.systems.genesys.roll import parse_pool


@pytest.mark.parametrize("text", ["PAB-CDS", "PPAAB-CCDS", "3P2A2B-2C3D1S", "-CCD",
                                  "5P5A2B-4C2D2S", "12B-9S", "6P-6C"])
def test_marginals_equal_the_joint_where_both_can_be_computed(text: str) -> None:
    spec = PoolSpec.parse(text)
    table = pool_table(spec)
    marginals = pool_marginals(spec)
    for axis in ("successes", "advantage", "triumphs", "despairs"):
        assert marginals[axis] == table.marginal(axis), axis
    roll = parse_pool(text)
    assert roll is not None
    data = roll.odds_json()
    assert Fraction(data["p_success"]) == table.p_success()
    assert "joint" not in data and "joint" in roll.odds_json(joint=True)


def test_a_pool_at_the_limit_rolls_and_its_odds_are_marginals() -> None:
    text = "-".join(["".join(f"{MAX_DICE}{c}" for c in "PAB"),
                     "".join(f"{MAX_DICE}{c}" for c in "CDS")])
    result = CliRunner().invoke(app, ["roll", text, "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["triumphs"] >= 0 and data["despairs"] >= 0
    odds = CliRunner().invoke(app, ["roll", f"{MAX_DICE}P-{MAX_DICE}C", "--odds", "--json"])
    assert odds.exit_code == 0, odds.output
    marginals = json.loads(odds.output)["marginals"]
    assert sum(Fraction(p) for p in marginals["successes"].values()) == 1
    assert int(max(marginals["triumphs"], key=int)) == MAX_DICE  # one triumph face a die


@pytest.mark.parametrize("text", [
    f"{MAX_DICE}P{MAX_DICE}A{MAX_DICE}B-{MAX_DICE}C{MAX_DICE}D{MAX_DICE}S",  # the worst case
    "17P17A16B-17C17D16S",  # 100 dice spread over the kinds
])
def test_the_odds_of_a_pool_at_the_limit_have_the_exact_means(text: str) -> None:
    """Each marginal sums to 1 and its mean is the sum of the dice's own means (linearity
    of expectation, from the faces alone): an independent check of the convolution."""
    spec = PoolSpec.parse(text)
    roll = parse_pool(text)
    assert roll is not None
    data = roll.odds_json()
    faces = die_faces()
    for k, axis in enumerate(("successes", "advantage", "triumphs", "despairs")):
        dist = {int(v): Fraction(p) for v, p in data["marginals"][axis].items()}
        assert sum(dist.values()) == 1, axis
        expected = sum(Fraction(sum(faces[name].vector(f)[k] for f in faces[name].faces),
                                len(faces[name].faces)) * spec.count(name)
                       for name in DIE_ORDER)
        assert sum(v * p for v, p in dist.items()) == expected, axis
    successes = {int(v): Fraction(p) for v, p in data["marginals"]["successes"].items()}
    assert Fraction(data["p_success"]) == sum(p for v, p in successes.items() if v >= 1)
    no_triumph = Fraction(data["marginals"]["triumphs"]["0"])
    assert Fraction(data["p_triumph"]) == 1 - no_triumph
    assert no_triumph == Fraction(11, 12) ** spec.proficiency  # one triumph face of 12


def test_the_text_view_of_a_pool_at_the_limit_stays_short() -> None:
    text = f"{MAX_DICE}P{MAX_DICE}A{MAX_DICE}B-{MAX_DICE}C{MAX_DICE}D{MAX_DICE}S"
    result = CliRunner().invoke(app, ["roll", text, "--odds"])
    assert result.exit_code == 0, result.output
    assert "P(success) = (exact: see --json) 90.42%" in " ".join(result.output.split())
    assert "not shown (see --json)" in result.output
    assert len(result.output.splitlines()) < 400


def test_direct_rolls_have_the_exact_distribution() -> None:
    """Mean net successes of 2000 direct rolls of PPAA-DD within 4.5 standard errors of
    the exact mean."""
    spec = PoolSpec.parse("PPAA-DD")
    rng = np.random.default_rng(7)
    values = np.array([roll_directly(spec, rng).successes for _ in range(2000)])
    exact = pool_marginals(spec)["successes"]
    mean = sum(k * p for k, p in exact.items())
    var = sum((k - mean) ** 2 * p for k, p in exact.items())
    assert abs(values.mean() - float(mean)) < 4.5 * (float(var) / 2000) ** 0.5
    big = GenesysPool(PoolSpec(proficiency=30))
    assert big.sample(rng).successes >= 0


def test_the_joint_of_a_large_pool_is_refused_with_a_clear_error() -> None:
    result = CliRunner().invoke(app, ["roll", "20P-20C", "--odds", "--joint"])
    assert isinstance(result.exception, InputError)
    assert "--joint" in str(result.exception) and "marginals" in str(result.exception)


@pytest.mark.parametrize(("text", "words"), [
    ("101P", "at most 100 proficiency"),
    ("PPX", "unknown die 'X'"),
    ("PP-CA", "comes after the '-'"),
])
def test_pool_notation_errors_speak_of_pools(text: str, words: str) -> None:
    result = CliRunner().invoke(app, ["roll", text])
    assert isinstance(result.exception, InputError)
    assert words in str(result.exception) and "-CCD" in str(result.exception)


def test_a_pool_starting_with_a_dash_says_how_to_pass_it(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    with pytest.raises(SystemExit) as done:
        _dash_pool(["roll", "-CC"])
    assert done.value.code == 2
    assert "fracas roll [OPTIONS] -- -CC" in capsys.readouterr().err
    _dash_pool(["roll", "--", "-CC"])  # the right way: nothing to say
    result = CliRunner().invoke(app, ["roll", "--seed", "1", "--json", "--", "-CC"])
    assert result.exit_code == 0, result.output
