"""Bounds on what a file may nest, checked before a parser recurses into it.

The C YAML loader recurses once per level of nesting (a scenario nested ~22,000 levels
deep ends the process with a segmentation fault), Python's parsers raise RecursionError
from about a thousand levels, and every later walk over the data (validation, hashing,
freezing) recurses too. No fracas file nests anywhere near :data:`MAX_DEPTH` levels, so
deeper text is refused with a clear error before it is parsed:

* YAML: :func:`yaml_depth` reads the event stream (libyaml's parser keeps its own stack,
  it does not recurse) and stops at the first level past the bound;
* JSON: :func:`json_depth` counts brackets outside strings, at C speed in the common case
  (a text with fewer brackets than the bound cannot nest deeper).

:func:`check_text` refuses strings that are not Unicode text (a lone surrogate, which JSON
can spell as ``\\ud800``) in parsed data, without recursion.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

MAX_DEPTH = 100  # levels of lists and mappings inside one another


def yaml_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """How deep ``text``'s collections nest, counted up to ``limit + 1`` (then it stops);
    text that is not YAML counts as 0 when the error comes before the bound (the parser
    that follows reports the error)."""
    openers = sum(text.count(c) for c in "[{\n-?")  # flow, block lines, dashes, complex keys
    if openers < limit:
        return 0  # too few openers to nest deeper
    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            return _events_depth(fast(text), limit)
        except yaml.YAMLError as err:
            if "nesting depth" in str(err):  # libyaml's own bound (1,000 flow levels)
                return limit + 1
    try:  # not YAML to libyaml: the Python parser (a state machine, no recursion either)
        return _events_depth(yaml.SafeLoader(text), limit)
    except yaml.YAMLError:
        return 0  # the error comes before the bound: the parser that follows reports it


def _events_depth(loader: Any, limit: int) -> int:
    depth = deepest = 0
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > deepest:
                    deepest = depth
                    if deepest > limit:
                        break
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        if deepest > limit:
            return deepest
        raise
    finally:
        loader.dispose()
    return deepest


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def json_depth(raw: bytes, limit: int = MAX_DEPTH) -> int:
    """How deep the JSON text ``raw`` nests (brackets outside strings), counted up to
    ``limit + 1``."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return 0
    depth = deepest = 0
    for bracket in _BRACKETS.findall(_STRING.sub(b'""', raw)):
        if bracket in b"[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


def bad_text(data: Any) -> str | None:
    """The first string (key or value) in parsed data that is not Unicode text (a lone
    surrogate cannot be written as UTF-8), shown escaped; None when all are fine."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return item.encode("utf-8", "backslashreplace").decode("ascii")[:60]
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return None
