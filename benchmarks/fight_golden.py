"""Every example fight plays out the same after a restructuring: save, then compare.

``--save DIR`` writes ``fracas fight FILE --seed 7 --log`` (the log) and its ``--json`` for
every example fight to DIR; ``--check DIR`` runs them again and names each one that differs
(exit 1). With ``benchmarks/odds_golden.py`` it pins behaviour across a change of structure.

Run: .venv/bin/python benchmarks/fight_golden.py --save /tmp/fights-main
     .venv/bin/python benchmarks/fight_golden.py --check /tmp/fights-main
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from odds_golden import golden
from startup import FRACAS, ROOT

SEED = "7"


def fight_output(path: Path) -> bytes:
    """The fight's log, then its JSON, as the command writes them for the fixed seed."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "fight.jsonl"
        out = subprocess.run([*FRACAS, "fight", str(path.relative_to(ROOT)), "--seed", SEED,
                              "--log", str(log), "--json"], cwd=ROOT, capture_output=True,
                             check=False)
        if out.returncode != 0:
            raise SystemExit(f"fracas fight {path} failed: {out.stderr.decode()[-400:]}")
        return log.read_bytes() + b"\n" + out.stdout


def main() -> None:
    fights = sorted(ROOT.glob("examples/*/*fight*.yaml"))
    golden(((f"{p.parent.name}__{p.stem}.txt", lambda p=p: fight_output(p)) for p in fights),
           "fight log and JSON")


if __name__ == "__main__":
    main()
