"""A fuzz of the real ``fracas`` command (issue 26): generated bad input, each case in a
fresh process, never a traceback, a hang, a crash signal, an unclear error, or wrong input
accepted in silence (see :mod:`tests.foundation.cli_fuzz` for the cases).

The test suite runs a fixed sample of :data:`SAMPLE` cases (derandomized: the same cases on
every run). ``FRACAS_CLI_FUZZ=N`` runs N random cases instead and prints the count of each
outcome, e.g. ``FRACAS_CLI_FUZZ=500 pytest -s tests/foundation/test_cli_fuzz.py``.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

from tests.foundation.cli_fuzz import CASES, OUTCOMES, Case, run_case

SAMPLE = 24
WANTED = int(os.environ.get("FRACAS_CLI_FUZZ", "0"))


def test_generated_bad_input_never_breaks_the_command() -> None:
    counts: Counter[str] = Counter()
    found: list[str] = []

    @settings(max_examples=WANTED or SAMPLE, deadline=None, database=None,
              derandomize=not WANTED, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(CASES)
    def one(case: Case) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            outcome, err = run_case(case, Path(tmp))
        counts[outcome] += 1
        if outcome != "ok":
            found.append(f"{outcome}: {case.what}: {case.argv[:4]}\n{err[-600:]}")

    one()
    total = sum(counts.values())
    print(f"\ncli fuzz: {total} cases: " + ", ".join(f"{k} {counts[k]}" for k in OUTCOMES))
    assert total >= min(WANTED or SAMPLE, SAMPLE)
    assert not found, "\n".join(f.split("\n", 1)[0] for f in found) + "\n\n" + "\n\n".join(
        found[:5])
