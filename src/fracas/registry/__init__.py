"""The registry of rule systems, by id.

Built-in systems are the packages under ``fracas.systems`` that export ``SYSTEM``
(their :class:`~fracas.core.system.RuleSystem` subclass). :data:`BUILTIN` maps each
built-in id to its package, so finding one system imports that package alone; the
others, and the entry points, load only when a listing (:func:`systems`) or an id that
is not built in needs them. Third parties add systems through the ``fracas.systems``
entry point group::

    [project.entry-points."fracas.systems"]
    mysystem = "my_package.rules:MySystem"

Tests and scripts may also call :func:`register` directly.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from fracas.errors import FracasError, UnknownSystemError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from fracas.core.system import RuleSystem

# Built-in system id -> its package (a test checks this against the packages themselves).
BUILTIN: dict[str, str] = {
    "c22": "fracas.systems.c22",
    "contest": "fracas.systems.contest",
    "genesys": "fracas.systems.genesys",
    "tristat": "fracas.systems.tristat",
    "zamani": "fracas.systems.zamani",
}

# Built-in systems with a ``fracas roll`` notation of their own -> the light module that
# reads it (module functions ``parse_roll`` and ``roll_problem``, the same as the system's
# hooks), so that a roll loads neither the rules nor any other system (a test checks that
# no other built-in system has a notation).
ROLL_NOTATION: dict[str, str] = {"genesys": "fracas.systems.genesys.roll"}

# Built-in systems with commands of their own -> their ``commands`` hook (the module whose
# ``build_app`` the command line mounts as ``fracas <id>``), so that ``fracas --help`` lists
# them without importing any system (a test checks it against each system's hook).
COMMANDS: dict[str, str] = {"zamani": "fracas.systems.zamani.cli"}


class RollReader(Protocol):
    """What reads a system's own ``fracas roll`` notation (see ``RuleSystem.parse_roll``)."""

    def parse_roll(self, expression: str) -> Any | None: ...


_REGISTERED: dict[str, type[RuleSystem]] = {}
_BROKEN: dict[str, Broken] = {}  # what failed to load, by the name it goes by: id -> why
_CLASHES: dict[str, tuple[str, ...]] = {}  # a system id two installed packages give -> them
_PLUGINS: dict[str, Plugin] = {}  # each loaded plug-in's system id -> where it came from
_DISCOVERED = False
_PLUGINS_LOADED = False
GROUP = "fracas.systems"  # the entry point group a third-party system registers in


@dataclass(frozen=True)
class Broken:
    """A system that could not be loaded: the name it goes by (a built-in package's, or
    an entry point's), the package it comes from and why (quarantined: every other
    system works)."""

    name: str
    package: str
    reason: str


@dataclass(frozen=True)
class Plugin:
    """Where a third-party system came from: its distribution (``fracas-duel20 0.1``),
    its entry point (``name = module:Class``) and the folder of its top-level package
    (a traceback through code there is the plug-in's: :func:`blame`)."""

    system_id: str
    package: str
    entry_point: str
    folder: Path | None


def register(system: type[RuleSystem]) -> type[RuleSystem]:
    """Add a system class (usable as a decorator). Re-registering an id replaces it."""
    from fracas.core.system import RuleSystem

    if not (isinstance(system, type) and issubclass(system, RuleSystem)):
        raise TypeError(f"{system!r} is not a RuleSystem subclass")
    _REGISTERED[system.id] = system
    return system


def unregister(system_id: str) -> None:
    _REGISTERED.pop(system_id, None)


def _load_builtin(name: str) -> None:
    """Import the built-in package ``fracas.systems.<name>`` and register its ``SYSTEM``
    (unless a system of that id was registered first); a failure is kept in
    :func:`broken`, so that one broken package does not hide the others."""
    if name in _BROKEN:
        return
    try:
        module = importlib.import_module(f"fracas.systems.{name}")
    except Exception as err:
        _BROKEN[name] = Broken(name, "fracas", f"{type(err).__name__}: {err}")
        return
    system = getattr(module, "SYSTEM", None)
    if system is not None:
        _REGISTERED.setdefault(system.id, system)


def _discover() -> None:
    """Every built-in package and every entry point, once."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    import fracas.systems as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        _load_builtin(info.name)
    _load_plugins()
    _DISCOVERED = True


def _package_of(ep: EntryPoint) -> str:
    """The distribution an entry point comes from, as ``name version``."""
    dist = getattr(ep, "dist", None)
    if dist is None:
        return f"the package of {ep.value}"
    return f"{dist.metadata['Name']} {dist.version}"


def _load_plugins() -> None:
    """Every system of the ``fracas.systems`` entry point group, once. A plug-in that
    fails to import, is not a rule system, or takes an id already taken is quarantined
    (:func:`broken` says why): it never stops fracas or another system."""
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED:
        return
    from importlib.metadata import entry_points

    from fracas.core.system import RuleSystem

    for ep in entry_points(group=GROUP):
        package = _package_of(ep)
        try:
            loaded = ep.load()
        except BaseException as err:  # a broken third-party plugin must not break fracas
            if isinstance(err, KeyboardInterrupt):
                raise
            _BROKEN[ep.name] = Broken(ep.name, package, f"{type(err).__name__}: {err}")
            continue
        if not (isinstance(loaded, type) and issubclass(loaded, RuleSystem)
                and isinstance(getattr(loaded, "id", None), str) and loaded.id):
            _BROKEN[ep.name] = Broken(ep.name, package, f"{ep.value} is not a RuleSystem "
                                      "subclass with an id")
            continue
        _add_plugin(loaded, Plugin(loaded.id, package, f"{ep.name} = {ep.value}",
                                   _folder_of(loaded)))
    _PLUGINS_LOADED = True


def _folder_of(system: type[RuleSystem]) -> Path | None:
    """The folder of the top-level package a system's class is defined in."""
    top = importlib.import_module(system.__module__.split(".", 1)[0])
    where = getattr(top, "__file__", None)
    if where is None:
        return None
    return Path(where).resolve().parent


def _add_plugin(system: type[RuleSystem], plugin: Plugin) -> None:
    """Register a loaded plug-in, unless its id is taken: by a built-in system (the
    plug-in is quarantined, the built-in stays) or by another plug-in (both are, and
    asking for the id is an error naming both packages)."""
    sid = system.id
    if sid in BUILTIN:
        _BROKEN[sid + " (" + plugin.package + ")"] = Broken(
            sid, plugin.package, f"its id {sid!r} is the id of a system built into fracas "
            "(package fracas): give the plug-in's class another id")
        return
    other = _PLUGINS.get(sid)
    if other is not None or sid in _CLASHES:
        packages = (*_CLASHES.get(sid, (other.package,) if other else ()), plugin.package)
        _CLASHES[sid] = packages
        _PLUGINS.pop(sid, None)
        _REGISTERED.pop(sid, None)
        _BROKEN[sid] = Broken(sid, " and ".join(packages), clash_message(sid, packages))
        return
    if sid in _REGISTERED:  # registered in this process first (a test): that one stays
        return
    _REGISTERED[sid] = system
    _PLUGINS[sid] = plugin


def clash_message(system_id: str, packages: tuple[str, ...]) -> str:
    return (f"the rule system id {system_id!r} is given by {len(packages)} installed "
            f"packages: {' and '.join(packages)} (uninstall all but one, or give each "
            "class its own id)")


def plugins() -> dict[str, Plugin]:
    """Every loaded third-party system: where it came from, by system id."""
    _load_plugins()
    return dict(_PLUGINS)


def package_of(system_id: str) -> str:
    """The package a system comes from: ``fracas`` for a built-in one, its distribution
    for a plug-in, or that it was registered in this process."""
    if system_id in BUILTIN:
        return "fracas"
    plugin = plugins().get(system_id)
    return plugin.package if plugin is not None else "registered in this process"


def roll_readers() -> Iterator[RollReader]:
    """What may read a ``fracas roll`` expression, lazily: the light modules of the
    built-in systems with a notation of their own (:data:`ROLL_NOTATION`) first, then
    every system that is not built in (registered, or from an entry point); no built-in
    rules are imported."""
    for module in ROLL_NOTATION.values():
        yield cast("RollReader", importlib.import_module(module))
    _load_plugins()
    for system_id, system in sorted(_REGISTERED.items()):
        if system_id not in BUILTIN:
            yield system()


def systems() -> dict[str, type[RuleSystem]]:
    """Every registered system, by id, sorted."""
    _discover()
    return dict(sorted(_REGISTERED.items()))


def broken() -> dict[str, Broken]:
    """Every system that could not be loaded (a built-in package, a plug-in's entry
    point), by the name it goes by: its package and why."""
    _discover()
    return dict(_BROKEN)


def get_system(system_id: str) -> type[RuleSystem]:
    """The system class with this id: a registered one, else the built-in package of that
    id alone, else (an id that is not built in) every package and entry point."""
    found = _REGISTERED.get(system_id)
    if found is not None:
        return found
    package = BUILTIN.get(system_id)
    if package is not None:
        _load_builtin(package.rsplit(".", 1)[-1])
    else:
        _discover()
    found = _REGISTERED.get(system_id)
    if found is not None:
        return found
    if system_id in _CLASHES:
        raise FracasError(clash_message(system_id, _CLASHES[system_id]))
    failed = _BROKEN.get(system_id)
    if failed is not None:
        raise FracasError(f"the rule system {system_id!r} ({failed.package}) failed to "
                          f"load: {failed.reason}")
    raise UnknownSystemError(f"no rule system {system_id!r}",
                             allowed=", ".join(systems()) or "none registered")


_FILE_LINE = re.compile(r'File "([^"]+)", line (\d+)')


def blame(err: BaseException) -> str | None:
    """When ``err`` was raised in a plug-in's own code (the innermost place of its
    traceback in a plug-in's package, or in the text of a worker process's traceback it
    carries), what to tell the user instead of a traceback: which plug-in failed, from
    which package, and where; None for any other error."""
    if not _PLUGINS or isinstance(err, FracasError):
        return None
    places: list[tuple[str, int]] = []
    tb = err.__traceback__
    while tb is not None:
        places.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    cause = err.__cause__
    while cause is not None:  # a worker's traceback, as text (concurrent.futures, Dask)
        places += [(f, int(n)) for f, n in _FILE_LINE.findall(str(cause))]
        cause = cause.__cause__
    for file, line in reversed(places):
        where = Path(file).resolve()
        for plugin in _PLUGINS.values():
            if plugin.folder is not None and where.is_relative_to(plugin.folder):
                shown = where.relative_to(plugin.folder.parent)
                return (f"the rule system plug-in {plugin.system_id!r} ({plugin.package}) "
                        f"failed: {type(err).__name__}: {err} (at {shown}:{line}); this "
                        "is a fault of the plug-in: tell its authors")
    return None
