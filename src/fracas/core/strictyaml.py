"""YAML parsing that refuses what PyYAML lets slip: a key given twice in one mapping.

PyYAML keeps the last of two equal keys without a word; a scenario with ``body: 3`` and,
further down, ``body: 5`` would silently use 5. :func:`parse_yaml` raises instead,
naming the key and both lines. Parsing uses libyaml's C parser when PyYAML has it (several
times faster; the same safe constructor and resolver read the nodes).
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode

from fracas.core.nesting import MAX_DEPTH, bad_text, yaml_depth


class DuplicateKeyError(yaml.YAMLError):
    """A mapping with the same key twice: the key and the (1-based) lines of both."""

    def __init__(self, key: Any, first_line: int, line: int) -> None:
        self.key = key
        self.first_line = first_line
        self.line = line
        super().__init__(f"duplicate key {key!r} on line {line} (first given on line "
                         f"{first_line}); each key may appear once in a mapping")


class TooDeepError(yaml.YAMLError):
    """Lists and mappings nested deeper than :data:`~fracas.core.nesting.MAX_DEPTH`
    levels (refused before parsing: the parsers recurse once per level)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"lists and mappings nested more than {limit} levels deep")


class UniqueKeyLoader(yaml.SafeLoader):
    """A safe loader whose mappings reject a repeated key."""

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
            except TypeError:  # an unhashable key: construct_mapping reports it
                continue
            line = key_node.start_mark.line + 1
            if first is not None:
                raise DuplicateKeyError(key, first, line)
            seen[key] = line
        return SafeConstructor.construct_mapping(self, node, deep=deep)


_FastLoader: type[Any] | None = None
if yaml.__with_libyaml__:
    class _CUniqueKeyLoader(yaml.CSafeLoader):
        """:class:`UniqueKeyLoader` over libyaml's C parser."""

        construct_mapping = UniqueKeyLoader.construct_mapping

    _FastLoader = _CUniqueKeyLoader


def parse_yaml(text: str) -> Any:
    """Parse one YAML document safely; a repeated key raises :class:`DuplicateKeyError`.
    Text that is not valid YAML is parsed again by the Python parser, whose messages (the
    ones a user sees) name the offending character. Nesting deeper than
    :data:`~fracas.core.nesting.MAX_DEPTH` levels raises :class:`TooDeepError`."""
    if yaml_depth(text) > MAX_DEPTH:
        raise TooDeepError(MAX_DEPTH)
    data = _load(text)
    odd = bad_text(data)  # "\ud800" in a double-quoted string: not writable as UTF-8
    if odd is not None:
        raise yaml.YAMLError(f'text that is not Unicode: "{odd}" holds a lone surrogate')
    return data


def _load(text: str) -> Any:
    if _FastLoader is not None:
        try:
            return yaml.load(text, Loader=_FastLoader)  # a safe loader
        except DuplicateKeyError:
            raise
        except yaml.YAMLError:
            pass
    return yaml.load(text, Loader=UniqueKeyLoader)  # a SafeLoader subclass
