"""Genesys narrative dice and the six-step combat check (seed 004).

``SYSTEM`` is the rule system; ``GenesysPool`` is a whole dice pool as one random
variable (exact by dense convolution), ``PoolSpec`` and ``PoolResult`` its input
and value. The names load on first use, so that ``fracas roll POOL`` reads a pool
(:mod:`fracas.systems.genesys.roll`) without loading the rules.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_WHERE = {
    "PoolResult": "fracas.systems.genesys.dice",
    "PoolSpec": "fracas.systems.genesys.dice",
    "Symbols": "fracas.systems.genesys.dice",
    "GenesysPool": "fracas.systems.genesys.pool",
    "pool_distribution": "fracas.systems.genesys.pool",
    "pool_table": "fracas.systems.genesys.pool",
    "Genesys": "fracas.systems.genesys.rules",
}

__all__ = ["SYSTEM", "Genesys", "GenesysPool", "PoolResult", "PoolSpec", "Symbols",
           "pool_distribution", "pool_table"]


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use (``SYSTEM`` is ``Genesys``)."""
    where = _WHERE.get("Genesys" if name == "SYSTEM" else name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where), "Genesys" if name == "SYSTEM" else name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from fracas.systems.genesys.dice import PoolResult, PoolSpec, Symbols
    from fracas.systems.genesys.pool import GenesysPool, pool_distribution, pool_table
    from fracas.systems.genesys.rules import Genesys

    SYSTEM = Genesys
