"""Issue 26, many tables: a server gets ready before its first table. Every rule system is
loaded and each example duel played once in memory (the first encounter of each system
took 40–110 ms more), then what start-up built is frozen out of the cycle collector's way
(its full collections were pauses of up to 190 ms at eight tables)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from fracas.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]


def test_warm_up_loads_every_system_and_plays_each_example_duel() -> None:
    probe = (
        "import json, sys\n"
        "from fracas.web.app import warm_up\n"
        "cold = warm_up()\n"
        "rules = sorted(m.split('.')[2] for m in sys.modules\n"
        "               if m.startswith('fracas.systems.') and m.endswith('.rules'))\n"
        "print(json.dumps({'cold': cold, 'rules': rules}))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=ROOT, timeout=120, check=True)
    found = json.loads(out.stdout)
    assert found["cold"] == []
    assert found["rules"] == ["c22", "contest", "genesys", "tristat", "zamani"]


def test_a_started_server_freezes_what_start_up_built(tmp_path: Path) -> None:
    gc.unfreeze()
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}")):
        assert gc.get_freeze_count() == 0  # an app inside another program: left alone
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", serving=True)):
        assert gc.get_freeze_count() > 10_000
    gc.unfreeze()
