"""A one-page HTML report: odds, advice and pictures, in one file readable offline.

Pictures are embedded as base64 PNG; the style sheet is inline; nothing is fetched.
For an attack: its exact odds, the damage picture, and the advice tables. For a fight
(a file with no ``attack:``): the exact fight odds when its chain is small enough (in
states and in time), else a simulation (``fights`` of them, its chain held under
``max_memory``). A ``progress`` is told each section written, the fight states explored
and the fights simulated.
"""

from __future__ import annotations

import base64
import html
import json
from datetime import date
from typing import Any, Protocol

from fracas import __version__ as VERSION
from fracas.analysis import plots
from fracas.analysis.advise import Advice, advise
from fracas.core.scenario import Scenario
from fracas.encounter.labels import option_words
from fracas.errors import InputError
from fracas.odds.attack import AttackOdds, attack_odds
from fracas.odds.text import fraction_text


class Progress(Protocol):
    """Where the report says how far it got (:class:`fracas.cli.progress.Tracker`)."""

    def stage(self, unit: str, total: int | None = None) -> None: ...

    def update(self, n: int) -> None: ...

    def advance(self, k: int) -> None: ...


class _Silent:
    def stage(self, unit: str, total: int | None = None) -> None:
        pass

    def update(self, n: int) -> None:
        pass

    def advance(self, k: int) -> None:
        pass


STYLE = """
body { font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: #222;
       max-width: 62rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.2rem; margin-top: 2rem;
border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
.sub { color: #666; margin-top: 0; }
table { border-collapse: collapse; margin: .6rem 0; font-size: .92rem; }
th, td { padding: .25rem .7rem; border-bottom: 1px solid #eee; text-align: right; }
th { background: #f5f5f5; } td:first-child, th:first-child { text-align: left; }
tr.mark td { background: #fff4e5; font-weight: 600; }
.exact { color: #888; font-size: .85em; }
img { max-width: 100%; height: auto; margin: .5rem 0; }
.note { color: #555; font-size: .9rem; }
footer { margin-top: 3rem; color: #888; font-size: .8rem; }
"""


def _pct(p: Any) -> str:
    value = float(p) * 100
    return "&lt;0.01%" if 0 < value < 0.01 else f"{value:.2f}%"


def _exact(p: Any) -> str:
    """An exact figure as a decimal, its fraction in the tooltip (a fraction of 180 digits
    would stretch the page; the page's JSON block keeps every one too)."""
    fraction = fraction_text(p)
    shown = fraction if len(fraction) <= 12 else f"{float(p):.10g}"
    return (f'<span class="exact" title="{html.escape(fraction)}" '
            f'data-exact="{html.escape(fraction)}">{shown}</span>')


def _json_block(name: str, data: Any) -> str:
    """The section's exact figures as JSON in the page (for a tool; not shown)."""
    text = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return (f'<script type="application/json" class="fracas-exact" data-section="{name}">'
            f"{text}</script>")


def _img(fig: Any, alt: str) -> str:
    data = base64.b64encode(plots.to_bytes(fig, "png")).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}">'


def _table(head: list[str], rows: list[list[str]], marks: set[int] | None = None) -> str:
    out = ["<table><thead><tr>", *(f"<th>{h}</th>" for h in head), "</tr></thead><tbody>"]
    for i, row in enumerate(rows):
        cls = ' class="mark"' if marks and i in marks else ""
        out.append(f"<tr{cls}>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _odds_section(odds: AttackOdds, title: str, words: Any) -> str:
    rows = [[html.escape(words.outcome(k)), _pct(p), _exact(p)]
            for k, p in odds.outcomes.items()]
    rows.append(["<b>any hit</b>", _pct(odds.p_hit), _exact(odds.p_hit)])
    rows.append(["<b>target taken out</b>", _pct(odds.p_taken_out), _exact(odds.p_taken_out)])
    damage = [[str(k), _pct(p), _pct(odds.damage.sf(k)),
               _exact(p)]
              for k, p in odds.damage.probabilities().items()]
    e = odds.expected_damage
    return "".join([
        "<h2>Exact odds</h2>",
        _table(["result", "probability", "exact"], rows),
        f"<p><b>Expected damage: {float(e):.3f}</b> ({_exact(e)})</p>",
        _img(plots.odds_figure(odds, title, words), "damage distribution"),
        _json_block("odds", odds.to_json()),
        "<details><summary>Damage table</summary>",
        _table(["damage", "probability", "at least", "exact"], damage), "</details>"])


def _advice_section(advice: Advice, top: int) -> str:
    shown = advice.options[:top]
    marks = {i for i, o in enumerate(shown) if o.as_written}
    rows = []
    for i, o in enumerate(shown, 1):
        best = o.best_reply
        rows.append([f"{i}. {html.escape(o.label)}", f"{float(o.odds.expected_damage):.3f}",
                     _pct(o.odds.p_hit), _pct(o.odds.p_taken_out),
                     f"{float(best.odds.expected_damage):.3f} ({html.escape(best.label)})"])
    defense_rows = [[f"{i}. {html.escape(r.label)}", f"{float(r.odds.expected_damage):.3f}",
                     _pct(r.odds.p_hit), _pct(r.odds.p_taken_out)]
                    for i, r in enumerate(advice.defenses, 1)]
    dmarks = {i for i, r in enumerate(advice.defenses) if r.action == advice.attack}
    bars = [(o.label, float(o.odds.expected_damage), float(o.odds.p_taken_out), o.as_written)
            for o in shown]
    parts = ["<h2>The attacker's options</h2>",
             f"<p class='note'>Ranked by exact expected damage"
             f"{'; situation kept: ' + html.escape(advice.situation) if advice.situation else ''}"
             f". Highlighted: the attack as written. {len(advice.options)} options"
             f"{f', the best {top} shown' if len(advice.options) > top else ''}.</p>",
             _table(["option", "expected damage", "hit", "taken out", "against the best reply"],
                    rows, marks),
             _img(plots.advice_figure(bars, "The attacker's options (highlighted: as written)"),
                  "options"),
             "<h2>The defender's answers</h2>",
             "<p class='note'>Against the attack as written, least expected damage first.</p>",
             _table(["answer", "expected damage", "hit", "taken out"], defense_rows, dmarks)]
    if advice.skipped:
        parts.append("<p class='note'>Not shown: " + "; ".join(
            html.escape(s) for s in advice.skipped) + "</p>")
    return "".join(parts)


def _fight_section(scenario: Scenario, max_states: int, fights: int, seed: int,
                   max_seconds: float, max_memory: int, progress: Progress) -> str:
    from fracas.analysis.duel import duel_odds
    from fracas.analysis.simulate import simulate, summarize
    from fracas.encounter.engine import setup_from_scenario

    setup = setup_from_scenario(scenario)
    title = scenario.title or "fight"
    reason = ""
    progress.stage("fight state{s} explored")
    try:
        duel = duel_odds(setup, scenario.roster, max_states, max_seconds=max_seconds,
                         progress=progress.update)
    except InputError as err:
        duel, reason = None, err.message
    if duel is not None:
        rows = [[html.escape(k), _pct(p), _exact(p)]
                for k, p in duel.outcomes.items()]
        return "".join([
            "<h2>Exact fight odds</h2>",
            f"<p class='note'>A Markov chain over {duel.states:,} fight states "
            f"({duel.transitions:,} transitions), round limit {duel.max_rounds}.</p>",
            _table(["outcome", "probability", "exact"], rows),
            f"<p><b>Mean rounds: {float(duel.mean_rounds()):.3f}</b></p>",
            _img(plots.duel_figure(duel, title), "fight odds"),
            _json_block("fight", duel.to_json())])
    progress.stage("fight{s} simulated", fights)
    played = simulate(setup, scenario.roster, fights, seed=seed, progress=progress.advance,
                      max_memory=max_memory)
    summary = summarize(played,
                        {c.id: c.name for c in scenario.roster.values()})
    rows = [[html.escape(side), f"{s['wins']:,}", _pct(s["p_win"]),
             f"{_pct(s['ci95'][0])} – {_pct(s['ci95'][1])}"]
            for side, s in summary["sides"].items()]
    nobody = summary["no_winner"]
    if nobody["count"]:  # the round limit, or nobody left: the rows sum to every fight
        rows.append(["no winner", f"{nobody['count']:,}", _pct(nobody["p"]), ""])
    return "".join([
        "<h2>Simulated fights</h2>",
        f"<p class='note'>{html.escape(reason.capitalize())}, so {fights:,} fights were "
        f"simulated (seed {seed}).</p>",
        _table(["side", "wins", "win probability", "95% interval"], rows),
        _img(plots.simulation_figure(summary, title), "simulation")])


def _roster_section(scenario: Scenario) -> str:
    rows = []
    for c in scenario.roster.values():
        current, maximum = scenario.system.health(c)
        rows.append([html.escape(c.name), html.escape(c.side), f"{current}/{maximum}",
                     html.escape(c.policy or "")])
    return _table(["combatant", "side", "health", "policy"], rows)


def build_report(scenario: Scenario, top: int = 15, max_states: int = 200_000,
                 fights: int = 20_000, seed: int = 0, max_seconds: float = 60.0,
                 max_memory: int = 2**30, progress: Progress | None = None) -> str:
    """The whole page as one HTML string."""
    progress = progress or _Silent()
    system = scenario.system
    title = scenario.title or (scenario.path or "scenario")
    description = scenario.raw.get("description")
    body = [f"<h1>{html.escape(title)}</h1>",
            f"<p class='sub'>{html.escape(system.title)} · {html.escape(scenario.path or '')}"
            "</p>"]
    if description:
        body.append(f"<p>{html.escape(str(description))}</p>")
    body.append(_roster_section(scenario))
    attack = scenario.attack
    if attack is not None:
        who = f"{scenario.roster[attack.actor].name}"
        if attack.target:
            who += f" → {scenario.roster[attack.target].name}"
        said = option_words(attack, system.words)  # the data pack's words, as advise's
        body.append(f"<p><b>Attack:</b> {html.escape(who)} — {html.escape(said)}</p>")
        odds = attack_odds(system, attack, scenario.roster)
        body.append(_odds_section(odds, f"{title}: {who}", system.words))
        progress.advance(1)
        if attack.target is not None:
            body.append(_advice_section(advise(scenario), top))
            progress.advance(1)
    if attack is not None and len(scenario.roster) > 2:  # the fight its combatants make
        body.append("<h2>The whole fight</h2><p class='note'>Besides the attack above: the "
                    f"fight of all {len(scenario.roster)} combatants, each by their own "
                    "policy.</p>")
        body.append(_fight_section(scenario, max_states, fights, seed, max_seconds,
                                   max_memory, progress))
    elif attack is None:
        body.append(_fight_section(scenario, max_states, fights, seed, max_seconds,
                                   max_memory, progress))
    body.append(f"<footer>fracas {VERSION} · {date.today().isoformat()} · every number is "
                "exact unless marked simulated</footer>")
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(title)} — fracas report</title><style>{STYLE}</style>"
            "</head><body>" + "".join(body) + "</body></html>")
