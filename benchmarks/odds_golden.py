"""Exact figures stay exact while the odds get faster: save, then compare byte for byte.

``--save DIR`` writes ``fracas odds FILE --json`` of every attack example (the ones
benchmarks/startup.py times) to DIR; ``--check DIR`` runs them again and names each file
whose output differs from the saved one (exit 1), so a speed change that moves any figure
is caught. Save from main before changing anything, check after each change.

Run: .venv/bin/python benchmarks/odds_golden.py --save /tmp/odds-main
     .venv/bin/python benchmarks/odds_golden.py --check /tmp/odds-main
     .venv/bin/python benchmarks/odds_golden.py --quick   (the first two examples saved to a
     scratch folder and checked against it: that the script runs, as `make test` does)
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from startup import FRACAS, ROOT, attack_examples


def odds_json(path: Path) -> bytes:
    """The exact odds of one example as ``fracas odds --json`` prints them."""
    out = subprocess.run([*FRACAS, "odds", str(path.relative_to(ROOT)), "--json"], cwd=ROOT,
                         capture_output=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"fracas odds {path} failed: {out.stderr.decode()[-400:]}")
    return out.stdout


def saved_name(path: Path) -> str:
    return f"{path.parent.name}__{path.stem}.json"


def golden(outputs: Iterable[tuple[str, Callable[[], bytes]]], what: str) -> None:
    """``--save DIR`` or ``--check DIR`` for named outputs (``name``, how to make it);
    ``--quick``: the first two saved to a scratch folder, then checked against it."""
    parser = argparse.ArgumentParser()
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=Path, help=f"Write every example's {what} here.")
    mode.add_argument("--check", type=Path, help=f"Compare every example's {what} with "
                      "the files saved here.")
    mode.add_argument("--quick", action="store_true",
                      help="Save the first two to a scratch folder and check them again.")
    args = parser.parse_args()
    if args.quick:
        chosen = list(itertools.islice(outputs, 2))
        with tempfile.TemporaryDirectory() as tmp:
            compare(chosen, what, save=Path(tmp))
            compare(chosen, what, check=Path(tmp))
        return
    compare(outputs, what, save=args.save, check=args.check)


def compare(outputs: Iterable[tuple[str, Callable[[], bytes]]], what: str,
            save: Path | None = None, check: Path | None = None) -> None:
    """Write each output to ``save``, or compare it with the one saved in ``check``."""
    differ = []
    for name, make in outputs:
        data = make()
        if save is not None:
            save.mkdir(parents=True, exist_ok=True)
            (save / name).write_bytes(data)
            continue
        assert check is not None
        saved = check / name
        same = saved.exists() and saved.read_bytes() == data
        print(f"{'same' if same else 'DIFFERS'}  {name}", flush=True)
        if not same:
            differ.append(name)
    if differ:
        print(f"{what} changed:\n  " + "\n  ".join(differ))
        sys.exit(1)
    if check is not None:
        print(f"Every example's {what} is byte for byte the saved one.")


def main() -> None:
    golden(((saved_name(p), lambda p=p: odds_json(p)) for p in attack_examples()),
           "odds JSON")


if __name__ == "__main__":
    main()
