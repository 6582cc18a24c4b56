"""The package's shape: the command line is a package that imports downwards only, and nothing private is exported."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mechlint"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = sorted(_module_name(path) for path in PACKAGE.rglob("*.py"))


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """``(module, names)`` for every absolute import of ``mechlint`` in ``path``, top level or inside functions."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
    return [(module, names) for module, names in found if module == "mechlint" or module.startswith("mechlint.")]


def _exported(path: Path) -> list[str]:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return [ast.literal_eval(element) for element in node.value.elts]  # type: ignore[attr-defined]
    return []


def test_the_command_line_modules_never_import_their_package() -> None:
    """A module of mechlint/cli imports its siblings by their own names, never ``mechlint.cli`` itself (a cycle)."""
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        if path.name == "__init__.py":
            continue
        for module, names in _imports(path):
            commands = {"attest", "check", "completion", "fix", "pin", "rules", "server"}
            assert module != "mechlint.cli" or set(names) <= commands, f"{path.name} imports {names} from mechlint.cli"


def test_nothing_private_is_exported() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        private = [name for name in _exported(path) if name.startswith("_") and not name.endswith("__")]
        assert not private, f"{path.relative_to(ROOT)} exports {private}"


def test_the_console_script_and_python_m_use_the_command_line_package() -> None:
    import tomllib

    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"mechlint": "mechlint.cli.entry:run"}
    done = subprocess.run([sys.executable, "-m", "mechlint", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout.startswith("mechlint "), done


def test_the_fast_path_of_check_does_not_import_typer() -> None:
    code = "import sys, mechlint.cli.entry; assert not {'typer', 'click'} & set(sys.modules), sorted(sys.modules)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


@pytest.mark.parametrize("module", [m for m in MODULES if m.startswith("mechlint.cli")])
def test_each_command_line_module_imports_alone(module: str) -> None:
    subprocess.run([sys.executable, "-c", f"import {module}"], check=True, cwd=ROOT)
