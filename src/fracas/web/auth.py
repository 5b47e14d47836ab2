"""Keys and roles: who a request comes from, by its bearer key or its cookies.

A GM's admin link ``/gm/<key>`` and a player's invite ``/join/<key>`` set an HttpOnly
cookie and redirect to an address without the key, so no page a player sees or shares
carries a secret. Bots send ``Authorization: Bearer <key>`` instead.
"""

from __future__ import annotations

from fastapi import Request

from fracas.errors import FracasError
from fracas.web.store import Store
from fracas.web.tracker import GM, Forbidden, Role

GM_COOKIE = "fracas_gm"


def player_cookie(eid: str) -> str:
    return f"fracas_p_{eid}"


class Unauthorized(FracasError):
    """No key, or a key nobody has (HTTP 401)."""


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


def gm_id(store: Store, request: Request) -> int:
    """The GM this request comes from (401 without a valid GM key)."""
    for key in (bearer(request), request.cookies.get(GM_COOKIE)):
        if key:
            gid = store.gm_by_key(key)
            if gid is not None:
                return gid
    raise Unauthorized("a GM key is needed: open your admin link, or send "
                       "'Authorization: Bearer <key>'")


def role_for(store: Store, request: Request, eid: str) -> Role:
    """The role of the request in encounter ``eid``: 401 without a valid key, 403 with a key
    for another encounter, 404 for an unknown encounter only once the key is known."""
    keys = [k for k in (bearer(request), request.cookies.get(GM_COOKIE),
                        request.cookies.get(player_cookie(eid))) if k]
    if not keys:
        raise Unauthorized("a key is needed: open your admin or invite link, or send "
                           "'Authorization: Bearer <key>'")
    known = False
    for key in keys:
        gid = store.gm_by_key(key)
        if gid is not None:
            known = True
            if store.gm_of(eid) == gid:  # NotFound for no such encounter
                return GM
            continue
        player = store.player_by_key(key)
        if player is not None:
            known = True
            if player.encounter_id == eid:
                return Role("player", player.combatants, player.name)
    if not known:
        raise Unauthorized("this key is not valid")
    raise Forbidden("this key does not open this encounter")
