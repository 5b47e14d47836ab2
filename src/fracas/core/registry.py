"""The registry of rule systems, by id.

Built-in systems are the packages under ``fracas.systems`` that export ``SYSTEM``
(their :class:`~fracas.core.system.RuleSystem` subclass). Third parties add theirs
through the ``fracas.systems`` entry point group::

    [project.entry-points."fracas.systems"]
    mysystem = "my_package.rules:MySystem"

Tests and scripts may also call :func:`register` directly.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points

from fracas.core.errors import FracasError, UnknownSystemError
from fracas.core.system import RuleSystem

_REGISTERED: dict[str, type[RuleSystem]] = {}
_BROKEN: dict[str, str] = {}  # built-in packages that failed to import: id -> why
_DISCOVERED = False


def register(system: type[RuleSystem]) -> type[RuleSystem]:
    """Add a system class (usable as a decorator). Re-registering an id replaces it."""
    if not (isinstance(system, type) and issubclass(system, RuleSystem)):
        raise TypeError(f"{system!r} is not a RuleSystem subclass")
    _REGISTERED[system.id] = system
    return system


def unregister(system_id: str) -> None:
    _REGISTERED.pop(system_id, None)


def _discover() -> None:
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    import fracas.systems as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        try:
            module = importlib.import_module(f"fracas.systems.{info.name}")
        except Exception as err:  # one broken package must not hide the others
            _BROKEN[info.name] = f"{type(err).__name__}: {err}"
            continue
        system = getattr(module, "SYSTEM", None)
        if system is not None:
            _REGISTERED.setdefault(system.id, system)
    for ep in entry_points(group="fracas.systems"):
        try:
            loaded = ep.load()
        except Exception as err:  # a broken third-party plugin must not break fracas
            raise FracasError(f"the rule system plugin {ep.name!r} failed to load: {err}") from err
        _REGISTERED.setdefault(loaded.id, loaded)


def systems() -> dict[str, type[RuleSystem]]:
    """Every registered system, by id, sorted."""
    _discover()
    return dict(sorted(_REGISTERED.items()))


def broken() -> dict[str, str]:
    """Built-in system packages that failed to import, with the reason."""
    _discover()
    return dict(_BROKEN)


def get_system(system_id: str) -> type[RuleSystem]:
    """The system class with this id."""
    known = systems()
    try:
        return known[system_id]
    except KeyError:
        if system_id in _BROKEN:
            raise FracasError(f"the rule system {system_id!r} failed to load: "
                              f"{_BROKEN[system_id]}") from None
        raise UnknownSystemError(f"no rule system {system_id!r}",
                                 allowed=", ".join(known) or "none registered") from None
