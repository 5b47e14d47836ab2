"""``fracas schema``: the JSON Schema of a system's scenario files, for editors and tools."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from fracas.cli.base import app
from fracas.errors import InputError


def schema_text(system_id: str) -> str:
    from fracas.core.schema import scenario_schema
    from fracas.registry import get_system

    """The schema of ``system_id``'s scenario files as the JSON text ``schemas/`` holds."""
    return json.dumps(scenario_schema(get_system(system_id)), indent=2, ensure_ascii=False) + "\n"


@app.command("schema")
def schema_cmd(
    system: Annotated[str | None, typer.Argument(help="A system id (see `fracas systems`).",
                                                 show_default=False)] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="FOLDER",
        help="Write SYSTEM.json for every system (or SYSTEM's) into this folder.")
    ] = None,
) -> None:
    """Print the JSON Schema of a scenario file of SYSTEM (draft 2020-12)."""
    from fracas.registry import systems

    if out is None:
        if system is None:
            raise InputError("name a system, or give --out FOLDER for every system",
                             path="SYSTEM", allowed=", ".join(systems()))
        typer.echo(schema_text(system), nl=False)
        return
    if not out.is_dir():
        raise InputError("not a folder", file=str(out), allowed="an existing folder")
    for system_id in [system] if system else sorted(systems()):
        text = schema_text(system_id)
        (out / f"{system_id}.json").write_text(text, encoding="utf-8")
        typer.echo(f"wrote {out / f'{system_id}.json'}")
