"""tristat: seed 003's 2d6 roll-under combat rules (BESM / Tri-Stat house rules)."""

from fracas.systems.tristat.rules import Tristat

SYSTEM = Tristat

__all__ = ["SYSTEM", "Tristat"]
