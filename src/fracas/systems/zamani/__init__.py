"""Zamani (seed 002): percentile skill rolls on an action table, the 10-to-1 initiative
countdown with extra segments, guard, focus, sacrifice and surprise.

See ``docs/systems/zamani.md``. The countdown is a pure API: :func:`countdown`.
"""

from fracas.systems.zamani.countdown import Countdown, countdown, segments_for
from fracas.systems.zamani.rules import Zamani
from fracas.systems.zamani.table import ActionTable, load_action_table

SYSTEM = Zamani

__all__ = ["SYSTEM", "ActionTable", "Countdown", "Zamani", "countdown", "load_action_table",
           "segments_for"]
