"""A long fight's cost per request: does the 1,200th decision cost what the 100th does?

One encounter played through a real ``fracas serve`` on loopback (SQLite; PostgreSQL with
--postgres), the GM answering every decision (its first option; the server rolls the
dice), each answer preceded by the view the page reads. The two sides never hurt each
other (their armour stops every blow), so the fight lasts as long as asked. Prints the
first and the last 100 decisions' (and views') p50/p95 side by side, and their ratio
(issue 40's goal: the last 100 within 1.5× of the first 100 at p50 and p95).

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


def play(url: str, decisions: int) -> tuple[list[float], list[float]]:
    """Milliseconds of each decision and of the view before it."""
    answers: list[float] = []
    views: list[float] = []
    with httpx.Client(base_url=url, timeout=60) as http:
        key = http.post("/api/gms").json()["key"]
        auth = {"Authorization": f"Bearer {key}"}
        made = http.post("/api/encounters", headers=auth,
                         json={"scenario": scenario(), "seed": 1})
        assert made.status_code == 201, made.text
        eid = made.json()["id"]
        for _ in range(decisions):
            start = time.perf_counter()
            view = http.get(f"/api/encounters/{eid}", headers=auth)
            views.append((time.perf_counter() - start) * 1000)
            body = view.json()
            assert not body["over"], "the fight ended: make it longer"
            decision = body["pending"]["decision"]
            answer = ({"option": decision["options"][0]["id"]} if decision.get("options")
                      else {"roll": True})
            start = time.perf_counter()
            r = http.post(f"/api/encounters/{eid}/decisions", headers=auth,
                          json={"version": body["version"], "answer": answer})
            answers.append((time.perf_counter() - start) * 1000)
            assert r.status_code == 200, r.text
    return answers, views


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
            answers, views = play(server.url, args.decisions)
        finally:
            server.stop()
    name = "PostgreSQL" if args.postgres else "SQLite"
    print(f"One fight of {args.decisions:,} decisions on {name} (ms; the first and the "
          f"last {n})")
    print(f"{'':24}{'first p50':>10}{'last p50':>10}{'ratio':>7}"
          f"{'first p95':>11}{'last p95':>10}{'ratio':>7}")
    worst = 0.0
    for label, times in (("a decision (POST)", answers), ("the view before (GET)", views)):
        first, last = times[:n], times[-n:]
        p50 = (pct(first, 50), pct(last, 50))
        p95 = (pct(first, 95), pct(last, 95))
        worst = max(worst, p50[1] / p50[0], p95[1] / p95[0])
        print(f"{label:24}{p50[0]:10.1f}{p50[1]:10.1f}{p50[1] / p50[0]:7.2f}"
              f"{p95[0]:11.1f}{p95[1]:10.1f}{p95[1] / p95[0]:7.2f}")
    print(f"worst ratio {worst:.2f} (goal: at most 1.5)")


if __name__ == "__main__":
    main()
