"""The six dice, cancellation, and the exact pool distribution by dense convolution."""

from __future__ import annotations

import json
import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from typer.testing import CliRunner

from fracas.cli.app import app
from fracas.dice import Distribution, RandomRoller, ScriptedRoller, exact
from fracas.errors import ScriptError
from fracas.systems.genesys import GenesysPool, PoolResult, PoolSpec, Symbols, pool_table
from fracas.systems.genesys import pool as pool_module
from fracas.systems.genesys.dice import die_faces
from fracas.systems.genesys.pool import pool_distribution
from fracas.systems.genesys.roll import parse_pool
from fracas.systems.genesys.rules import Genesys
from tests.genesys.helpers import FACES, brute_pool, net


def test_the_six_dice_have_the_faces_of_the_rule_book() -> None:
    data = die_faces()
    for name, faces in FACES.items():
        assert sorted(data[name].faces) == sorted(f.lower() for f in faces), name
    assert [len(data[n].faces) for n in ("boost", "ability", "proficiency")] == [6, 8, 12]


def test_triumph_counts_as_a_success_and_despair_as_a_failure() -> None:
    assert Symbols.parse("t").cancel().key() == (1, 0, 1, 0)
    assert Symbols.parse("d").cancel().key() == (-1, 0, 0, 1)
    # triumph and despair themselves are never cancelled
    assert Symbols.parse("t d").cancel().key() == (0, 0, 1, 1)


def test_cancellation_success_against_failure_advantage_against_threat() -> None:
    result = Symbols.parse("sss aa f h h h").cancel()
    assert (result.successes, result.advantage) == (2, -1)
    assert result.threat == 1 and result.success


@pytest.mark.parametrize("text", ["sss aa t f", "3s2a1t1f", "S S S A A T F", "3s 2a t f"])
def test_symbol_notation_letters_or_counts(text: str) -> None:
    assert Symbols.parse(text) == Symbols(s=3, a=2, t=1, f=1)


@pytest.mark.parametrize("text", ["-", "blank", ""])
def test_a_blank_roll(text: str) -> None:
    assert Symbols.parse(text).cancel().key() == (0, 0, 0, 0)


def test_unknown_symbols_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown symbol"):
        Symbols.parse("ss x")


@pytest.mark.parametrize("counts", [
    {"ability": 2, "difficulty": 1},
    {"proficiency": 1, "ability": 1, "difficulty": 2},
    {"proficiency": 2, "challenge": 1, "setback": 1},
    {"proficiency": 1, "ability": 1, "boost": 1, "challenge": 1, "difficulty": 1, "setback": 1},
])
def test_dense_convolution_equals_brute_force(counts: dict[str, int]) -> None:
    table = pool_table(PoolSpec(**counts))
    got = {k: Fraction(w, table.total) for k, w in table.items()}
    assert got == brute_pool(**counts)


@settings(max_examples=25, deadline=None)
@given(hs.tuples(*(hs.integers(0, 2) for _ in range(6))).filter(lambda t: 0 < sum(t) <= 5))
def test_any_small_pool_equals_brute_force(t: tuple[int, ...]) -> None:
    names = ("proficiency", "ability", "boost", "challenge", "difficulty", "setback")
    counts = dict(zip(names, t, strict=True))
    dist = pool_distribution(PoolSpec(**counts))
    assert {r.key(): p for r, p in dist.probabilities().items()} == brute_pool(**counts)


@settings(max_examples=40, deadline=None)
@given(hs.tuples(*(hs.integers(0, 4) for _ in range(6))).filter(
    lambda t: 0 < sum(t) <= pool_module.SMALL_POOL))
def test_a_small_pool_in_python_equals_its_dense_table_weight_for_weight_in_order(
        t: tuple[int, ...]) -> None:
    """Small pools skip numpy: the same counts, in the same order, as the dense table."""
    names = ("proficiency", "ability", "boost", "challenge", "difficulty", "setback")
    spec = PoolSpec(**dict(zip(names, t, strict=True)))
    assert pool_module._small_pool_counts(spec) == list(pool_table(spec).items())


def test_a_pool_past_the_small_size_comes_from_its_dense_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = PoolSpec(ability=pool_module.SMALL_POOL + 1)
    monkeypatch.setattr(pool_module, "_small_pool_counts", None)  # would fail if called
    pool_distribution.cache_clear()
    assert pool_distribution(spec).probability(PoolResult(0, 0)) == Fraction(
        dict(pool_table(spec).items())[(0, 0, 0, 0)], pool_table(spec).total)


def straightforward(spec: PoolSpec) -> Distribution[PoolResult]:
    """The product of the per-die distributions: each die uniform over its faces (written
    out independently of the data pack), added die by die, then made results."""
    def add(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(a + b for a, b in zip(x, y, strict=True))

    total: Distribution[tuple[int, ...]] = Distribution.constant((0, 0, 0, 0))
    for name, faces in FACES.items():
        die = Distribution.uniform(net(face) for face in faces)
        for _ in range(spec.count(name)):
            total = total.convolve(die, add)
    return total.map(lambda key: PoolResult(*key))


@settings(max_examples=30, deadline=None)
@given(hs.tuples(*(hs.integers(0, 3) for _ in range(6))).filter(lambda t: 0 < sum(t) <= 9))
def test_the_packed_pool_distribution_is_the_product_of_its_dice(t: tuple[int, ...]) -> None:
    """Both ways a pool's Distribution is built (from the dense table; in plain Python while
    numpy is not loaded), packed, equal the straightforward one in every respect the rules
    and the odds read: weights, order, sampling; and the exact roller rolling the pool."""
    names = ("proficiency", "ability", "boost", "challenge", "difficulty", "setback")
    spec = PoolSpec(**dict(zip(names, t, strict=True)))
    plain = straightforward(spec)
    for in_python in (False, True):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pool_module, "_in_python", lambda _spec, chosen=in_python: chosen)
            pool_distribution.cache_clear()
            packed = pool_distribution(spec)
            fresh = [pool_distribution.__wrapped__(spec) for _ in range(2)]
        assert packed == plain and hash(packed) == hash(plain)
        assert list(fresh[0].items()) == list(plain.items())
        assert fresh[1].total == plain.total and len(fresh[1]) == len(plain)
        draws = [[d.sample(np.random.Generator(np.random.PCG64(seed))) for seed in range(4)]
                 for d in (fresh[1], plain)]
        assert draws[0] == draws[1]
        assert pickle.loads(pickle.dumps(fresh[1])) == plain  # as a worker process gets it
    pool_distribution.cache_clear()
    assert exact(lambda roller: roller.roll(GenesysPool(spec))) == plain


def test_building_and_rolling_a_pool_makes_only_the_results_read() -> None:
    """Pool (c)'s Distribution holds counts: building it makes no PoolResult, a random
    roll makes one, the exact roller's read of result i makes that one."""
    spec = PoolSpec.parse("5P5A2B-4C2D2S")
    pool_module.clear_caches()
    dist = pool_distribution(spec)
    made = pool_module._result.cache_info
    assert made().misses == 0 and len(dist) == 19_255 and dist.total == spec.sides_total() // 4
    rolled = GenesysPool(spec).sample(np.random.default_rng(7))
    assert made().misses == 1 and rolled in dist.outcomes()[:]
    assert dist.items()[100][0] == sorted(dist.outcomes())[100]


def test_a_pool_past_64_bits_is_packed_with_its_exact_counts() -> None:
    """The table's counts as Python integers (no reduction in numpy), packed unchanged."""
    spec = PoolSpec(proficiency=2, boost=6, setback=26)
    assert pool_table(spec).exact_python_ints
    plain = Distribution({PoolResult(*key): w for key, w in pool_table(spec).items()})
    packed = pool_distribution.__wrapped__(spec)
    assert packed.total == plain.total and list(packed.items()) == list(plain.items())
    assert packed == plain


def test_counts_sum_to_the_product_of_the_sides() -> None:
    spec = PoolSpec.parse("5P5A2B-4C2D2S")
    table = pool_table(spec)
    assert sum(w for _, w in table.items()) == 12**9 * 8**7 * 6**4 == table.total


def test_past_64_bits_the_counts_are_exact_python_integers() -> None:
    spec = PoolSpec(proficiency=12, challenge=12, ability=2)
    table = pool_table(spec)
    assert table.total > 2**63
    assert table.exact_python_ints
    assert sum(w for _, w in table.items()) == table.total
    # the all-blank result: every die shows its one (or two) blank faces
    assert table.as_dict()[(0, 0, 0, 0)] >= 1
    # a pool that stays within int64 keeps int64 counts
    assert not pool_table(PoolSpec(ability=3)).exact_python_ints


def test_large_pool_exact_matches_a_python_integer_convolution() -> None:
    """Independent check at a size where int64 would overflow: fold dice into a dict."""
    spec = PoolSpec(proficiency=9, challenge=9)
    dist: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 1}
    for name in ("proficiency", "challenge"):
        for _ in range(9):
            nxt: dict[tuple[int, int, int, int], int] = {}
            for key, w in dist.items():
                for face in FACES[name]:
                    s, a, t, d = key
                    ns = face.count("s") + face.count("T") - face.count("f") - face.count("D")
                    k2 = (s + ns, a + face.count("a") - face.count("h"), t + face.count("T"),
                          d + face.count("D"))
                    nxt[k2] = nxt.get(k2, 0) + w
            dist = nxt
    assert pool_table(spec).as_dict() == dist


def test_p_success_and_marginals() -> None:
    table = pool_table(PoolSpec(ability=2, difficulty=1))
    brute = brute_pool(ability=2, difficulty=1)
    assert table.p_success() == sum(p for k, p in brute.items() if k[0] >= 1)
    marginal = table.marginal("advantage")
    assert sum(marginal.values()) == 1
    assert marginal[2] == sum(p for k, p in brute.items() if k[1] == 2)


def test_pinned_symbols_are_checked_against_what_the_pool_can_show() -> None:
    pool = GenesysPool(PoolSpec.parse("PA-DD"))
    assert ScriptedRoller(["s a t f h"]).roll(pool) == PoolResult(1, 0, 1, 0)
    with pytest.raises(ScriptError, match="positive dice cannot show"):
        ScriptedRoller(["sssss"]).roll(pool)  # P and A show at most four successes
    with pytest.raises(ScriptError, match="negative dice cannot show"):
        ScriptedRoller(["s d"]).roll(pool)  # no challenge die: no despair
    with pytest.raises(ScriptError, match="is not a set of symbols"):
        ScriptedRoller([7]).roll(pool)


def test_the_typed_symbols_stay_with_the_result_but_not_in_its_value() -> None:
    r = ScriptedRoller(["ss a f"]).roll(GenesysPool(PoolSpec.parse("AA-D")))
    assert r.symbols == "ss a f" and r == PoolResult(1, 1)


def test_random_rolls_follow_the_exact_distribution() -> None:
    """5-sigma bound on each of the most likely results (20,000 rolls)."""
    pool = GenesysPool(PoolSpec.parse("PAA-DDS"))
    dist = pool.exact()
    rng = RandomRoller(123)
    n = 20_000
    counts: dict[PoolResult, int] = {}
    for _ in range(n):
        r = rng.roll(pool)
        assert r in dist
        counts[r] = counts.get(r, 0) + 1
    for outcome, p in sorted(dist.probabilities().items(), key=lambda kv: -kv[1])[:10]:
        sigma = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(counts.get(outcome, 0) / n - float(p)) < 5 * sigma


def test_pool_notation_round_trip() -> None:
    spec = PoolSpec.parse("PPAAB-CCDS")
    assert (spec.proficiency, spec.ability, spec.boost) == (2, 2, 1)
    assert (spec.challenge, spec.difficulty, spec.setback) == (2, 1, 1)
    assert spec.notation() == "PPAAB-CCDS"
    assert PoolSpec.parse("5P5A2B-4C2D2S").notation() == "5P5ABB-CCCCDDSS"
    assert PoolSpec.parse("5P 5A 2B vs 4C 2D 2S") == PoolSpec.parse("5P5A2B-4C2D2S")


@pytest.mark.parametrize("text", ["2d6", "d20", "PPX", "", "hello", "D"])
def test_roll_notation_refuses_what_is_not_a_pool(text: str) -> None:
    assert Genesys().parse_roll(text) is None


def test_roll_odds_json_is_exact() -> None:
    roll = parse_pool("PAB-CDS")
    assert roll is not None
    data = roll.odds_json(joint=True)
    brute = brute_pool(proficiency=1, ability=1, boost=1, challenge=1, difficulty=1, setback=1)
    assert Fraction(data["p_success"]) == sum(p for k, p in brute.items() if k[0] >= 1)
    assert {tuple(map(int, k.split(","))): Fraction(v) for k, v in data["joint"].items()} == brute
    assert data["joint_keys"] == ["net_successes", "net_advantage", "triumphs", "despairs"]


def test_fracas_roll_takes_a_pool_on_the_command_line() -> None:
    result = CliRunner().invoke(app, ["roll", "PPAAB-CCDS", "--odds", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["pool"] == "PPAAB-CCDS" and "/" in data["p_success"]
    sample = CliRunner().invoke(app, ["roll", "PA-D", "--seed", "3", "--json"])
    assert sample.exit_code == 0
    assert set(json.loads(sample.output)) >= {"net_successes", "net_advantage", "success"}
    shown = CliRunner().invoke(app, ["roll", "PA-D", "--odds"])
    assert shown.exit_code == 0 and "P(success)" in shown.output


def test_int64_bound_is_checked_not_assumed() -> None:
    """A pool whose total passes 2**63 while each count stays below it keeps int64."""
    spec = PoolSpec.parse("5P5A2B-4C2D2S")
    table = pool_table(spec)
    assert table.total > 2**63
    assert table.counts.dtype == np.int64
    assert int(table.counts.max()) < 2**63


@settings(max_examples=50, deadline=None)
@given(hs.tuples(*(hs.integers(0, 6) for _ in range(6))))
def test_symbol_notation_round_trips(counts: tuple[int, ...]) -> None:
    symbols = Symbols(*counts)
    assert Symbols.parse(symbols.text()) == symbols
    compact = "".join(f"{n}{c}" for n, c in zip(counts, "satfhd", strict=True) if n)
    assert Symbols.parse(compact or "-") == symbols


def test_the_multi_limb_path_gives_the_same_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Force the past-64-bits path early (a tiny int64 bound): same counts, as Python ints."""
    from fracas.systems.genesys import pool as pool_module

    spec = PoolSpec.parse("5P5A2B-4C2D2S")  # counts up to about 2**57: several limbs
    plain = pool_table(spec).as_dict()
    assert max(plain.values()) > 2**40
    pool_table.cache_clear()
    monkeypatch.setattr(pool_module, "_INT64_MAX", 50)
    try:
        forced = pool_table(spec)
        assert forced.exact_python_ints
        assert forced.as_dict() == plain
    finally:
        pool_table.cache_clear()
