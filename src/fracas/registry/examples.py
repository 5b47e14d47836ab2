"""Each system's example scenarios, found where the system ships them.

A system's examples are the YAML files of its :meth:`~fracas.core.system.RuleSystem.examples_dir`
(package data: ``<package>/examples/*.yaml`` beside its ``data/``), so an installed
plug-in's examples are found through its entry point like its rules. The built-in
systems' examples stay in the source checkout's ``examples/<id>/`` (the paths the docs,
the README and the tests use, and what the project's editable install reads): the
registry reads that folder for a built-in system whose package has no ``examples``.

An example is named ``<system id>/<file>`` (``tristat/duel-fight.yaml``); a fight is an
example whose file ends ``-fight.yaml``. Its title and its one-line description come from
the scenario (``title:``, ``description:``), else from the file's first comment line.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fracas.core.scenario import read_yaml
from fracas.errors import FracasError, InputError
from fracas.registry import BUILTIN, get_system, systems

CHECKOUT = Path(__file__).resolve().parents[3] / "examples"  # a source checkout's folder


@dataclass(frozen=True)
class Example:
    """One example scenario: its name (``<system>/<file>``), system, file, what the GM
    reads of it (a title, a one-line description) and whether it is a whole fight."""

    name: str
    system: str
    path: Path
    title: str
    description: str

    @property
    def fight(self) -> bool:
        return self.name.endswith("-fight.yaml")

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "system": self.system, "title": self.title,
                "description": self.description, "fight": self.fight}


def examples_dir(system_id: str) -> Path | None:
    """Where the system's examples are: its package's (:meth:`RuleSystem.examples_dir`),
    else for a built-in system the source checkout's ``examples/<id>``; None if neither."""
    shipped = get_system(system_id).examples_dir()
    if shipped.is_dir():
        return shipped
    checkout = CHECKOUT / system_id
    if system_id in BUILTIN and checkout.is_dir():
        return checkout
    return None


@functools.cache
def all_examples() -> tuple[Example, ...]:
    """Every example of every loaded system (a broken plug-in has none), by name."""
    found = []
    for system_id in systems():
        try:
            folder = examples_dir(system_id)
        except FracasError:
            continue
        if folder is None:
            continue
        found += [_example(system_id, path) for path in sorted(folder.glob("*.yaml"))]
    return tuple(sorted(found, key=lambda e: e.name))


def example_names() -> list[str]:
    """The names of every example (``<system>/<file>``), sorted."""
    return [e.name for e in all_examples()]


def find_example(name: str) -> Example:
    """The example of that name; an unknown name is an InputError naming the fights."""
    for example in all_examples():
        if example.name == name:
            return example
    raise InputError(f"no example {name!r}", path="example",
                     allowed=", ".join(e.name for e in all_examples() if e.fight))


def load_example(name: str) -> Any:
    """The mapping of an example scenario, standing alone (a table file it names in its
    folder is put inline); an unknown name is an InputError naming the fights."""
    example = find_example(name)
    raw = read_yaml(example.path)
    rules = raw.get("rules") if isinstance(raw, dict) else None
    if isinstance(rules, dict):
        try:
            system = get_system(str(raw.get("system")))
            raw["rules"] = system.inline_files(rules, example.path.parent)
        except InputError as err:
            raise err.located(file=name) from None
    return raw


def _example(system_id: str, path: Path) -> Example:
    name = f"{system_id}/{path.name}"
    try:
        raw = read_yaml(path)
    except InputError:
        raw = None
    raw = raw if isinstance(raw, dict) else {}
    comment = _first_comment(path)
    title = str(raw.get("title") or _one_line(comment) or path.stem.replace("-", " "))
    description = str(raw.get("description") or comment)
    if _one_line(description) == title:
        description = ""
    return Example(name, system_id, path, title, _one_line(description))


def _first_comment(path: Path) -> str:
    """The file's first block of comment lines (not an editor's directive), joined."""
    block: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        words = text.lstrip("#").strip()
        if text.startswith("#") and words and not words.startswith("yaml-language-server"):
            block.append(words)
        elif block or (text and not text.startswith("#")):
            break
    return " ".join(block)


LINE = 110  # the most characters of an example's one line


def _one_line(text: str) -> str:
    """The first sentence of a description, on one line of at most :data:`LINE`
    characters (cut with an ellipsis)."""
    flat = " ".join(text.split())
    first = re.split(r"(?<=[.!?])\s", flat, maxsplit=1)[0]
    return first if len(first) <= LINE else first[:LINE - 3].rstrip() + "…"
