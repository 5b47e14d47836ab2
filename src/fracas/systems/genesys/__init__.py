"""Genesys narrative dice and the six-step combat check (seed 004).

``SYSTEM`` is the rule system; ``GenesysPool`` is a whole dice pool as one random
variable (exact by dense convolution), ``PoolSpec`` and ``PoolResult`` its input
and value.
"""

from fracas.systems.genesys.dice import PoolResult, PoolSpec, Symbols
from fracas.systems.genesys.pool import GenesysPool, pool_distribution, pool_table
from fracas.systems.genesys.rules import Genesys

SYSTEM = Genesys

__all__ = ["SYSTEM", "Genesys", "GenesysPool", "PoolResult", "PoolSpec", "Symbols",
           "pool_distribution", "pool_table"]
