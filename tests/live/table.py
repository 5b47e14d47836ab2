"""A table playing ``fracas play``: the lines a person types, chosen by looking at what
the terminal asks, fed to the command's own loop (:func:`fracas.cli.live._loop`) with
its output recorded — the same code the command runs — and the words it printed checked
for code identifiers."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from rich.console import Console

from fracas.cli import live
from fracas.cli.menus import Composer
from fracas.encounter.decisions import page_of
from fracas.encounter.session import Session
from fracas.registry.scenarios import load_scenario
from tests.live.hands import hand_values

MAX_LINES = 4000


@dataclass
class Played:
    """A fight played at the terminal: the session, the lines typed, what was printed,
    and the longest list any prompt showed."""

    session: Session
    lines: list[str] = field(default_factory=list)
    output: str = ""
    longest: int = 0
    longest_at: str = ""


def _typed(values: list[object]) -> str:
    return ",".join(map(str, values))


def party(path: str) -> list[str]:
    """The combatants a table's players hold in ``path``: its sheets marked ``player:
    true``, else the combatants of the first side listed."""
    roster = load_scenario(path).roster
    marked = [cid for cid, c in roster.items() if getattr(c.sheet, "player", False)]
    first = next(iter(roster.values())).side
    return marked or [cid for cid, c in roster.items() if c.side == first]


def party_args(path: str) -> list[str]:
    """``fracas play``'s options for :func:`party`'s players (fracas rolls the rest)."""
    return ["--player", ",".join(party(path))]


def play(path: str, seed: int = 5, usual: float = 0.7, roll: float = 0.0,
         verbose: bool = False, table: bool = False) -> Played:
    """Play ``path`` to its end at the terminal: actions composed step by step (the usual
    attack ``a`` most times, else a random action key by key), random reactions and
    choices, dice typed as the table shows them (or ``r`` with chance ``roll``);
    ``verbose``: every event told with its rule, as ``--verbose`` (and ``e``) tell them.
    ``table``: who rolls as ``fracas play`` has it by default, with :func:`party`'s
    players (their dice typed, fracas rolling the GM side's); else every die is typed."""
    scenario = load_scenario(path)
    people = {**dict.fromkeys(scenario.roster, "person"), "gm": "person"}
    session = Session.start(scenario, seed=seed, controllers=people,
                            **({"gm_dice": "fracas", "players": party(path)} if table else {}))
    rng = random.Random(f"{path}:{seed}")
    played = Played(session)
    composer = Composer()
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, force_terminal=False,
                      highlight=False)

    def note(count: int, where: str) -> None:
        if count > played.longest:
            played.longest, played.longest_at = count, where

    def lines() -> Iterator[tuple[int, str]]:
        keys: list[str] = []
        for number in range(1, MAX_LINES):
            p = session.pending
            if p is None:
                return
            if p.kind == "dice":
                keys = []
                if rng.random() < roll:
                    line = "r"
                else:
                    values = hand_values(p, rng)
                    line = _typed(values) if p.dice is None or p.dice.typed != "symbols" \
                        else str(values[0]).replace("-", "")
            elif p.menu is not None:
                step = composer.step(session)
                assert step is not None
                note(len(step.entries), f"{p.prompt} · {step.title}")
                if not keys and composer.draft == type(composer.draft)():
                    if rng.random() < usual and p.menu.usual() is not None:
                        keys = ["a"]
                    else:
                        keys = p.menu.keys_for(rng.randrange(len(p.options)))
                line = keys.pop(0) if keys else ""
            else:
                keys = []
                note(len(page_of(p.options, 0)[0]), p.prompt)
                line = rng.choice(p.options).id
            played.lines.append(line)
            yield number, line
        raise AssertionError(f"{path}: no end after {MAX_LINES} lines")

    live.narrate(console, tuple(session.events), verbose, session)
    live._loop(session, console, lines(), verbose, True, None)
    played.output = buffer.getvalue()
    return played


IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b(?:None|True|False)\b"
                        r"|\b[A-Za-z_]+=[^\s,]+")


def identifiers(played: Played) -> list[str]:
    """Identifier-shaped tokens in what the terminal printed: snake_case, ``None``,
    ``True``, ``False``, ``key=value``, and combatant ids where the name differs."""
    text = played.output
    found = [m.group(0) for m in IDENTIFIER.finditer(text)]
    roster = played.session.scenario.roster
    names = {c.name for c in roster.values()}  # and the sheets' own words (a weapon's name)
    names |= {str(w.get("name")) for entry in played.session.scenario.raw["combatants"]
              for w in dict(entry.get("sheet", entry)).get("weapons") or []
              if isinstance(w, dict)}
    stripped = text
    for name in sorted(names, key=len, reverse=True):  # a name wrapped at a line end too
        spaced = r"\s+".join(map(re.escape, name.split()))
        stripped = re.sub(spaced, " ", stripped) if spaced else stripped
    for cid, c in roster.items():
        if cid != c.name:
            found += re.findall(rf"(?<![\w/.-]){re.escape(cid)}(?![\w/.-])", stripped)
    return found
