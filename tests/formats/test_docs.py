"""docs/scenarios.md's example is a valid scenario that its schema accepts and that resolves
as documented; every link in the docs points to a file the repository ships, and no page
or event citation points into files it does not ship (the seeds are named by number)."""

from __future__ import annotations

import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from fracas.dice import ScriptedRoller
from fracas.encounter.policies import POLICIES
from fracas.registry.scenarios import load_scenario
from tests.formats.conftest import EXAMPLES, ROOT, write

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
UNSHIPPED = re.compile(r"seeds/|\.\./shared|\d{3}_[0-9a-f]{16}\.txt|RULES\.md|DESIGN\.md")


def _yaml_blocks(text: str) -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", text, re.S)


def test_the_scenarios_page_example_loads_validates_and_resolves(tmp_path: Path) -> None:
    import json

    block = _yaml_blocks((ROOT / "docs" / "scenarios.md").read_text())[0]
    data = yaml.safe_load(block)
    schema = json.loads((ROOT / "schemas" / f"{data['system']}.json").read_text())
    jsonschema.validate(data, schema, cls=jsonschema.Draft202012Validator)
    scenario = load_scenario(write(tmp_path, block))
    assert scenario.attack is not None
    result = ScriptedRoller(scenario.pins()).run(scenario.system.resolve, scenario.attack,
                                                 scenario.roster)
    # seed 003's worked example: snake eyes, triple damage, (5 + 5 - 3) x 3
    assert (result.outcome, result.damage) == ("critical", 21)


def test_the_scenarios_page_names_the_real_policies_and_systems() -> None:
    text = (ROOT / "docs" / "scenarios.md").read_text()
    for policy in POLICIES:
        assert f"`{policy}`" in text
    for system in ("c22", "contest", "genesys", "tristat", "zamani"):
        assert f"| `{system}` |" in text


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_points_to_a_shipped_file(page: Path) -> None:
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_points_into_the_unshipped_seed_files(page: Path) -> None:
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if page.name == "json.md" and '"seed":' in line:
            continue  # `fracas systems --json` output: the seed's id, quoted as printed
        assert not UNSHIPPED.search(line), f"{page.name}:{number}: {line}"


def test_no_source_or_data_file_cites_an_unshipped_file() -> None:
    """Events, docstrings and data packs say "table default" or "public fact", never the
    name of a project file the package does not ship (a system's ``seed`` attribute is
    the seed's id, shown by ``fracas systems``)."""
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in sorted((ROOT / "src" / "fracas").rglob("*"))
             if path.suffix in {".py", ".yaml", ".csv", ".html"}
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if UNSHIPPED.search(line) and not line.lstrip().startswith('seed = "')]
    assert found == []


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*/*.yaml")),
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_event_citations_name_a_seed_section_not_a_file(path: Path) -> None:
    scenario = load_scenario(path)
    if scenario.attack is None:
        return
    roller = ScriptedRoller(scenario.pins() or [], fallback=None)
    try:
        result = roller.run(scenario.system.resolve, scenario.attack, scenario.roster)
    except ValueError:
        from fracas.dice import RandomRoller

        result = scenario.system.resolve(RandomRoller(1), scenario.attack, scenario.roster)
    for event in result.events:
        data = event.to_dict()
        text = " ".join(str(v) for v in data.values())
        assert not UNSHIPPED.search(text), text
        rule = data.get("rule")
        if rule:  # "<source> · <section>": seed 003 · Damage, contest default · Weapon roll
            source, _, section = str(rule).partition(" · ")
            assert source and section, rule
