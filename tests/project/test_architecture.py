"""The architecture: one owner for each definition, layers imported in one direction, no
import circle but the documented engine one (`docs/architecture.md`)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "ludosim"


def _sources() -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}


def test_the_metadata_key_and_the_version_are_defined_once() -> None:
    sources = _sources()
    key = [p for p, text in sources.items() if 'b"ludosim"' in text]
    assert key == [PACKAGE / "results" / "schema.py"]
    version = [p for p, text in sources.items() if "__version__ = " in text]
    assert version == [PACKAGE / "_version.py"]
    assert not [p for p, text in sources.items() if "from ludosim import __version__" in text]


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module, inside a function) of every `from ludosim... import` in `path`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nested = {
        id(node)
        for func in ast.walk(tree)
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))
        for node in ast.walk(func)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "ludosim":
            # `from ludosim import simulate` imports the package's name `simulate`.
            found += [(f"ludosim.{a.name}", id(node) in nested) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ludosim"):
            found.append((node.module or "", id(node) in nested))
        elif isinstance(node, ast.Import):
            found += [
                (a.name, id(node) in nested) for a in node.names if a.name.startswith("ludosim")
            ]
    return found


# Every layer of the package, lowest first: a module imports only from its own layer and
# those before it (`ludosim/__init__.py`, README.md "Project layout", docs/api.md).
LAYERS = (
    ("rules",),
    ("engine", "reference"),
    ("results",),
    ("run",),
    ("sweep",),
    ("report",),
    ("studies",),
    ("adapters", "cli"),
)
# Imports against the layer order that are known and kept, each with its reason (none now).
KNOWN_UPWARD: set[tuple[str, str]] = set()


def _layer_of(module: str) -> int | None:
    """The layer of a `ludosim...` module."""
    parts = module.split(".")
    if parts[0] != "ludosim" or len(parts) < 2:
        return None
    name = parts[1]
    return next((i for i, layer in enumerate(LAYERS) if name in layer), None)


def _upward_imports() -> set[tuple[str, str]]:
    """(file under ludosim/, module) of every import of a later layer, lazy ones included."""
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        own = _layer_of("ludosim." + relative.parts[0]) if len(relative.parts) > 1 else None
        if own is None:
            continue  # the package's own __init__ and _version
        for module, _ in _imports(path):
            layer = _layer_of(module)
            if layer is not None and layer > own:
                found.add((relative.as_posix(), module))
    return found


def test_no_module_imports_from_a_later_layer() -> None:
    listed = {name for layer in LAYERS for name in layer}
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert packages == listed, "every package of ludosim has its place in LAYERS"
    assert _upward_imports() == KNOWN_UPWARD


# The one import circle kept. The turn hands an expert seat's choices to the search
# (`turn.search_move_if`, `turn.search_plan_if`), and the search plays its rollouts with
# the turn itself (`turn.play_move`, `single_roll_turn`, `plan_turn`). A numba function
# calls another by its module-level name, bound when the caller is compiled, so each
# module must name the other. turn.py imports the search only inside those overloads,
# which numba types with the literal `expert`: a game typed with True compiles the
# search, whose rollouts call the turn with False, a copy without it; a game with no
# expert seat never imports the search or compiles it.
KNOWN_CIRCLES = {frozenset({"ludosim.engine.expert", "ludosim.engine.turn"})}


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph() -> dict[str, set[str]]:
    """Every module of ludosim -> the ludosim modules it imports, at the top or in a function.

    `from package import name` counts as an import of the submodule `name` where there is
    one, else of the package.
    """
    paths = {_module_of(path): path for path in sorted(PACKAGE.rglob("*.py"))}

    graph = {}
    for module, path in paths.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ludosim"):
                assert node.level == 0, f"{module} imports relatively"
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    targets.add(sub if sub in paths else node.module or "")
            elif isinstance(node, ast.Import):
                targets |= {a.name for a in node.names if a.name.startswith("ludosim")}
        assert targets <= paths.keys(), f"{module} imports {sorted(targets - paths.keys())}"
        graph[module] = targets - {module}
    return graph


def _import_circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The modules that import each other, directly or not: each circle as its set."""

    def reached(start: str) -> set[str]:
        seen: set[str] = set()
        stack = [start]
        while stack:
            for module in graph[stack.pop()] - seen:
                seen.add(module)
                stack.append(module)
        return seen

    reach = {module: reached(module) for module in graph}
    return {
        frozenset({module} | {other for other in reach[module] if module in reach[other]})
        for module in graph
        if module in reach[module]
    }


def test_no_modules_import_each_other_but_the_turn_and_the_search() -> None:
    assert _import_circles(_import_graph()) == KNOWN_CIRCLES
    turn = PACKAGE / "engine" / "turn.py"
    assert {inside for module, inside in _imports(turn) if module.endswith(".expert")} == {True}


def test_the_circle_finder_finds_a_circle_through_three_modules() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert _import_circles(graph) == {frozenset("abc")}


def test_the_report_imports_nothing_from_the_sweep() -> None:
    for path in sorted((PACKAGE / "report").glob("*.py")):
        for module, _ in _imports(path):
            assert not module.startswith("ludosim.sweep"), f"report/{path.name} imports {module}"


def test_the_kernel_wrapper_and_the_sweep_import_results_at_the_top() -> None:
    for path in [PACKAGE / "run" / "simulate.py", *sorted((PACKAGE / "sweep").glob("*.py"))]:
        for module, inside in _imports(path):
            assert not (inside and module.startswith(("ludosim.results", "ludosim.run"))), (
                f"{path.name} imports {module} inside a function"
            )


def test_no_module_is_over_800_lines_but_generated_ones() -> None:
    """One concern per module: a module that grows past 800 lines holds more than one.
    A generated table (its docstring says so) is data, not a module one reads."""
    long = {
        path.relative_to(PACKAGE).as_posix(): n
        for path in sorted(PACKAGE.rglob("*.py"))
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > 800
        and "Generated from" not in (ast.get_docstring(ast.parse(path.read_text())) or "")
    }
    assert not long, long
