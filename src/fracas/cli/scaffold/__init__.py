"""``fracas new-system NAME [DIR]``: a new rule system as a package of its own.

It writes the templates of ``template/`` (package data) into ``DIR`` with the system's
names put in: a small, real system (d20 + attack against a defence, natural 20 critical,
hit points, initiative each round) with its sheet model, data pack (weapons, words,
defaults), two examples (an attack with pinned dice and a whole fight), a docs page and
tests running the conformance kit and the identifier check. It installs with pip and
passes conformance as written: the place to start (docs/plugins.md).
"""

from __future__ import annotations

import keyword
import re
from pathlib import Path
from string import Template
from typing import Annotated

import typer

from fracas.cli.base import app
from fracas.errors import InputError

TEMPLATE = Path(__file__).parent / "template"
NAME = re.compile(r"[a-z][a-z0-9]{0,29}")


def names(system_id: str, title: str | None) -> dict[str, str]:
    """The names the templates use: the id, a title, the distribution, the import
    package and the class."""
    from fracas.registry import BUILTIN

    if not NAME.fullmatch(system_id) or keyword.iskeyword(system_id):
        raise InputError(f"{system_id!r} cannot be a system's id", path="NAME",
                         allowed="a lower-case letter, then up to 29 lower-case letters "
                                 "or digits (e.g. duel20)")
    if system_id in BUILTIN:
        raise InputError(f"{system_id!r} is the id of a system built into fracas",
                         path="NAME", allowed="an id of its own (not "
                                              f"{', '.join(sorted(BUILTIN))})")
    return {"id": system_id, "title": title or system_id.capitalize(),
            "dist": f"fracas-{system_id}", "package": f"fracas_{system_id}",
            "Class": system_id.capitalize() + "System"}


def write_package(system_id: str, folder: Path, title: str | None = None) -> list[Path]:
    """Write the new package into ``folder`` (which must be empty or absent); the files
    written."""
    words = names(system_id, title)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise InputError("the folder is not empty", file=str(folder), path="DIR",
                         allowed="a new folder, or an empty one")
    written = []
    for source in sorted(TEMPLATE.rglob("*.tmpl")):
        relative = source.relative_to(TEMPLATE).with_suffix("")
        parts = [words["package"] if p == "PACKAGE" else p for p in relative.parts]
        target = folder.joinpath(*parts)
        if target.name == "ID.md":
            target = target.with_name(f"{system_id}.md")
        target.parent.mkdir(parents=True, exist_ok=True)
        text = Template(source.read_text(encoding="utf-8")).substitute(words)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written


@app.command("new-system")
def new_system(
    name: Annotated[str, typer.Argument(metavar="NAME",
                                        help="The new system's id (e.g. duel20).")],
    folder: Annotated[Path | None, typer.Argument(
        metavar="DIR", help="Where to write the package (default: ./fracas-NAME).")] = None,
    title: Annotated[str | None, typer.Option(
        metavar="TITLE", help="The system's title (default: NAME capitalised).")] = None,
) -> None:
    """Write a new rule system as a package of its own, ready to install and to grow."""
    where = folder if folder is not None else Path(f"fracas-{name}")
    written = write_package(name, where, title)
    words = names(name, title)
    typer.echo(f"wrote the {words['title']} system ({len(written)} files) in {where}:")
    for path in written:
        typer.echo(f"  {path.relative_to(where)}")
    typer.echo(f"next: pip install -e {where}   then   cd {where} && python -m pytest\n"
               f"      fracas fight {where}/src/{words['package']}/examples/duel-fight.yaml\n"
               f"start with src/{words['package']}/rules.py; the guide: docs/plugins.md")
