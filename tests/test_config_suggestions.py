"""Configuration and CLI names that are almost right get the likely one, and look-alike characters are named."""

from __future__ import annotations

from pathlib import Path

import pytest

from mechlint.cli import main
from mechlint.config import Config, load_config
from mechlint.errors import ConfigError


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ('[rules."reference/unused-targets"]\nlevel = "off"\n', 'did you mean "reference/unused-target"?'),
        ('[rules."reference/unused-t\u0430rget"]\nlevel = "off"\n', "U+0430 CYRILLIC SMALL LETTER A"),
        ('selekt = ["plain"]\n', 'did you mean "select"?'),
    ],
)
def test_config_names_the_likely_key(tmp_path: Path, toml: str, expected: str) -> None:
    path = tmp_path / "mechlint.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert expected in str(caught.value)


def test_a_selector_typo_is_suggested() -> None:
    with pytest.raises(ConfigError, match='did you mean "plain/word-choice"'):
        Config().with_flags(select=["plain/word-choise"])


def test_the_rule_command_names_a_look_alike(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "reference/unknown-t\u0430rget"]) == 2
    assert "U+0430" in capsys.readouterr().err
