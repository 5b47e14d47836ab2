"""Helpers of the format tests: run the ``fracas`` command in-process, edit example files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import run_main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Run:
    """``run("attack", "x.yaml")`` -> (exit code, stdout, stderr)."""

    def _run(*args: str) -> tuple[int, str, str]:
        return run_main(monkeypatch, capsys, *args)

    return _run


def example(name: str) -> dict[str, Any]:
    """An example scenario, parsed (``"contest/dodge"``)."""
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())
    return data


def write(tmp_path: Path, data: Any, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False))
    return path
