"""Drives a live session as a table would (player answers, typed dice, ``r``, undo and
redo, every ``gm`` command) while its log is written, and checks after every step that
the log reads back to the same session (``replay``) and goes on from there (``--resume``).
Used by the property test (tests/reliable/test_logs_read_back.py) and by hand."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path
from typing import Any

from rich.console import Console

from fracas.cli.live import command
from fracas.encounter.policies import POLICIES
from fracas.encounter.session import Session
from fracas.encounter.session_log import SessionLog, load_session
from fracas.errors import InputError
from fracas.registry.scenarios import load_scenario

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("tristat", "genesys", "c22", "contest", "zamani")
SCENARIOS = {s: ROOT / "examples" / s / "duel-fight.yaml" for s in SYSTEMS}
CONDITIONS = ("stunned", "prone", "blinded", "staggered", "disoriented", "surprised")


def state_of(session: Session) -> dict[str, Any]:
    """What must be the same live, replayed and resumed."""
    pending = session.pending
    return {
        "entries": [dict(e) for e in session.entries],
        "events": [e.to_dict() for e in session.events],
        "state": session.state,
        "pending": None if pending is None else (
            pending.kind, pending.who, pending.prompt,
            tuple(o.id for o in pending.options),
            None if pending.dice is None else pending.dice.to_dict()),
    }


class Table:
    """A session played through the terminal's commands, its log written as it goes."""

    def __init__(self, system: str, folder: Path, seed: int = 1, policy: int = 0,
                 roll_all: bool = False) -> None:
        scenario = load_scenario(SCENARIOS[system])
        people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
        if policy:  # one combatant (the first or the second) decided by fracas
            people[list(scenario.roster)[policy % 2]] = "aggressive"
        self.session = Session.start(scenario, seed=seed, controllers=people, odds=False,
                                     roll_all=roll_all)
        self.path = folder / "live.jsonl"
        self.folder = folder
        self.log = SessionLog.create(self.path, self.session)
        self.console = Console(file=io.StringIO(), width=100)
        self.said: list[str] = []
        self.added = 0

    # -- the inputs ---------------------------------------------------------------------
    def answer(self, pick: int, how: str) -> None:
        """Answer what is asked: an option (``pick`` of them), skip, or a policy."""
        pending = self.session.pending
        if pending is None:
            return
        if how == "skip":
            self._do(lambda: self.session.decide({"skip": True}), "skip")
        elif how == "policy":
            policy = list(POLICIES)[pick % len(POLICIES)]
            self._do(lambda: self.session.decide({"policy": policy, "turn": pick % 2 == 0}),
                     f"policy {policy}")
        elif pending.options:
            option = pending.options[pick % len(pending.options)].id
            self._do(lambda: self.session.decide({"option": option}), f"option {option}")
        else:
            self.line("r")

    def line(self, text: str) -> None:
        """A line typed at the prompt (dice, ``r``, ``u``, ``redo``, ``gm ...``)."""
        self._do(lambda: command(self.session, text, self.console, False), text)

    def gm_line(self, what: int, who: int, amount: int, words: int) -> str:
        """One of the GM's commands, its combatant and numbers drawn from the draws."""
        roster = list(self.session.state.roster)
        cid = roster[who % len(roster)] if roster else "nobody"
        policy = list(POLICIES)[words % len(POLICIES)]
        condition = CONDITIONS[words % len(CONDITIONS)]
        fields = ("health", "strain", "wounds", "willpower", "conditions")
        field = fields[words % len(fields)]
        commands = (
            "gm auto", f"gm auto {policy}", f"gm auto {cid} {policy}", f"gm hand {cid}",
            "gm skip", "gm init", f"gm hurt {cid} {amount}", f"gm heal {cid} {amount}",
            f"gm cond {cid} {condition} {amount % 3}", f"gm uncond {cid} {condition}",
            f"gm do a wild swing | damage {cid} {amount}",
            f"gm do a shove | roll 2d6 vs {amount}", f"gm set {cid} {field} {amount}",
            f"gm remove {cid}", "gm end the GM calls it",
            f"gm add {json.dumps(self.entry())}",
            f"gm join {('next', 'now', 'end', str(amount % 3))[words % 4]} "
            f"{json.dumps(self.entry())}")
        return commands[what % len(commands)]

    def entry(self) -> dict[str, Any]:
        """A new combatant: a copy of one of the scenario's, with a new id."""
        raw = self.session.scenario.raw["combatants"][self.added % 2]
        self.added += 1
        return {**raw, "id": f"extra{self.added}", "name": f"Extra {self.added}"}

    def _do(self, act: Any, said: str) -> None:
        self.said.append(said)
        with contextlib.suppress(InputError):  # refused: nothing changed (checked below)
            act()
        self.log.sync(self.session)

    # -- the checks ---------------------------------------------------------------------
    def check(self, resume: bool) -> None:
        """The log read back is the session; with ``resume``, play goes on from a
        session resumed from the log (as ``fracas play --resume`` does)."""
        live = state_of(self.session)
        assert state_of(load_session(self.path)) == live, self.said
        copy = self.folder / "resumed.jsonl"
        shutil.copyfile(self.path, copy)
        journal, resumed = SessionLog.resume(copy)
        assert state_of(resumed) == live, self.said
        if resume:
            self.log.detach()
            journal.detach()
            shutil.move(copy, self.path)
            self.log, self.session = SessionLog.resume(self.path)
        else:
            journal.detach()
