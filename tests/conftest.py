from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
#: The real mechanism file this project started from, byte for byte.
SEED = FIXTURES / "seed" / "mechanisms" / "prefix-cache.json"
#: The seed with its inconsistencies fixed and slower steps: no rule fires on it.
CLEAN = FIXTURES / "clean" / "mechanisms" / "prefix-cache.json"


@pytest.fixture
def seed_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SEED.read_text(encoding="utf-8"))
    return data


@pytest.fixture(autouse=True)
def _own_cache_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The result cache is on by default and lives in the user's cache folder: give each test its own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
