"""Run picklable tasks on an existing Dask distributed cluster (``--scheduler``).

Shared by ``sweep`` and ``simulate``: connect with a timeout, optionally broadcast one
shared first argument, submit every task, report progress as parts finish, cancel what
is left on an error or Ctrl-C, and hand the results back in task order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fracas.errors import InputError

CONNECT_TIMEOUT = "10s"  # to reach a Dask scheduler

_NONE = object()


def dask_map(address: str, fn: Callable[..., Any], tasks: Sequence[Any],
             sizes: Sequence[int], progress: Callable[[int], None] | None = None,
             shared: Any = _NONE, timeout: str | None = None) -> list[Any]:
    """``[fn(task) ...]`` (or ``fn(shared, task)``) on the cluster at ``address``, in the
    order of ``tasks``; ``progress(sizes[i])`` is called as task ``i`` finishes."""
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise InputError("--scheduler needs Dask", path="--scheduler",
                         allowed="pip install 'fracas[cluster]'") from None
    try:
        client = Client(address, timeout=timeout or CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as err:
        raise InputError(f"cannot reach the Dask scheduler at {address}: {err}",
                         path="--scheduler", allowed="tcp://HOST:PORT of a running "
                         "dask scheduler") from None
    results: list[Any] = [None] * len(tasks)
    futures: list[Any] = []
    try:
        head: tuple[Any, ...] = ()
        if shared is not _NONE:
            head = (client.scatter(shared, broadcast=True),)  # type: ignore[no-untyped-call]
        futures = [client.submit(fn, *head, task, pure=False) for task in tasks]
        where = {future.key: i for i, future in enumerate(futures)}
        for future in dask_completed(futures):  # type: ignore[no-untyped-call]
            i = where[future.key]
            results[i] = future.result()
            if progress:
                progress(sizes[i])
    except BaseException:
        if futures:
            client.cancel(futures)  # type: ignore[no-untyped-call]
        raise
    finally:
        client.close()  # type: ignore[no-untyped-call]
    return results
