"""A long fight's cost per request: does the 1,200th decision cost what the 100th does?

One encounter played through a real ``fracas serve`` on loopback (SQLite; PostgreSQL with
--postgres), the GM answering every decision (its first option; the server rolls the
dice), each answer preceded by the view the page reads. The two sides never hurt each
other (their armour stops every blow), so the fight lasts as long as asked. Prints the
first and the last 100 decisions' (and views') p50/p95 side by side, and their ratio
(issue 40's goal: the last 100 within 1.5× of the first 100 at p50 and p95); beside
them, the first 100 of a fresh fight played alongside the long fight's last 100 (one
request each in turn), which meet the same load: on a shared machine, whose load changes
over a run, the last 100 compared with these says what the log's length costs.

    PYTHONPATH=src python benchmarks/long_fight.py [--decisions 1200] [--postgres] [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from tempfile import TemporaryDirectory

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from fracas.core.scenario import read_yaml  # noqa: E402
from fracas.web.testing import ServerProcess, throwaway_postgres  # noqa: E402


def scenario() -> dict:
    """The tristat duel with armour no blow gets through, and rounds enough."""
    raw = read_yaml(ROOT / "examples" / "tristat" / "duel-fight.yaml")
    raw["max_rounds"] = 5000
    raw["title"] = "A fight that does not end"
    for c in raw["combatants"]:
        c["armor"] = {"name": "plate of legend", "rating": 99}
    return dict(raw)


@contextlib.contextmanager
def database(postgres: bool, folder: Path) -> Iterator[str]:
    if postgres:
        with throwaway_postgres(durable=True) as url:
            yield url
    else:
        yield f"sqlite:///{folder / 'long.sqlite3'}"


class Fight:
    """One encounter played through the API: each step times the view the page reads and
    the GM's answer to the decision it shows (the first option; the server rolls)."""

    def __init__(self, http: httpx.Client, auth: dict[str, str]) -> None:
        self.http, self.auth = http, auth
        made = http.post("/api/encounters", headers=auth,
                         json={"scenario": scenario(), "seed": 1})
        assert made.status_code == 201, made.text
        self.eid = made.json()["id"]
        self.answers: list[float] = []
        self.views: list[float] = []

    def step(self) -> None:
        http, eid = self.http, self.eid
        start = time.perf_counter()
        view = http.get(f"/api/encounters/{eid}", headers=self.auth)
        self.views.append((time.perf_counter() - start) * 1000)
        body = view.json()
        assert not body["over"], "the fight ended: make it longer"
        decision = body["pending"]["decision"]
        answer = ({"option": decision["options"][0]["id"]} if decision.get("options")
                  else {"roll": True})
        start = time.perf_counter()
        r = http.post(f"/api/encounters/{eid}/decisions", headers=self.auth,
                      json={"version": body["version"], "answer": answer})
        self.answers.append((time.perf_counter() - start) * 1000)
        assert r.status_code == 200, r.text


def play(url: str, decisions: int, window: int) -> tuple[Fight, Fight]:
    """The long fight of ``decisions`` decisions, and a fresh fight whose first ``window``
    decisions alternate with the long fight's last ones (both then meet the same load on
    the machine: a shared machine's load changes over a run)."""
    with httpx.Client(base_url=url, timeout=60) as http:
        key = http.post("/api/gms").json()["key"]
        auth = {"Authorization": f"Bearer {key}"}
        long = Fight(http, auth)
        for _ in range(decisions - window):
            long.step()
        fresh = Fight(http, auth)
        for _ in range(window):
            long.step()
            fresh.step()
    return long, fresh


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=1200)
    parser.add_argument("--window", type=int, default=100, help="first and last N")
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--quick", action="store_true", help="150 decisions, windows of 50")
    args = parser.parse_args()
    if args.quick:
        args.decisions, args.window = 150, 50
    n = args.window
    with TemporaryDirectory() as folder, database(args.postgres, Path(folder)) as db:
        server = ServerProcess(db).start()
        try:
            long, fresh = play(server.url, args.decisions, n)
        finally:
            server.stop()
    name = "PostgreSQL" if args.postgres else "SQLite"
    print(f"One fight of {args.decisions:,} decisions on {name} (ms; its first and its "
          f"last {n}; and a fresh fight's first {n}, played alongside its last {n})")
    print(f"{'':24}{'first p50':>10}{'last p50':>10}{'ratio':>7}"
          f"{'first p95':>11}{'last p95':>10}{'ratio':>7}"
          f"{'fresh p50':>11}{'fresh p95':>10}{'last/fresh':>11}")
    worst = alongside = 0.0
    for label, times, beside in (("a decision (POST)", long.answers, fresh.answers),
                                 ("the view before (GET)", long.views, fresh.views)):
        first, last = times[:n], times[-n:]
        p50 = (pct(first, 50), pct(last, 50))
        p95 = (pct(first, 95), pct(last, 95))
        worst = max(worst, p50[1] / p50[0], p95[1] / p95[0])
        fresh = (pct(beside, 50), pct(beside, 95))
        against = max(p50[1] / fresh[0], p95[1] / fresh[1])
        alongside = max(alongside, against)
        print(f"{label:24}{p50[0]:10.1f}{p50[1]:10.1f}{p50[1] / p50[0]:7.2f}"
              f"{p95[0]:11.1f}{p95[1]:10.1f}{p95[1] / p95[0]:7.2f}"
              f"{fresh[0]:11.1f}{fresh[1]:10.1f}{against:11.2f}")
    print(f"worst ratio {worst:.2f} (goal: at most 1.5); against the fresh fight "
          f"alongside {alongside:.2f}")


if __name__ == "__main__":
    main()
