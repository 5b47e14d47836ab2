"""The ``fracas`` command's entry point: safe against Ctrl-C before anything is imported.

The command line's modules are imported inside :func:`main`, so a Ctrl-C while they load
(start-up) exits 130 with the one line ``fracas: interrupted``, as it does later on.

A finished command leaves the process at once (:func:`quick_exit`): the interpreter's own
teardown frees every module and cached object one by one, a tenth of a second or more
that nobody waits for on purpose.
"""

from __future__ import annotations

import sys


def main(*, exit_quickly: bool = True) -> None:
    """Run the ``fracas`` command (see :func:`fracas.cli.app.main`); with ``exit_quickly``
    (the command itself) the process ends as soon as it is done."""
    try:
        from fracas.cli.app import main as run
    except KeyboardInterrupt:
        sys.stderr.write("fracas: interrupted\n")
        raise SystemExit(130) from None
    try:
        run()
    except SystemExit as done:
        if exit_quickly:
            quick_exit(done.code)
        raise
    if exit_quickly:
        quick_exit(0)


def quick_exit(code: object) -> None:
    """End the process with ``code`` without the interpreter's teardown: the exit handlers
    run and the output is flushed first, as at a normal exit. Returns (and the normal exit
    follows) when it cannot be as safe: other threads still run, the code is a message,
    or the output cannot be flushed (a closed pipe: the normal exit reports it)."""
    import atexit
    import os
    import threading

    if code is None:
        code = 0
    if not isinstance(code, int) or threading.active_count() > 1:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    # the standard library has no public way to run the exit handlers before os._exit
    atexit._run_exitfuncs()  # noqa: SLF001
    atexit._clear()  # noqa: SLF001
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        code = code or 120  # what the interpreter's own exit gives when the flush fails
    os._exit(code)
