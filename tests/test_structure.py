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


def _python_files(folder: Path, pattern: str) -> list[Path]:
    """The files ``pattern`` matches in ``folder``, sorted; never none (a loop over none would check nothing)."""
    paths = sorted(folder.glob(pattern))
    assert paths, f"no {pattern} in {folder}"
    return paths


def _exported(path: Path) -> list[str]:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return [ast.literal_eval(element) for element in node.value.elts]  # type: ignore[attr-defined]
    return []


def test_the_command_line_modules_never_import_their_package() -> None:
    """A module of mechlint/cli imports its siblings by their own names, never ``mechlint.cli`` itself (a cycle)."""
    for path in _python_files(PACKAGE / "cli", "*.py"):
        if path.name == "__init__.py":
            continue
        for module, names in _imports(path):
            commands = {"attest", "check", "completion", "diff", "fix", "new", "pin", "rules", "server"}
            assert module != "mechlint.cli" or set(names) <= commands, f"{path.name} imports {names} from mechlint.cli"


def test_nothing_private_is_exported() -> None:
    for path in _python_files(PACKAGE, "**/*.py"):
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


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _runtime_imports(path: Path) -> set[str]:
    """The mechlint modules ``path`` imports when it runs, at the top or in a function (not for type checking)."""
    known = set(MODULES)
    found: set[str] = set()

    def owner(name: str) -> str:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name

    def visit(node: ast.AST) -> None:
        if _is_type_checking(node):
            return
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in known else owner(node.module))
        elif isinstance(node, ast.Import):
            found.update(owner(alias.name) for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {name for name in found if name.startswith("mechlint")}


#: The modules that stay at the top of mechlint/: what every layer shares, and the library's entry (README's map).
TOP_LEVEL = frozenset(
    {"__init__.py", "__main__.py", "version.py", "model.py", "records.py", "errors.py", "resources.py"}
)

#: The layers, bottom to top: a module imports modules of its own layer and of the layers below, never above. A
#: folder of mechlint/ is a layer; "top" is the shared modules above; "entry" is ``mechlint/__init__.py`` (the
#: library's ``lint``) and ``__main__.py`` (``python -m mechlint``), which nothing inside mechlint imports.
LAYERS = (
    "top",
    "safety",
    "report",
    "document",
    "text",
    "prebuilt",
    "schema",
    "language",
    "provenance",
    "rules",
    "invariants",
    "fixes",
    "catalog",
    "config",
    "run",
    "review",
    "authoring",
    "lsp",
    "cli",
    "entry",
)


def layer_of(module: str) -> str:
    if module in ("mechlint", "mechlint.__main__"):
        return "entry"
    if module == "mechlint.prebuilt.mechanism_schema":
        return "schema"  # the mechanism schema compiled to Python: generated code of the schema layer
    folder = module.split(".")[1]
    return folder if folder in LAYERS else "top"


def import_edges(path: Path, text: str | None = None) -> set[str]:
    """Every mechlint module ``path`` imports: at the top, in a function, under ``TYPE_CHECKING``, relatively.

    ``from mechlint.p import x`` imports ``mechlint.p`` (a package's ``__init__``), and ``mechlint.p.x`` too when
    ``x`` is a module.
    """
    known = set(MODULES)
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]

    def owner(name: str) -> str:
        while name not in known:
            name = name.rpartition(".")[0]
        return name

    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8") if text is None else text)):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = (base + ("." + node.module if node.module else "")) if node.level else (node.module or "")
            if module == "mechlint" or module.startswith("mechlint."):
                found.add(owner(module))
                found.update(f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in known)
        elif isinstance(node, ast.Import):
            found.update(owner(a.name) for a in node.names if a.name == "mechlint" or a.name.startswith("mechlint."))
    return found - {me}


def import_graph() -> dict[str, set[str]]:
    return {_module_name(path): import_edges(path) for path in PACKAGE.rglob("*.py")}


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a module in a layer above the importer's, as ``a (layer) -> b (layer)``."""
    return [
        f"{module} ({layer_of(module)}) -> {imported} ({layer_of(imported)})"
        for module, imports in sorted(graph.items())
        for imported in sorted(imports)
        if LAYERS.index(layer_of(imported)) > LAYERS.index(layer_of(module))
    ]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, pending = work[-1]
            step = next(pending, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_only_the_shared_modules_sit_at_the_top() -> None:
    """At the top of mechlint/: the library's entry and what every layer shares; every folder is a layer."""
    assert {path.name for path in PACKAGE.glob("*.py")} == TOP_LEVEL
    folders = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert folders == set(LAYERS) - {"top", "entry"}


def test_each_layer_imports_only_itself_and_the_layers_below() -> None:
    graph = import_graph()
    assert len(graph) == len(MODULES) and any(graph.values())
    assert layer_violations(graph) == []


def test_no_import_cycle_of_any_kind() -> None:
    """No module reaches itself through its imports, counting those in functions and under ``TYPE_CHECKING``."""
    graph = import_graph()
    assert graph
    assert cycles(graph) == []


def test_the_layer_and_cycle_checks_see_a_wrong_import() -> None:
    """An upward import hidden in a function under ``TYPE_CHECKING`` is a violation, and the loop it closes a cycle."""
    path = PACKAGE / "document" / "views.py"
    hidden = "\n\ndef late():\n    if TYPE_CHECKING:\n        from ..rules import Rule\n"
    graph = import_graph()
    graph["mechlint.document.views"] = import_edges(path, path.read_text(encoding="utf-8") + hidden)
    assert layer_violations(graph) == ["mechlint.document.views (document) -> mechlint.rules (rules)"]
    assert any({"mechlint.document.views", "mechlint.rules"} <= set(cycle) for cycle in cycles(graph))


def test_a_long_module_says_why_in_its_docstring() -> None:
    """A module over 300 lines explains in its docstring (a paragraph starting "Long:") why it is one module."""
    for path in _python_files(PACKAGE, "**/*.py"):
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > 300:
            docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            assert "\nLong: " in docstring, f"{path.relative_to(ROOT)} has {lines} lines and no reason"


def test_the_ids_of_the_mechlint_rules_are_declared_only_in_their_rule_modules() -> None:
    """``mechlint/internal-error`` and the others are written once, in ``mechlint/rules/mechlint/<rule>.py``."""
    from mechlint.catalog.registry import rules_by_id

    ids = {rule_id for rule_id in rules_by_id() if rule_id.startswith("mechlint/")}
    for path in _python_files(PACKAGE, "**/*.py"):
        if path.is_relative_to(PACKAGE / "rules" / "mechlint") or path.is_relative_to(PACKAGE / "report"):
            continue  # the SARIF reporter names the descriptor of a notification; it may not import rules
        tree = ast.parse(path.read_text(encoding="utf-8"))
        literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        assert not literals & ids, f"{path.relative_to(ROOT)} spells {sorted(literals & ids)}"


def test_the_per_run_services_have_a_name_that_says_so() -> None:
    from mechlint.provenance.services import RunServices
    from mechlint.rules import RuleContext

    assert not (PACKAGE / "run.py").exists()
    assert RuleContext().services is None
    assert RunServices(root=ROOT).source_root is None


def test_the_readme_module_map_names_every_module() -> None:
    """The README's "Developing" section names each module of mechlint/ and of each folder it maps module by module."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Developing") :]
    section = section[: section.find("\n## ", 3)] if "\n## " in section[3:] else section
    described = (
        "cli",
        "provenance",
        "safety",
        "document",
        "text",
        "schema",
        "language",
        "catalog",
        "config",
        "run",
        "fixes",
    )
    for folder in (PACKAGE, *(PACKAGE / name for name in (*described, "authoring"))):
        for path in _python_files(folder, "*.py"):
            if path.name not in ("__init__.py", "__main__.py"):
                assert f"{path.name}`" in section, f"the README's module map does not name {path.relative_to(ROOT)}"
    for package in sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py")):
        assert f"`{package}/" in section, f"the README's module map does not name mechlint/{package}/"


NAMED_TUPLE_API = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults"})


def test_no_test_reaches_into_private_names() -> None:
    """Tests use public names: no ``from mechlint… import _x``, no ``obj._x`` (but ``self._x``), no ``__wrapped__``.

    A named tuple's own methods (``_replace``, ``_asdict``, ``_fields``, ``_make``) are public API.
    """
    for path in _python_files(ROOT / "tests", "*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mechlint"):
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.endswith("__")]
                assert not private, f"{path.name}:{node.lineno} imports {private}"
            if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                dunder = node.attr.startswith("__") and node.attr.endswith("__") and node.attr != "__wrapped__"
                own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
                own = own or node.attr in NAMED_TUPLE_API
                assert dunder or own, f"{path.name}:{node.lineno} reaches into {ast.unparse(node)}"
            if isinstance(node, ast.Attribute) and node.attr == "inner_test":
                raise AssertionError(f"{path.name}:{node.lineno} uses hypothesis internals")


def test_the_provenance_classifier_takes_the_rule_ids_from_the_rule_modules() -> None:
    from mechlint.catalog.registry import rules_by_id

    ids = set(rules_by_id())
    for name in ("provenance/resolve.py",):
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf-8"))
        literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        assert not literals & ids, f"{name} spells {sorted(literals & ids)}"
