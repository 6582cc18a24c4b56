"""Configuration: found by walking up, validated strictly, merged with flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from mechlint.config import find_config_file, load_config
from mechlint.errors import ConfigError
from mechlint.model import Level


def test_found_by_walking_up_and_mechlint_toml_wins(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.mechlint]\nfail-on = 'warning'\n")
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    assert find_config_file(deep) == tmp_path / "pyproject.toml"
    (tmp_path / "mechlint.toml").write_text("fail-on = 'note'\n")
    assert load_config(start=deep).fail_on == "note"


def test_pyproject_without_table_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    assert find_config_file(tmp_path) is None or find_config_file(tmp_path) != tmp_path / "pyproject.toml"


def test_levels_and_options_are_applied(tmp_path: Path) -> None:
    (tmp_path / "mechlint.toml").write_text(
        '[rules."reference/unused-target"]\nlevel = "off"\n'
        '[rules."reference/id-mismatch"]\nlevel = "warning"\nprefix = "fig-"\n'
    )
    config = load_config(start=tmp_path)
    enabled = {entry.rule.meta.id: entry for entry in config.enabled()}
    assert "reference/unused-target" not in enabled
    assert enabled["reference/id-mismatch"].level is Level.WARNING
    assert enabled["reference/id-mismatch"].options["prefix"] == "fig-"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("colour = 1\n", "unknown key"),
        ("include = 'x'\n", "include"),
        ("fail-on = 'fatal'\n", "fail-on"),
        ("max-file-size = -1\n", "max-file-size"),
        ("select = ['nope']\n", "nope"),
        ('[rules."schema/nope"]\n', "unknown rule id"),
        ('[rules."schema/violation"]\nlevel = "loud"\n', "level"),
        ('[rules."reference/id-mismatch"]\nprefix = 3\n', "expected a string"),
        ('[rules."reference/id-mismatch"]\nsuffix = "x"\n', "unknown option"),
        ("this is = not toml\n", "not valid TOML"),
    ],
)
def test_invalid_configuration_names_the_problem(tmp_path: Path, text: str, fragment: str) -> None:
    (tmp_path / "mechlint.toml").write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(start=tmp_path)
    assert fragment in str(caught.value)
    assert "mechlint.toml" in str(caught.value)


def test_flags_override_the_file(tmp_path: Path) -> None:
    (tmp_path / "mechlint.toml").write_text("fail-on = 'warning'\n")
    config = load_config(start=tmp_path).with_flags(fail_on="never", ignore=["reference"])
    assert config.fail_level is None
    assert not any(e.rule.meta.family == "reference" for e in config.enabled())
