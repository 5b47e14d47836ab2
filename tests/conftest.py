from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fracas.core import registry
from tests.toy import Duel

TOY = Path(__file__).parent / "toy"


@pytest.fixture(autouse=True, scope="session")
def _register_toy() -> Iterator[None]:
    registry.register(Duel)
    yield
    registry.unregister(Duel.id)


@pytest.fixture
def toy_dir() -> Path:
    return TOY
