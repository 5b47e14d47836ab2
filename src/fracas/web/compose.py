"""An action composed step by step on the page, from the same model as the terminal
(:class:`fracas.encounter.decisions.ActionMenu`): the page keeps a draft (the steps taken
so far) and asks for the panel with it; the server draws the step the draft is at, each
entry with the odds of the action it leads to (the odds the view already holds, redacted
for the viewer), the action composed so far with its odds, Go, the usual attack and Back.

A draft is a small JSON object the server wrote itself (``data-draft`` on each button);
one that does not read as such (edited, stale, from another decision) is the empty draft.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from fracas.encounter.decisions import ActionMenu, Draft, Step
from fracas.encounter.redact import Names, unseen_targets
from fracas.web.tracker import Role
from fracas.web.views import names_of, viewer_of

MAX_DRAFT = 4000  # characters of a draft: far more than any menu's steps take


def draft_text(draft: Draft) -> str:
    """The draft as the page keeps it."""
    return json.dumps({"group": draft.group, "kind": draft.kind, "weapon": draft.weapon,
                       "target": draft.target, "toggles": sorted(draft.toggles),
                       "page": draft.page, "taken": list(draft.taken)}, sort_keys=True)


def read_draft(text: str) -> Draft:
    """The draft a page sent back; the empty draft for anything else."""
    if not text or len(text) > MAX_DRAFT:
        return Draft()
    try:
        data = json.loads(text)
    except ValueError:
        return Draft()
    if not isinstance(data, dict):
        return Draft()
    steps = {k: data.get(k) for k in ("group", "kind", "weapon", "target")}
    toggles, page, taken = data.get("toggles", []), data.get("page", 0), data.get("taken", [])
    if (not all(v is None or isinstance(v, str) for v in steps.values())
            or not isinstance(toggles, list) or not all(isinstance(t, str) for t in toggles)
            or not isinstance(page, int) or isinstance(page, bool) or not 0 <= page < 1000
            or not isinstance(taken, list) or not all(t in steps for t in taken)):
        return Draft()
    return Draft(**steps, toggles=frozenset(toggles), page=page, taken=tuple(taken))


def _step(menu: ActionMenu, draft: Draft) -> tuple[Draft, Step]:
    """The step ``draft`` is at; the first step for a draft of another menu (a value no
    action on offer has: never another action in its place)."""
    if draft != Draft() and not menu.candidates(draft):
        draft = Draft()
    try:
        return draft, menu.step(draft)
    except (StopIteration, ValueError, KeyError, IndexError):  # a draft of another menu
        return Draft(), menu.step(Draft())


def offered(menu: ActionMenu, hidden: frozenset[str], names: Names) -> ActionMenu:
    """The menu as a player sees it: a target hidden from them named by the value and
    label :func:`fracas.encounter.redact.unseen_targets` gives it, so a draft taking it
    leads to that very combatant's action (its option id), never to another's."""
    unseen = unseen_targets((f.target for f in menu.facets), hidden)
    if not unseen:
        return menu
    facets = tuple(replace(f, target=unseen[f.target][0], target_name=unseen[f.target][1])
                   if f.target in unseen else f for f in menu.facets)
    labels = list(menu.labels)  # by the flat action's index
    for f in menu.facets:
        if f.target in unseen and labels:
            labels[f.index] = names.pattern(f.target).sub(unseen[f.target][1],
                                                          labels[f.index])
    previous = unseen[menu.previous][0] if menu.previous in unseen else menu.previous
    return replace(menu, facets=facets, previous=previous, labels=tuple(labels))


def composed(request: Any, eid: str, role: Role, view: Mapping[str, Any], text: str
             ) -> dict[str, Any] | None:
    """The step to draw for the pending action decision, or None (not an action with a
    menu, not the viewer's to answer, or the view is of another version)."""
    tracker = request.app.state.tracker
    version, session, info = tracker.session(eid)
    pending = session.pending
    if (pending is None or pending.menu is None or version != view.get("version")
            or not (role.is_gm or role.controls(pending.who))):
        return None
    decision = (view.get("pending") or {}).get("decision") or {}
    odds = {str(o.get("id")): o.get("odds") for o in decision.get("options") or []}
    viewer = viewer_of(role, info.settings, session)
    names = names_of(session)
    menu = pending.menu if role.is_gm else offered(pending.menu, viewer.hidden, names)
    draft, step = _step(menu, read_draft(text))
    entries = [{"label": e.label, "description": e.description, "on": e.on,
                "odds": odds.get(e.option or ""),
                "draft": draft_text(menu.choose(draft, step, e.key))} for e in step.entries]
    usual = menu.usual()
    out: dict[str, Any] = {
        "title": step.title, "options": step.name == "options",
        "composed": step.composed, "composed_label": step.composed_label,
        "composed_odds": odds.get(step.composed), "entries": entries,
        "more": draft_text(menu.choose(draft, step, "+")) if step.more else None,
        "back": draft_text(draft.back()) if draft != Draft() else None,
        "usual": None if usual is None or usual.option == step.composed else {
            "label": usual.label, "option": usual.option, "odds": odds.get(usual.option or "")},
    }
    if role.is_gm:
        return out
    unseen: dict[str, Any] = names.unseen(out, viewer.hidden)
    return unseen
