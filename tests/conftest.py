from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from fracas.core import registry
from tests.toy import Duel

# Hypothesis checks correctness here, not speed: on a busy 2-core machine its timing health
# check and per-example deadline fail tests that are right. Tests that bound time say so.
settings.register_profile("fracas", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("fracas")

TOY = Path(__file__).parent / "toy"


@pytest.fixture(autouse=True, scope="session")
def _register_toy() -> Iterator[None]:
    registry.register(Duel)
    yield
    registry.unregister(Duel.id)


@pytest.fixture
def toy_dir() -> Path:
    return TOY
