from __future__ import annotations

import json
import os
import tempfile
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


def _root() -> bool:
    return getattr(os, "geteuid", lambda: -1)() == 0


def _reads_anything() -> bool:
    """Whether this process reads a file whose mode forbids it (root, unless its DAC capabilities are dropped)."""
    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / "probe"
        probe.write_bytes(b"x")
        probe.chmod(0)
        try:
            probe.read_bytes()
        except PermissionError:
            return False
        return True


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """``needs_root`` tests skip for other users; ``not_root`` tests skip where file permissions do not bind.

    ``.ci/run`` runs the suite as root, then ``pytest -m not_root`` as an unprivileged user (or as root
    without the capabilities that bypass file permissions), so that both groups run in one CI.
    """
    marked = [item for item in items if item.get_closest_marker("not_root")]
    if marked and _reads_anything():
        reason = "file permissions do not bind this user (root); .ci/run runs pytest -m not_root without that power"
        for item in marked:
            item.add_marker(pytest.mark.skip(reason=reason))
    if not _root():
        for item in items:
            if item.get_closest_marker("needs_root"):
                item.add_marker(pytest.mark.skip(reason="needs root (.ci/run runs the suite as root)"))
