"""The package structure of docs/architecture.md holds: no import cycle (tools/import_cycles.py,
the project's shared checker, counting imports inside functions), imports only in the package
directions errors -> ir -> pir -> lang -> rewrite -> api -> paddle -> runtime -> rulepass, no
private `_name` imported from another module, no module over 600 lines (tools/ and bench/
included), at most 8 modules at the root of engine/."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600
MAX_ENGINE_ROOT = 8

#: module-name prefix -> layer; an import may only go to the same layer or a lower one.
#: (The longest matching prefix wins; `rulepass` is everything else of the facade.)
LAYERS = {
    "rulepass.grammar": 0, "rulepass.rules": 0,
    "rulepass.engine.errors": 0, "rulepass.engine.files": 0, "rulepass.engine.limits": 0,
    "rulepass.engine.ir": 1,
    "rulepass.engine.pir": 2,
    "rulepass.engine.lang": 3,
    "rulepass.engine.rewrite": 4,
    "rulepass.engine.api": 5, "rulepass.engine.rule_tests": 5, "rulepass.engine": 5,
    "rulepass.engine.paddle": 6,
    "rulepass.runtime": 7,
    "rulepass": 8,
}


def package_dirs() -> dict[str, Path]:
    text = (ROOT / "pyproject.toml").read_text()
    return {pkg: ROOT / d for pkg, d in re.findall(r'^"(rulepass[\w.]*)"\s*=\s*"([^"]+)"', text, re.M)}


def modules() -> dict[str, Path]:
    """Every module of the installed packages, by dotted name (as tools/import_cycles.py names them)."""
    found = {}
    dirs = package_dirs()
    for pkg, folder in dirs.items():
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).with_suffix("")
            # the deepest package-dir that holds the file names it
            owner = max((p for p, d in dirs.items() if path.is_relative_to(d)), key=lambda p: len(dirs[p].parts))
            if owner != pkg:
                continue
            name = ".".join([pkg, *rel.parts])
            found[name.removesuffix(".__init__")] = path
    return found


MODULES = modules()


def imports(name: str, path: Path):
    """(target module, imported names, line) of every import in the module, functions included."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, (), node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            yield target, tuple(a.name for a in node.names), node.lineno


def resolve(target: str) -> str | None:
    while target and target not in MODULES:
        target = target.rsplit(".", 1)[0] if "." in target else ""
    return target or None


def layer(module: str) -> int:
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def test_no_import_cycles():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "import_cycles.py"), str(ROOT)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip().startswith("0 import cycles"), done.stdout


def test_imports_follow_the_package_directions():
    wrong = []
    for name, path in MODULES.items():
        for target, names, line in imports(name, path):
            for candidate in [target, *(f"{target}.{n}" for n in names)]:
                hit = resolve(candidate)
                if hit and hit != name and layer(hit) > layer(name):
                    wrong.append(f"{path.relative_to(ROOT)}:{line}: {name} imports {hit}")
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_no_private_name_imported_across_modules():
    wrong = []
    for name, path in MODULES.items():
        for target, names, line in imports(name, path):
            if resolve(target) is None:
                continue  # another library's business
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            private += [p for p in target.split(".") if p.startswith("_") and not p.startswith("__")]
            if private:
                wrong.append(f"{path.relative_to(ROOT)}:{line}: imports {', '.join(private)} from {target}")
    assert not wrong, "\n".join(wrong)


#: folders of scripts outside the packages whose modules are held to MAX_LINES too (not tests/)
SCRIPT_DIRS = ("tools", "bench")


def oversized(paths, root: Path = ROOT) -> dict[str, int]:
    """Path relative to ``root`` -> line count of each file over MAX_LINES."""
    return {p.relative_to(root).as_posix(): n for p in paths
            if (n := p.read_text().count("\n")) > MAX_LINES}


def script_modules(root: Path = ROOT) -> list[Path]:
    """The .py files under the SCRIPT_DIRS of ``root``."""
    return sorted(p for d in SCRIPT_DIRS for p in (root / d).rglob("*.py"))


def test_modules_are_small():
    big = oversized([*MODULES.values(), *script_modules()])
    assert not big, big


def test_the_size_check_covers_tools_and_bench(tmp_path):
    """tools/ and bench/ scripts are counted (the capture tool and the engine benchmark among
    them, tests/ not), and a script one line over the limit is reported."""
    names = {p.relative_to(ROOT).as_posix() for p in script_modules()}
    assert {"tools/capture_paddle.py", "bench/engine.py"} <= names
    assert not any(n.startswith("tests/") for n in names)
    (tmp_path / "tools").mkdir()
    (tmp_path / "bench").mkdir()
    (tmp_path / "tools" / "big.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "bench" / "fits.py").write_text("x = 1\n" * MAX_LINES)
    assert oversized(script_modules(tmp_path), tmp_path) == {"tools/big.py": MAX_LINES + 1}


def test_engine_root_holds_few_modules():
    root = sorted(p.name for p in (ROOT / "engine").glob("*.py"))
    assert len(root) <= MAX_ENGINE_ROOT, root


@pytest.mark.parametrize("source, expected", [
    ("rulepass.engine.ir.core", 1), ("rulepass.engine.rewrite.codegen.match", 4),
    ("rulepass.engine.api", 5), ("rulepass.engine.paddle.grad", 6), ("rulepass.cli.main", 8),
])
def test_layers_are_named_as_the_docs_say(source, expected):
    assert source in MODULES and layer(source) == expected


def test_a_wrong_direction_would_be_found(tmp_path):
    """The direction check reads what it should: an `ir` module importing the printer is flagged."""
    fake = tmp_path / "x.py"
    fake.write_text("def f():\n    from rulepass.engine.pir.printer import print_program\n")
    found = [resolve(t) for t, _, _ in imports("rulepass.engine.ir.x", fake)]
    assert layer(found[0]) > layer("rulepass.engine.ir.x")
