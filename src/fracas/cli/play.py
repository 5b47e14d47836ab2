"""``fracas play``: run a live fight at the table, in a terminal or from a script.

Only the command's options are declared here, so that start-up stays light; the screen
and the loop (with the rules, the session and Rich) load when the command runs
(:mod:`fracas.cli.live`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fracas.cli.base import SeedOpt, app
from fracas.cli.fights import POLICY_NAMES


@app.command()
def play(
    file: Annotated[Path | None, typer.Argument(
        metavar="FILE", help="A fight file (YAML); not needed with --resume.",
        show_default=False)] = None,
    log: Annotated[Path | None, typer.Option(
        "--log", metavar="FILE", help="Save the session's log here (JSON Lines), after every "
        "input.")] = None,
    resume: Annotated[Path | None, typer.Option(
        "--resume", metavar="FILE", help="Go on with a saved log (and keep saving to it).")
                      ] = None,
    seed: SeedOpt = None,
    script: Annotated[Path | None, typer.Option(
        "--script", metavar="FILE", help="Read the commands from this file, one a line.")
                      ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", help="Every event, with its rule.")
                       ] = False,
    control: Annotated[list[str] | None, typer.Option(
        "--control", metavar="ID=WHO", help="Who decides for a combatant: ID=person, or "
        f"ID=POLICY ({', '.join(POLICY_NAMES)}) for the computer; repeatable. "
        "Default: a person decides for everybody (the players and the GM).")] = None,
    roll_all: Annotated[bool, typer.Option("--roll-all", help="Roll every die, the "
                                           "players' too; people only decide.")] = False,
    player: Annotated[list[str] | None, typer.Option(
        "--player", metavar="ID", help="A player's combatant: its dice are asked at the "
        "table (typed, or r); repeatable. Sheets with player: true are players' too.")
                      ] = None,
    gm_dice: Annotated[list[str] | None, typer.Option(
        "--gm-dice", metavar="[ID=]WHO", help="Who rolls the dice of the combatants no "
        "player holds: fracas (the default: it rolls and says what) or typed (the GM types "
        "them, or r); ID=typed or ID=fracas for one combatant (a policy's included); "
        "repeatable.")] = None,
) -> None:
    """Play a fight live: people decide, dice from the table or rolled, with the odds of
    every choice (type ? for help)."""
    from fracas.cli.live import run

    run(file, log, resume, seed, script, verbose, control, roll_all,
        players=player or [], gm_dice=gm_dice or [])
