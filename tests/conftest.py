from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from fracas import registry
from tests.toy import Duel

# Hypothesis checks correctness here, not speed: on a busy 2-core machine its timing health
# check and per-example deadline fail tests that are right. Tests that bound time say so.
settings.register_profile("fracas", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("fracas")

TOY = Path(__file__).parent / "toy" / "examples"  # the test duel's examples (its package data)


@pytest.fixture(autouse=True, scope="session")
def _register_toy() -> Iterator[None]:
    registry.register(Duel)
    yield
    registry.unregister(Duel.id)


@pytest.fixture
def toy_dir() -> Path:
    return TOY


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             *args: str) -> tuple[int, str, str]:
    """``fracas ARGS`` in this process: (exit code, stdout, stderr)."""
    from fracas.cli.app import main

    monkeypatch.setattr(sys, "argv", ["fracas", *args])
    code = 0
    try:
        main()
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


# The test duel (tests/toy) stands for a third party's system: its fast and sampled paths
# are checked against steps by tests/encounter/test_simulate.py::
# test_fast_and_step_by_step_agree_on_the_test_fight and tests/analysis/test_sampled.py::
# test_sampled_and_step_by_step_agree_on_the_test_fight, so auto may pick them for it.
from fracas.analysis.auto import VERIFIED  # noqa: E402

VERIFIED["testduel"] = frozenset({"steps", "fast", "sampled"})
