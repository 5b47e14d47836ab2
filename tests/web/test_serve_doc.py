"""docs/serve.md's whole fight driven by httpx, run as it stands in a fresh process against
a real server on a loopback port: it plays the fight to its end."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from fracas.web.testing import ServerProcess

DOC = Path(__file__).resolve().parents[2] / "docs" / "serve.md"


def test_the_documented_httpx_fight_plays_to_its_end(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    (script,) = [b for b in blocks if "/api/encounters" in b]
    server = ServerProcess(str(tmp_path / "t.sqlite3")).start()
    try:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=300, env={**os.environ, "FRACAS_URL": server.url})
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert any("Rin rolls" in line for line in lines), lines[:20]
    assert "Fight over" in lines[-1], lines[-5:]
