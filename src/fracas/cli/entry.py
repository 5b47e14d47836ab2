"""The ``fracas`` command's entry point: safe against Ctrl-C before anything is imported.

The command line's modules are imported inside :func:`main`, so a Ctrl-C while they load
(start-up) exits 130 with the one line ``fracas: interrupted``, as it does later on.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Run the ``fracas`` command (see :func:`fracas.cli.app.main`)."""
    try:
        from fracas.cli.app import main as run
    except KeyboardInterrupt:
        sys.stderr.write("fracas: interrupted\n")
        raise SystemExit(130) from None
    run()
