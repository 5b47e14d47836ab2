"""C22 Systems (seed 000): card-driven attacks from each character's own deck.

See ``docs/systems/c22.md`` for the sheet, the options, the card notation and every
table default.
"""

from fracas.systems.c22.rules import C22

SYSTEM = C22

__all__ = ["C22", "SYSTEM"]
