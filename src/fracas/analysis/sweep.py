"""Parameter sweeps: one metric over every combination of varied scenario values.

``--vary attacker.skills.melee=1..6`` edits the scenario mapping before it is loaded:
the first part names a combatant (``attacker`` and ``defender`` are the attack's ids;
otherwise a combatant id) or a top-level key (``rules.x``, ``max_rounds``); the rest is a
path of keys, list indices (``weapons[0]`` or ``weapons.0``) or the ``name`` of a list
entry (``weapons.katana.damage``). Values are ``1..6``, ``0..20..5`` (a step) or a list
``a,b,c`` (each read as a YAML scalar).

Each point's metric is exact when it can be: an attack's odds always are; a fight's
win probability is exact while its chain stays under a budget of states, and simulated
(seeded by the point's index, so any engine gives the same numbers) past it. Points are
evaluated in chunks on local processes (:mod:`concurrent.futures`) or on a Dask
distributed cluster; results are put back in order.

A sweep is bounded: ``max_states`` per exact point, ``max_memory`` per simulated point
(the chain's memory cap of :func:`~fracas.analysis.simulate.simulate`) and a whole-run
``max_seconds``, whose deadline is the exact roller's deadline of each point and is
checked between simulated chunks; past it the sweep stops with :class:`SweepOverBudget`.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import math
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

from fracas.analysis.workers import worker_pool
from fracas.core.strictyaml import parse_yaml
from fracas.errors import FracasError, InputError

METRICS = ("expected_damage", "p_hit", "p_taken_out", "win_probability", "mean_rounds")
FIGHT_METRICS = ("win_probability", "mean_rounds")
METRIC_WORDS = {"expected_damage": "expected damage", "p_hit": "chance to hit",
                "p_taken_out": "chance to take the target out",
                "win_probability": "win chance", "mean_rounds": "mean rounds to the end"}
METHODS = ("auto", "exact", "simulate")
MAX_POINTS = 1_000_000
MAX_SECONDS = 600.0  # the default time budget of a whole sweep
CONNECT_TIMEOUT = "10s"  # to reach a Dask scheduler


@dataclass(frozen=True)
class Vary:
    """One varied value: where it goes, and the values it takes."""

    path: str
    values: tuple[Any, ...]


def _scalar(text: str) -> Any:
    try:
        return parse_yaml(text)  # nesting bounded, each key once
    except (yaml.YAMLError, ValueError):  # ValueError: an integer of thousands of digits
        return text


def parse_vary(text: str) -> Vary:
    """``path=1..6``, ``path=0..20..5`` or ``path=a,b,c``."""
    where = f"--vary {text}"
    path, sep, spec = text.partition("=")
    path, spec = path.strip(), spec.strip()
    allowed = "PATH=LOW..HIGH, PATH=LOW..HIGH..STEP or PATH=A,B,C"
    if not sep or not path or not spec:
        raise InputError("a varied value needs a path and values", path=where, allowed=allowed)
    if ".." in spec:
        parts = spec.split("..")
        try:
            numbers = [int(p) for p in parts]
        except ValueError:
            raise InputError(f"{spec!r} is not a range of whole numbers", path=where,
                             allowed=allowed) from None
        if len(numbers) not in (2, 3) or (len(numbers) == 3 and numbers[2] <= 0):
            raise InputError(f"{spec!r} is not a range", path=where, allowed=allowed)
        low, high, step = numbers[0], numbers[1], numbers[2] if len(numbers) == 3 else 1
        if high < low:
            raise InputError(f"the range {spec!r} is empty", path=where,
                             allowed="LOW <= HIGH")
        span = range(low, high + 1, step)
        if len(span) > MAX_POINTS:  # before building anything
            raise InputError(f"the range {spec!r} has {len(span):,} values", path=where,
                             allowed=f"at most {MAX_POINTS:,} points in all")
        values: tuple[Any, ...] = tuple(span)
    else:
        values = tuple(_scalar(v.strip()) for v in spec.split(",") if v.strip())
        if not values:
            raise InputError("no values given", path=where, allowed=allowed)
    return Vary(path, values)


def check_varies(varies: Sequence[Vary]) -> None:
    """Each path varied once: a path given twice would silently give a wrong table."""
    seen: dict[tuple[str | int, ...], str] = {}
    for vary in varies:
        key = tuple(_segments(vary.path))
        if key in seen:
            raise InputError(f"{vary.path!r} is varied twice (also as {seen[key]!r})",
                             path="--vary", allowed="each path once")
        seen[key] = vary.path


def _index(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 9


def _segments(path: str) -> list[str | int]:
    out: list[str | int] = []
    for part in path.replace("[", ".[").split("."):
        if not part:
            continue
        if part.startswith("[") and part.endswith("]") and _index(part[1:-1]):
            out.append(int(part[1:-1]))
        elif _index(part):
            out.append(int(part))
        else:
            out.append(part)
    return out


def set_value(data: Mapping[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of the scenario mapping with the value at ``path`` replaced."""
    where = f"--vary {path}"
    out = copy.deepcopy(dict(data))
    parts = _segments(path)
    if not parts:
        raise InputError("an empty path", path=where)
    head = parts[0]
    node: Any = out
    attack = out.get("attack") if isinstance(out.get("attack"), Mapping) else None
    ids = [c.get("id") for c in out.get("combatants") or [] if isinstance(c, Mapping)]
    if head in ("attacker", "defender"):
        if attack is None or attack.get(head) is None:
            raise InputError(f"the scenario has no attack with an {head}", path=where,
                             allowed="a combatant id: " + ", ".join(map(str, ids)))
        head = str(attack[head])
    if isinstance(head, str) and head in ids and head not in out:
        node = out["combatants"][ids.index(head)]
        parts = parts[1:]
    if not parts:
        raise InputError("the path names a whole combatant", path=where,
                         allowed="a field of it, e.g. attacker.skills.melee")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        done = ".".join(map(str, parts[:i])) or "the scenario"
        if isinstance(node, list):
            index = part if isinstance(part, int) else next(
                (k for k, item in enumerate(node)
                 if isinstance(item, Mapping) and part in (item.get("name"), item.get("id"))),
                None)
            if index is None or not 0 <= index < len(node):
                names = [str(item.get("name", item.get("id", k))) if isinstance(item, Mapping)
                         else str(k) for k, item in enumerate(node)]
                raise InputError(f"{done} has no entry {part!r}", path=where,
                                 allowed="an index or a name: " + ", ".join(names))
            if last:
                node[index] = value
            else:
                node = node[index]
        elif isinstance(node, dict):
            key = str(part)
            if last:
                node[key] = value
            else:
                if node.get(key) is None:
                    node[key] = {}
                node = node[key]
        else:
            raise InputError(f"{done} is a value ({node!r}), not a mapping or a list",
                             path=where, allowed="a path that ends at that value")
    return out


@dataclass(frozen=True)
class SweepSpec:
    """Everything a worker needs to evaluate points (picklable)."""

    data: dict[str, Any]
    file: str | None
    varies: tuple[Vary, ...]
    metric: str
    side: str | None = None
    method: str = "auto"
    fights: int = 2000
    seed: int = 0
    max_states: int = 10_000
    max_memory: int = 2**30  # bytes, per simulated point
    max_seconds: float | None = None  # the whole run's time budget
    deadline: float | None = None  # its end, as a time.time() (the same on every machine)

    def started(self) -> SweepSpec:
        """The spec with its deadline set from now (a sweep's clock starts here)."""
        if self.max_seconds is None:
            return self
        return dataclasses.replace(self, deadline=time.time() + self.max_seconds)

    def remaining(self) -> float | None:
        """Seconds left of the budget (raises :class:`SweepOverBudget` once none are)."""
        if self.deadline is None:
            return None
        left = self.deadline - time.time()
        if left <= 0:
            raise SweepOverBudget(self.max_seconds or 0.0)
        return left

    def check_time(self, _done: int = 0) -> None:
        """Raises :class:`SweepOverBudget` once the budget is spent (a progress hook)."""
        self.remaining()

    def points(self) -> Iterator[tuple[int, tuple[Any, ...]]]:
        return enumerate(itertools.product(*(v.values for v in self.varies)))

    @property
    def size(self) -> int:
        return math.prod(len(v.values) for v in self.varies)

    def scenario_data(self, values: Sequence[Any]) -> dict[str, Any]:
        data = self.data
        for vary, value in zip(self.varies, values, strict=True):
            data = set_value(data, vary.path, value)
        return data


class SweepOverBudget(FracasError):
    """The whole sweep passed its time budget (``--max-seconds``): it stops."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)  # the only argument: it crosses process boundaries
        self.seconds = seconds

    def __str__(self) -> str:
        return f"the sweep passed its time budget of {self.seconds:g} s"


def side_of(spec: SweepSpec, scenario: Any) -> str:
    """The side whose win counts: ``--side``, else the attacker's, else the first
    combatant's."""
    return spec.side or (scenario.roster[scenario.attack.actor].side if scenario.attack
                         else next(iter(scenario.roster.values())).side)


def _fight_metric(spec: SweepSpec, scenario: Any, index: int) -> dict[str, Any]:
    from fracas.analysis.duel import duel_odds
    from fracas.analysis.simulate import probe, simulate, summarize
    from fracas.encounter.engine import setup_from_scenario

    setup = setup_from_scenario(scenario)
    side = side_of(spec, scenario)
    if side not in scenario.roster.sides():
        raise InputError(f"no side {side!r}", path="--side",
                         allowed=", ".join(scenario.roster.sides()))
    if spec.method != "simulate":
        try:
            duel = duel_odds(setup, scenario.roster, spec.max_states,
                             max_seconds=spec.remaining())
        except InputError as err:
            if err.path == "--max-seconds":  # the exact roller met the sweep's deadline
                raise SweepOverBudget(spec.max_seconds or 0.0) from None
            if spec.method == "exact":
                raise
        else:
            value = duel.p_win(side) if spec.metric == "win_probability" else duel.mean_rounds()
            return {"value": float(value), "exact": _frac(value), "method": "exact",
                    "states": duel.states}
    # The path is chosen by the chain's probe, which depends on the seed alone (simulate's
    # auto measures CPU time): a sweep gives the same table on any machine or cluster.
    seed = spec.seed * 1_000_003 + index
    path: Literal["fast", "steps"] = (
        "fast" if probe(setup, scenario.roster, seed, spec.fights, spec.max_memory).fast
        else "steps")
    fights = simulate(setup, scenario.roster, spec.fights, seed=seed, method=path,
                      max_memory=spec.max_memory, progress=spec.check_time)  # between chunks
    summary = summarize(fights)
    if spec.metric == "mean_rounds":
        return {"value": summary["rounds"]["mean"], "method": f"simulated ({spec.fights})"}
    s = summary["sides"][side]
    return {"value": s["p_win"], "ci95": s["ci95"], "method": f"simulated ({spec.fights})"}


def _frac(p: Any) -> str:
    from fracas.odds.text import fraction_text

    return fraction_text(p)


def evaluate(spec: SweepSpec, index: int, values: Sequence[Any]) -> dict[str, Any]:
    """One point: its values and its metric (or the error that stopped it)."""
    from fracas.odds.cache import cached_odds
    from fracas.registry.scenarios import scenario_from_mapping

    out: dict[str, Any] = {"index": index,
                           "values": {v.path: x for v, x in zip(spec.varies, values,
                                                                strict=True)}}
    try:
        scenario = scenario_from_mapping(spec.scenario_data(values), file=spec.file)
        if spec.metric in FIGHT_METRICS:
            out.update(_fight_metric(spec, scenario, index))
        else:
            spec.check_time()
            if scenario.attack is None:
                raise InputError("this scenario has no attack: entry", path="--metric",
                                 allowed="win_probability or mean_rounds for a fight")
            odds = cached_odds(scenario.system, scenario.attack, scenario.roster)
            value = getattr(odds, spec.metric)
            out.update({"value": float(value), "exact": _frac(value), "method": "exact"})
    except SweepOverBudget:
        raise
    except FracasError as err:
        out.update({"value": None, "error": str(err)})
    return out


def evaluate_chunk(spec: SweepSpec, chunk: Sequence[tuple[int, tuple[Any, ...]]]
                   ) -> list[dict[str, Any]]:
    """Several points (one task of a pool or of a Dask cluster)."""
    return [evaluate(spec, i, values) for i, values in chunk]


@dataclass
class SweepResult:
    """The points of a sweep in order, with lookups by their values."""

    varies: tuple[Vary, ...]
    metric: str
    points: list[dict[str, Any]]
    engine: str = "local"
    side: str | None = None  # whose win counts, for win_probability
    _by: dict[tuple[str, ...], dict[str, Any]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._by = {tuple(repr(p["values"][v.path]) for v in self.varies): p
                    for p in self.points}

    @property
    def axes(self) -> list[tuple[str, tuple[Any, ...]]]:
        return [(v.path, v.values) for v in self.varies]

    def point_at(self, values: Sequence[Any]) -> dict[str, Any] | None:
        return self._by.get(tuple(repr(v) for v in values))

    def value_at(self, values: Sequence[Any]) -> float | None:
        p = self.point_at(values)
        return None if p is None else p.get("value")

    def interval_at(self, values: Sequence[Any]) -> tuple[float, float] | None:
        p = self.point_at(values)
        ci = None if p is None else p.get("ci95")
        return None if ci is None else (ci[0], ci[1])

    def table(self) -> list[dict[str, Any]]:
        """The points without engine details: what must agree between engines."""
        return [{k: p.get(k) for k in ("index", "values", "value", "exact", "error")}
                for p in self.points]

    @property
    def label(self) -> str:
        """The metric in words (a table's column, a picture's axis)."""
        if self.metric == "win_probability" and self.side is not None:
            return f"{self.side} win chance"
        return METRIC_WORDS[self.metric]

    def to_json(self) -> dict[str, Any]:
        side = {} if self.side is None else {"side": self.side}
        return {"metric": self.metric, **side, "engine": self.engine,
                "vary": {v.path: list(v.values) for v in self.varies},
                "points": self.points}


def _chunks(spec: SweepSpec, jobs: int) -> list[list[tuple[int, tuple[Any, ...]]]]:
    points = list(spec.points())
    most = 1 if spec.metric in FIGHT_METRICS else 32  # a fight point can take seconds
    return _chunks_of(points, jobs, most)


def _chunks_of(points: list[tuple[int, tuple[Any, ...]]], jobs: int, most: int = 32
               ) -> list[list[tuple[int, tuple[Any, ...]]]]:
    size = max(1, min(most, len(points) // max(1, jobs * 8)))
    return [points[i:i + size] for i in range(0, len(points), size)]


Progress = Callable[[int], None]


def _local(spec: SweepSpec, chunks: list[Any], jobs: int, progress: Progress | None,
           shared_pool: ProcessPoolExecutor | None = None,
           results: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The chunks' points, as they finish, into ``results`` (a list the caller keeps, so
    the points done before the time budget ran out are not lost with the error)."""
    results = [] if results is None else results
    if jobs <= 1 or len(chunks) == 1:
        for chunk in chunks:
            results.extend(evaluate_chunk(spec, chunk))
            if progress:
                progress(len(chunk))
        return results
    pool = shared_pool or worker_pool(jobs)
    # at most two chunks per worker in flight: Ctrl-C then waits only for those
    waiting = iter(chunks)
    running: set[Future[list[dict[str, Any]]]] = set()
    try:
        while True:
            while len(running) < 2 * jobs:
                chunk = next(waiting, None)
                if chunk is None:
                    break
                running.add(pool.submit(evaluate_chunk, spec, chunk))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                part = future.result()
                results.extend(part)
                if progress:
                    progress(len(part))
    except BaseException:
        if shared_pool is not None:
            for future in running:
                future.cancel()
        raise
    finally:
        if shared_pool is None:
            pool.shutdown(wait=True, cancel_futures=True)
    return results


def _dask(spec: SweepSpec, chunks: list[Any], address: str, progress: Progress | None
          ) -> list[dict[str, Any]]:
    from fracas.analysis.cluster import dask_map

    parts = dask_map(address, evaluate_chunk, chunks, [len(c) for c in chunks], progress,
                     shared=spec, timeout=CONNECT_TIMEOUT)
    return [point for part in parts for point in part]


def evaluate_points(spec: SweepSpec, points: Sequence[tuple[int, tuple[Any, ...]]],
                    jobs: int, scheduler: str | None = None,
                    progress: Progress | None = None,
                    pool: ProcessPoolExecutor | None = None,
                    finished: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The given points (index, values) of a started spec, in the order given: on local
    processes (``pool`` if one is kept across calls) or on the Dask cluster at
    ``scheduler``. Raises :class:`SweepOverBudget` past the spec's deadline; the local
    points finished by then are in ``finished``, when given."""
    chunks = [[p] for p in points] if spec.metric in FIGHT_METRICS else _chunks_of(
        list(points), jobs)
    if scheduler:
        done = _dask(spec, chunks, scheduler, progress)
    else:
        done = _local(spec, chunks, jobs, progress, pool, finished)
    order = {index: k for k, (index, _) in enumerate(points)}
    return sorted(done, key=lambda p: order[int(p["index"])])


def fight_option(metric: str, flag: str, shown: str | None = None) -> None:
    """Refuse ``flag`` (a fight metric's option: ``--method``, ``--fights``,
    ``--max-states``) given with an attack metric, which is always exact and would ignore
    it."""
    if metric in METRICS and metric not in FIGHT_METRICS:
        raise InputError(f"the metric {metric} is the attack's, always exact, so "
                         f"{shown or flag} would be ignored", path=flag,
                         allowed=f"{flag} with a fight metric (win_probability, "
                         f"mean_rounds), or no {flag}")


def check(spec: SweepSpec) -> str | None:
    """Fail early on a bad path, metric or size: the first point must load. Returns the
    side whose win counts, for ``win_probability``."""
    if spec.metric not in METRICS:
        raise InputError(f"unknown metric {spec.metric!r}", path="--metric",
                         allowed=", ".join(METRICS))
    if spec.method not in METHODS:
        raise InputError(f"unknown method {spec.method!r}", path="--method",
                         allowed=", ".join(METHODS))
    if spec.side is not None and spec.metric != "win_probability":
        raise InputError(f"the metric {spec.metric} counts no side's wins, so --side would "
                         "be ignored", path="--side",
                         allowed="--side with --metric win_probability, or no --side")
    if spec.method != "auto":
        fight_option(spec.metric, "--method", f"--method {spec.method}")
    if not spec.varies:
        raise InputError("nothing to vary", path="--vary", allowed="at least one --vary")
    check_varies(spec.varies)
    if spec.size > MAX_POINTS:
        raise InputError(f"{spec.size:,} points are too many", path="--vary",
                         allowed=f"at most {MAX_POINTS:,} points")
    from fracas.registry.scenarios import scenario_from_mapping

    first = next(spec.points())[1]
    try:
        scenario = scenario_from_mapping(spec.scenario_data(first), file=spec.file)
    except InputError as err:
        shown = ", ".join(f"{v.path}={x}" for v, x in zip(spec.varies, first, strict=True))
        raise InputError(f"at the first point ({shown}): {err.message}", file=err.file,
                         path=err.path, allowed=err.allowed) from None
    sides = scenario.roster.sides()
    if spec.metric in FIGHT_METRICS and spec.side is not None and spec.side not in sides:
        raise InputError(f"no side {spec.side!r}", path="--side", allowed=", ".join(sides))
    if spec.metric not in FIGHT_METRICS and scenario.attack is None:
        raise InputError("this scenario has no attack: entry, so only fight metrics apply",
                         path="--metric", allowed="win_probability, mean_rounds")
    return side_of(spec, scenario) if spec.metric == "win_probability" else None


def run_sweep(spec: SweepSpec, jobs: int | None = None, scheduler: str | None = None,
              progress: Progress | None = None) -> SweepResult:
    """Evaluate every point, locally (``jobs`` processes) or on a Dask cluster."""
    side = check(spec)
    jobs = jobs or os.cpu_count() or 1
    chunks = _chunks(spec, jobs)
    done = [0]

    def counted(k: int) -> None:
        done[0] += k
        if progress:
            progress(k)

    spec = spec.started()
    try:
        if scheduler:
            points = _dask(spec, chunks, scheduler, counted)
        else:
            points = _local(spec, chunks, jobs, counted)
    except SweepOverBudget as err:
        raise InputError(f"the sweep passed its time budget of {err.seconds:g} s after "
                         f"{done[0]:,} of {spec.size:,} points", path="--max-seconds",
                         allowed="a larger --max-seconds, fewer points, --method simulate "
                         "or a smaller --max-states or --fights") from None
    points.sort(key=lambda p: int(p["index"]))
    return SweepResult(spec.varies, spec.metric, points, "dask" if scheduler else "local",
                       side)
