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
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol, cast

from fracas.errors import FracasError, UnknownSystemError

if TYPE_CHECKING:
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
_BROKEN: dict[str, str] = {}  # built-in packages that failed to import: id -> why
_DISCOVERED = False


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
        _BROKEN[name] = f"{type(err).__name__}: {err}"
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


_PLUGINS_LOADED = False


def _load_plugins() -> None:
    """Every system of the ``fracas.systems`` entry point group, once."""
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED:
        return
    _PLUGINS_LOADED = True
    from importlib.metadata import entry_points

    for ep in entry_points(group="fracas.systems"):
        try:
            loaded = ep.load()
        except Exception as err:  # a broken third-party plugin must not break fracas
            raise FracasError(f"the rule system plugin {ep.name!r} failed to load: {err}") from err
        _REGISTERED.setdefault(loaded.id, loaded)


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


def broken() -> dict[str, str]:
    """Built-in system packages that failed to import, with the reason."""
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
    if system_id in _BROKEN:
        raise FracasError(f"the rule system {system_id!r} failed to load: "
                          f"{_BROKEN[system_id]}")
    raise UnknownSystemError(f"no rule system {system_id!r}",
                             allowed=", ".join(systems()) or "none registered")
