"""The public API that README.md and docs/ show keeps working after the ARCH-1 layout.

- every legacy flat module name (`rulepass.engine.pir_parse`, `rulepass.engine.exprs`, ...)
  imports, through `rulepass.engine.LegacyFinder`, the very module object of its new name;
- the names README and docs point users to exist under both the old and the new paths;
- README's "Embed the engine" example runs as written from a folder that holds only the
  tutorial's `my_rules.rw` and a `program.pir` (and again with the old module names).
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import rulepass.engine as engine

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


@pytest.mark.parametrize("old", sorted(engine.LEGACY_MODULES))
def test_legacy_module_is_the_new_module(old):
    legacy = importlib.import_module(f"rulepass.engine.{old}")
    new = importlib.import_module(f"rulepass.engine.{engine.LEGACY_MODULES[old]}")
    assert legacy is new
    assert sys.modules[f"rulepass.engine.{old}"] is new


def test_old_ir_module_name_still_gives_the_ir_classes():
    from rulepass.engine.ir import Operation, Program, Value
    from rulepass.engine.ir import core

    assert (Operation, Program, Value) == (core.Operation, core.Program, core.Value)


def test_unknown_engine_module_is_still_an_import_error():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("rulepass.engine.no_such_module")


@pytest.mark.parametrize("path", [
    "rulepass.engine.api.load_rules", "rulepass.engine.api.installed_rules",
    "rulepass.engine.api.load_rules_text",
    "rulepass.engine.pir_parse.parse_program", "rulepass.engine.pir.parse.parse_program",
    "rulepass.engine.printer.print_program", "rulepass.engine.pir.printer.print_program",
    "rulepass.engine.rw_functions.function", "rulepass.engine.rewrite.functions.function",
    "rulepass.engine.function",
    "rulepass.engine.exprs.ABSENT", "rulepass.engine.rewrite.values.ABSENT",
    "rulepass.engine.builder.Builder", "rulepass.engine.ir.builder.Builder",
    "rulepass.engine.backward.append_backward", "rulepass.engine.paddle.backward.append_backward",
    "rulepass.engine.rw_grad.load_grad_definitions", "rulepass.engine.paddle.grad.load_grad_definitions",
    "rulepass.engine.rw_grad.GradDecl", "rulepass.engine.rw_ast.GradDecl",
    "rulepass.chain.compile_rank", "rulepass.runtime.executor.Executor", "rulepass.cli.main",
])
def test_documented_name_exists(path):
    module, name = path.rsplit(".", 1)
    assert getattr(importlib.import_module(module), name) is not None


def test_legacy_and_new_absent_are_one_object():
    from rulepass.engine.exprs import ABSENT as old
    from rulepass.engine.rewrite.values import ABSENT as new

    assert old is new


def readme_block(heading: str, language: str) -> str:
    section = README.split(f"## {heading}\n", 1)[1]
    return re.search(rf"```{language}\n(.*?)```", section, re.S).group(1)


def tutorial_folder(tmp_path: Path) -> Path:
    rules = readme_block("Write a rule", "")
    (tmp_path / "my_rules.rw").write_text(rules)
    program = re.search(r'input """\n(.*?)"""', rules, re.S).group(1)
    (tmp_path / "program.pir").write_text(program)
    return tmp_path


@pytest.mark.parametrize("names", ["as written", "legacy"])
def test_readme_embedding_example_runs(tmp_path, names):
    code = readme_block("Embed the engine", "python")
    if names == "legacy":
        code = code.replace("rulepass.engine.pir.parse", "rulepass.engine.pir_parse") \
                   .replace("rulepass.engine.pir.printer", "rulepass.engine.printer")
        assert "pir_parse" in code
    folder = tutorial_folder(tmp_path)
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    program, trace = done.stdout.split("}\n", 1)
    assert '"pd_op.scale"' not in program and '"builtin.shadow_output" (%0)' in program
    assert '"rule": "unit_scale"' in trace
    assert sorted(p.name for p in folder.iterdir()) == ["my_rules.rw", "program.pir"]
