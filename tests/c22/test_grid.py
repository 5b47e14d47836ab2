"""Using a Grid (seed 000): hexes and squares of 2 m (a diagonal too, 3 m as a table
option), three spaces per movement action, one diagonal per movement action, no move into
a space that costs more than is left."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from fracas.errors import InputError
from fracas.systems.c22.grid import Allowance, Grid, find_path, walk
from tests.c22.util import after, make, of_type, person, run

HEX, SQUARE = Grid("hex"), Grid("square")
SQUARE_3M = Grid("square", diagonal_cost_m=3)  # the table option: a diagonal costs 3 m
ONE = Allowance(1, 3)


def mover(position: list[int], **sheet: object) -> dict[str, object]:
    return person("a", "x", position=position, **sheet)


def test_hex_distance_and_neighbours() -> None:
    assert HEX.distance((0, 0), (3, 0)) == 3
    assert HEX.distance((0, 0), (2, -1)) == 2
    assert HEX.distance((0, 0), (1, 1)) == 2  # not a hex neighbour in axial coordinates
    assert len(HEX.neighbours((0, 0))) == 6
    assert all(HEX.distance((0, 0), p) == 1 for p in HEX.neighbours((0, 0)))


def test_three_hexes_per_movement_action_six_metres() -> None:
    done = walk(HEX, (0, 0), [(1, 0), (2, 0), (3, 0)], ONE)
    assert done.stopped == "" and done.metres == 6
    done = walk(HEX, (0, 0), [(1, 0), (2, 0), (3, 0), (4, 0)], ONE)
    assert done.path == ((1, 0), (2, 0), (3, 0)) and "needs 2 m, 0 m" in done.stopped


def test_square_grid_one_diagonal_per_movement_action() -> None:
    done = walk(SQUARE, (0, 0), [(1, 1), (2, 2)], ONE)
    assert done.path == ((1, 1),) and "no diagonal left" in done.stopped
    two = walk(SQUARE, (0, 0), [(1, 1), (2, 1), (3, 2)], Allowance(2, 3))
    assert two.stopped == "" and two.metres == 2 + 2 + 2  # the second action's diagonal
    three = walk(SQUARE_3M, (0, 0), [(1, 1), (2, 1), (3, 2)], Allowance(2, 3))
    assert three.stopped == "" and three.metres == 3 + 2 + 3


def test_square_grid_no_move_into_a_space_that_costs_more_than_is_left() -> None:
    # 2 + 2 m spent, 2 m left: under the 3 m option the diagonal costs 3 m, so the
    # character cannot move
    done = walk(SQUARE_3M, (0, 0), [(1, 0), (2, 0), (3, 1)], ONE)
    assert done.path == ((1, 0), (2, 0)) and "needs 3 m, 2 m of movement left" in done.stopped


def test_a_diagonal_marks_2_metres_by_default() -> None:
    done = walk(SQUARE, (0, 0), [(1, 0), (2, 0), (3, 1)], ONE)
    assert done.stopped == "" and done.metres == 6


def _move_on_squares(tmp_path: Path, rules: dict[str, object]) -> dict[str, object]:
    """``fracas attack --json`` (a fresh process) of one movement action: two squares
    straight on, then a diagonal."""
    scenario = {"system": "c22", "rules": {"grid": "square", **rules},
                "combatants": [mover([0, 0]), person("b", "y", position=[6, 6])],
                "attack": {"attacker": "a", "action": "move",
                           "options": {"path": [[1, 0], [2, 0], [3, 1]]}},
                "cards": {"a": ["4S", "5H"]}}
    path = tmp_path / "move.yaml"
    path.write_text(yaml.safe_dump(scenario))
    done = subprocess.run([sys.executable, "-m", "fracas", "attack", str(path), "--json"],
                          capture_output=True, text=True, timeout=120)
    out: dict[str, object] = {"code": done.returncode, "stderr": done.stderr}
    if done.returncode == 0:
        out.update(json.loads(done.stdout))
    return out


def test_fracas_attack_moves_a_square_diagonal_for_2_metres_and_3_as_an_option(
        tmp_path: Path) -> None:
    # seed 000 · Using a Grid: "each square marks 2 meters": 2 + 2 + 2 m, within 6 m
    moved = _move_on_squares(tmp_path, {})
    assert moved["code"] == 0 and moved["outcome"] == "moved", moved
    # the table option diagonal_cost_m: 3 leaves 2 m for a 3 m diagonal: an illegal path
    refused = _move_on_squares(tmp_path, {"diagonal_cost_m": 3})
    assert refused["code"] != 0 and "attack.options.path" in str(refused["stderr"])
    assert "needs 3 m, 2 m of movement left" in str(refused["stderr"])
    assert "Traceback" not in str(refused["stderr"])


def test_illegal_move_too_far_is_a_clear_error() -> None:
    with pytest.raises(InputError) as err:
        make(mover([0, 0]), person("b", "y", position=[9, 0]), action="move",
             options={"path": [[1, 0], [2, 0], [3, 0], [4, 0]]})
    assert err.value.path == "attack.options.path"
    assert "illegal move" in str(err.value) and "needs 2 m, 0 m" in str(err.value)


def test_illegal_move_to_a_space_not_next_to_the_last_one() -> None:
    with pytest.raises(InputError) as err:
        make(mover([0, 0]), action="move", options={"path": [[1, 0], [3, 0]]})
    assert err.value.path == "attack.options.path[1]"
    assert "is not next to" in str(err.value)


def test_illegal_move_into_an_occupied_space() -> None:
    with pytest.raises(InputError) as err:
        make(mover([0, 0]), person("b", "y", position=[1, 0]), action="move",
             options={"path": [[1, 0]]})
    assert "occupied" in str(err.value)


def test_moving_without_a_position_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="has no position"):
        make(action="move", options={"path": [[1, 0]]})


def test_a_move_action_changes_the_position() -> None:
    s = make(mover([0, 0]), action="move", options={"path": [[1, 0], [2, 0], [2, 1]]})
    r = run(s, {"a": ["2S", "4H"]})
    assert r.outcome == "moved" and after(s, r)["a"].state.position == (2, 1)


def test_dash_gives_two_movement_actions_and_raised_dash_four_spaces_each() -> None:
    path = [[i, 0] for i in range(1, 9)]  # eight hexes
    s = make(mover([0, 0]), action="move", options={"maneuver": "dash", "path": path})
    raised = run(s, {"a": ["5S", "2H"]})
    assert raised.outcome == "moved" and after(s, raised)["a"].state.position == (8, 0)
    base = run(s, {"a": ["4S", "2H"]})  # spades 4: not enough to raise Dash
    assert base.outcome == "stopped" and after(s, base)["a"].state.position == (6, 0)
    assert "cannot move into (7, 0)" in of_type(base.events, "C22Moved")[0].text()


def test_attack_out_of_range_is_refused_but_a_path_into_range_is_not() -> None:
    with pytest.raises(InputError, match="out of range"):
        make(mover([0, 0]), person("b", "y", position=[3, 0]))
    s = make(mover([0, 0]), person("b", "y", position=[3, 0]),
             options={"weapon_card": "first", "path": [[1, 0], [2, 0]]})
    r = run(s, {"a": ["2S", "4H"]})
    assert after(s, r)["a"].state.position == (2, 0)


def test_a_path_needing_dash_is_illegal_with_an_attack_without_dash() -> None:
    with pytest.raises(InputError, match="illegal move"):
        make(mover([0, 0]), person("b", "y", position=[6, 0]),
             options={"path": [[1, 0], [2, 0], [3, 0], [4, 0], [5, 0]]})


def test_advance_moves_one_space_toward_the_attacker_on_a_square_grid() -> None:
    s = make(mover([0, 0], weapons=[{"name": "blade", "damage": 10, "range": 5}]),
             person("b", "y", position=[3, 3], avoidance=0, skills={"advance": 5}),
             options={"weapon_card": "first", "reaction": "advance"}, rules={"grid": "square"})
    r = run(s, {"a": ["2S", "4H"], "b": ["2C"]})
    assert after(s, r)["b"].state.position == (2, 2)


points = st.tuples(st.integers(-4, 4), st.integers(-4, 4))


@settings(max_examples=80, deadline=None)
@given(kind=st.sampled_from(["hex", "square"]), goal=points,
       blocked=st.sets(points, max_size=6), actions=st.integers(1, 2))
def test_found_paths_are_legal_walks_that_reach_the_goal(kind: str, goal: tuple[int, int],
                                                         blocked: set[tuple[int, int]],
                                                         actions: int) -> None:
    grid = Grid(kind)
    blocked.discard((0, 0))
    allowance = Allowance(actions, 3)
    path = find_path(grid, (0, 0), lambda p: p == goal, allowance, blocked)
    if path is None:
        return
    assert walk(grid, (0, 0), path, allowance).stopped == ""
    assert not set(path) & blocked and (path[-1] if path else (0, 0)) == goal


@given(goal=points, actions=st.integers(1, 2))
def test_on_an_open_hex_grid_every_space_within_reach_is_found(goal: tuple[int, int],
                                                               actions: int) -> None:
    path = find_path(HEX, (0, 0), lambda p: p == goal, Allowance(actions, 3), set())
    reachable = HEX.distance((0, 0), goal) <= 3 * actions
    assert (path is not None) == reachable
    if path is not None:
        assert len(path) == HEX.distance((0, 0), goal)
