"""A plug-in that takes the id of a built-in system (the registry quarantines it)."""

from tests.toy import Duel


class Tristat(Duel):
    id = "tristat"
