"""The examples of docs/rule-language.md are real.

- `rulepass check docs/examples` passes every test block of the example files;
- every ```rw block of the reference parses on its own, unless it is marked ```rw fragment;
- every ```python block runs (in order, from the repository root);
- the grad blocks of docs/examples/grad_square.rw compile;
- every built-in function and every function rulepass registers is documented;
- every example file is named in the reference, and the error samples point at the right lines.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulepass.engine.lang.parse import parse_rules

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rule-language.md"
EXAMPLES = ROOT / "docs" / "examples"

FENCE = re.compile(r"^( *)```(\w*)[ \t]*(\w*)[ \t]*\n(.*?)^\1```[ \t]*$", re.S | re.M)


def blocks(language: str) -> list[tuple[int, str, str]]:
    """(line, info word after the language, dedented text) of each fenced block in `language`."""
    text = DOC.read_text()
    out = []
    for match in FENCE.finditer(text):
        indent, lang, info, body = match.groups()
        if lang == language:
            line = text.count("\n", 0, match.start()) + 1
            out.append((line, info, textwrap.dedent(body)))
    return out


def test_rulepass_check_passes_every_example():
    command = [sys.executable, "-m", "rulepass", "check", str(EXAMPLES)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.strip().splitlines()[-1]
    match = re.fullmatch(r"(\d+) passed, 0 failed", last)
    assert match and int(match.group(1)) > 0, done.stdout
    assert "warning" not in done.stderr, done.stderr


def test_every_rw_block_parses_or_is_a_fragment():
    found = blocks("rw")
    assert len(found) > 20
    for line, info, body in found:
        if info == "fragment":
            continue
        assert info == "", f"docs/rule-language.md:{line}: unknown marker {info!r}"
        parse_rules(body, f"docs/rule-language.md:{line}")


def test_rw_blocks_are_copied_from_the_example_files():
    """A complete block is a piece of an example file (whitespace aside), so it runs as shown."""
    examples = re.sub(r"\s+", " ", " ".join(p.read_text() for p in EXAMPLES.glob("*.rw")))
    for line, info, body in blocks("rw"):
        if info == "fragment":
            continue
        flat = re.sub(r"\s+", " ", body).strip()
        assert flat in examples, f"docs/rule-language.md:{line}: not in docs/examples/*.rw"


def test_python_blocks_run(monkeypatch):
    from rulepass.engine.api import import_function_modules
    from rulepass.engine.rewrite.functions import REGISTRY, unregister

    monkeypatch.chdir(ROOT)
    # the shipped functions first: a block that loads rules would import their modules, and
    # unregistering them afterwards would leave later tests without them
    import_function_modules()
    before = set(REGISTRY)
    try:
        for line, _, body in blocks("python"):
            code = compile(body, f"docs/rule-language.md:{line}", "exec")
            exec(code, {"__name__": "docs_example"})  # noqa: S102 - our own documentation
    finally:
        for name in set(REGISTRY) - before:
            unregister(name)


def test_grad_example_compiles():
    from rulepass.engine.paddle.grad import load_grad_definitions

    definitions = load_grad_definitions([EXAMPLES / "grad_square.rw"])
    names = sorted(name for d in definitions for name in d.op_names)
    assert names == ["pd_op.my_affine", "pd_op.my_square", "pd_op.tanh"]


def test_every_function_is_documented():
    from rulepass.engine.api import import_function_modules
    from rulepass.engine.lang.builtins import BUILTINS
    from rulepass.engine.rewrite.functions import REGISTRY

    import_function_modules()
    text = DOC.read_text()
    shipped = {n for n, f in REGISTRY.items() if f.fn.__module__.startswith("rulepass.engine.")}
    for name in set(BUILTINS) | shipped:
        assert f"`{name}(" in text, f"{name}() is not in docs/rule-language.md"


def test_every_example_file_is_named():
    text = DOC.read_text()
    for path in EXAMPLES.glob("*.rw"):
        if path.name != "included_passes.rw":
            assert f"docs/examples/{path.name}" in text, path.name
    assert "included_passes.rw" in text


def test_error_samples_point_at_their_rules():
    """`docs/examples/F.rw:N: rewrite error: in pass P[, rule R]` names line N of F."""
    sample = re.compile(r"(docs/examples/[\w.]+\.rw):(\d+): rewrite error: in pass (\w+)"
                        r"(?:, rule (\w+))?")
    found = sample.findall(DOC.read_text())
    assert found
    for file, line, pass_name, rule in found:
        lines = (ROOT / file).read_text().split("\n")
        at = lines[int(line) - 1]
        if rule:
            # the rule's line, or an action inside it
            start = next(i for i in range(int(line) - 1, -1, -1) if "rule " in lines[i])
            assert f"rule {rule}" in lines[start], (file, line, at)
        else:
            assert f"pass {pass_name}" in at, (file, line, at)


@pytest.mark.parametrize("args", [["--pass", "fold_relu", "--rules", "docs/examples/tour.rw"]])
def test_tour_command_line(args):
    command = [sys.executable, "-m", "rulepass", "rewrite", "docs/examples/tour.pir", *args]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"pd_op.relu"') == 1
