"""The contest rule system (seed 001): skill-contest attacks with boons and banes."""

from fracas.systems.contest.rules import ContestSystem

SYSTEM = ContestSystem

__all__ = ["SYSTEM", "ContestSystem"]
