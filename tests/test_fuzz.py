"""A seeded fuzzer over the shipped programs, rules, example inputs (config, reference, arrays)
and plans (issue 18): a few hundred mutants per run
must raise nothing but the project's own errors (`RulepassError`), never hang, and the fast and
the lark program parsers must give one answer (accept both, or refuse both).

`RULEPASS_FUZZ_MUTANTS=N` (default 1) multiplies the mutant counts and `RULEPASS_FUZZ_SEED` picks
another seed, for a longer hunt than the suite's few seconds.
"""

from __future__ import annotations

import os
import random
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest

from rulepass.cli.main import main
from rulepass.engine.api import load_rules, load_rules_text
from rulepass.engine.errors import RulepassError
from rulepass.engine.lang.parse import parse_rules
from rulepass.engine.pir.lark_parser import parse_program_lark
from rulepass.engine.pir.parse import parse_program
from rulepass.engine.pir.printer import print_program
from rulepass.engine.pir.verify import verify

ROOT = Path(__file__).resolve().parent.parent
SCALE = int(os.environ.get("RULEPASS_FUZZ_MUTANTS", "1"))
SEED = int(os.environ.get("RULEPASS_FUZZ_SEED", "18"))
PROGRAMS = sorted((ROOT / "examples").glob("*/forward.pir"))
#: rule files that load in a few hundredths of a second (the mutants are loaded whole)
SMALL_RULES = ["partition.rw", "pipeline_reshard.rw", "prune_other_ranks.rw",
               "drop_trivial_comm.rw", "check_chunk_id.rw", "dist_to_dense.rw"]

#: characters and fragments the mutants insert: brackets, separators, digits, huge numbers,
#: deep nesting, Unicode spaces, bytes that are not UTF-8 once encoded as latin-1
PIECES = ["{", "}", "[", "]", "(", ")", "<", ">", ",", ":", "=", '"', "%", "-", "x", "0", "7",
          "\n", "\t", " ", "\u00a0", "#", "9" * 25, "9" * 5000, "[" * 150, "vec[" * 120,
          "-5x", "Place({)", "{value:1,value:2}", "process_group 0 : []\n", "f32", "tensor<",
          "pd_op.", "%kwarg_", "^kw:", "<<NULL VALUE>>", "op_dist_attr:", "mesh_shape:[2]",
          "Shard(dim=", "chunk_id:", "rule", "match", "rewrite", "where", "$", "#1", "grad",
          "pass", "for", "in", "not", "has(", "\"\"\"", "}}}}", "\\"]


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of ``text``: delete, duplicate or move a span, insert a piece,
    swap two lines, truncate."""
    for _ in range(rng.randint(1, 3)):
        n = len(text)
        if n == 0:
            return rng.choice(PIECES)
        i = rng.randrange(n)
        j = min(n, i + rng.randint(1, 12))
        kind = rng.randrange(6)
        if kind == 0:
            text = text[:i] + text[j:]
        elif kind == 1:
            text = text[:i] + text[i:j] * 2 + text[j:]
        elif kind == 2:
            text = text[:i] + rng.choice(PIECES) + text[i:]
        elif kind == 3:
            lines = text.split("\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif kind == 4:
            text = text[:i]
        else:
            k = rng.randrange(n)
            text = text[:k] + text[i:j] + text[k:]
    return text


@contextmanager
def no_hang(seconds: int, what: str):
    """Fail (not hang) when the block runs longer than ``seconds``."""
    def expired(signum, frame):
        raise TimeoutError(f"{what}: still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def prefix_program(text: str, rng: random.Random) -> str:
    """The first few op lines of a program, closed: a small valid program (values are defined
    before use), cheap enough for the lark parser."""
    lines = text.split("\n")
    start = lines.index("{")
    body = [line for line in lines[start + 1:] if line.startswith("    (")][: rng.randint(3, 14)]
    return "\n".join(lines[:start + 1] + body + ["}", ""])


def outcome(parse, text: str):
    """"ok" or the kind of project error; any other exception propagates (a failure)."""
    try:
        parse(text, "m.pir")
        return "ok"
    except RulepassError as error:
        return type(error).__name__


def test_program_mutants():
    rng = random.Random(SEED)
    sources = [p.read_text() for p in PROGRAMS]
    with no_hang(120 * SCALE, "program mutants"):
        for k in range(70 * SCALE):
            text = mutate(prefix_program(rng.choice(sources), rng), rng)
            fast = outcome(parse_program, text)
            grammar = outcome(parse_program_lark, text)
            assert (fast == "ok") == (grammar == "ok"), (k, fast, grammar, text)
            if fast != "ok":
                continue
            program = parse_program(text, "m.pir")
            try:
                verify(program)
            except RulepassError:
                continue
            printed = print_program(program)
            assert print_program(parse_program(printed)) == printed, (k, text)


def test_program_mutants_through_passes():
    rng = random.Random(SEED + 1)
    rules = load_rules([], installed=True)
    passes = [("partition", {}), ("prune_other_ranks", {"rank": 0}),
              ("dist_to_dense", {"rank": 1}), ("drop_trivial_comm", {}),
              ("lower_reshard", {"rank": 0}), ("lower_pipeline_reshard", {"rank": 1})]
    sources = [p.read_text() for p in PROGRAMS]
    with no_hang(120 * SCALE, "passes on program mutants"):
        for k in range(50 * SCALE):
            text = mutate(rng.choice(sources), rng)
            try:
                program = parse_program(text, "m.pir")
            except RulepassError:
                continue
            name, params = rng.choice(passes)
            before = print_program(program)
            try:
                rules.run_pass(program, name, **params)
            except RulepassError:
                assert print_program(program) == before, (k, name)  # a failed pass changes nothing


def test_rule_mutants():
    rng = random.Random(SEED + 2)
    texts = {p.name: p.read_text() for p in sorted((ROOT / "rules").glob("*.rw"))}
    names = sorted(texts)
    with no_hang(120 * SCALE, "rule mutants"):
        for k in range(70 * SCALE):
            name = rng.choice(SMALL_RULES if k % 4 == 0 else names)
            text = mutate(texts[name], rng)
            try:
                parse_rules(text, name)
            except RulepassError:
                continue
            if k % 4 == 0:  # the small files are loaded whole: checked and compiled
                try:
                    load_rules_text(text, name)
                except RulepassError:
                    pass


@pytest.mark.parametrize("command", ["print", "verify", "check"])
def test_cli_on_mutated_bytes(tmp_path, capsys, command):
    """Mutants as files, bytes included (not UTF-8, NUL): the CLI exits 0 or 1, never raises."""
    rng = random.Random(SEED + 3)
    if command == "check":
        sources = [(ROOT / "rules" / name).read_bytes() for name in SMALL_RULES[:3]]
    else:
        sources = [p.read_bytes() for p in PROGRAMS[:4]]
    target = tmp_path / ("m.rw" if command == "check" else "m.pir")
    with no_hang(120 * SCALE, f"{command} on mutated files"):
        for k in range(12 * SCALE):
            data = bytearray(rng.choice(sources))
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(len(data))
                data[i:i + rng.randint(0, 3)] = bytes(rng.randrange(256)
                                                      for _ in range(rng.randint(0, 3)))
            target.write_bytes(bytes(data))
            assert main([command, str(target)]) in (0, 1), k
            assert "Traceback" not in capsys.readouterr().err


# Issue 18's breaker found tracebacks in the example's other inputs (a .npy renamed params.npz, a
# 100,000-deep reference.json, a plan's huge mesh): their mutants too raise only project errors.

def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(data)) if data else 0
        kind = rng.randrange(3)
        if kind == 0:
            data[i:i + rng.randint(0, 8)] = bytes(rng.randrange(256) for _ in range(rng.randint(0, 8)))
        elif kind == 1:
            del data[i:]
        else:
            data[i:i] = data[i:i + rng.randint(1, 64)]
    return bytes(data)


def test_example_input_mutants(tmp_path):
    import shutil

    from rulepass.checks import check_example
    from rulepass.example import load_example

    rng = random.Random(SEED + 4)
    source = ROOT / "examples" / "mp2"
    files = ["config.toml", "reference.json", "data.npz", "params.npz", "params_final.npz"]
    originals = {name: (source / name).read_bytes() for name in files}
    example = tmp_path / "mp2"
    shutil.copytree(source, example)
    with no_hang(120 * SCALE, "example input mutants"):
        for k in range(60 * SCALE):
            name = files[k % len(files)]
            original = originals[name]
            if name.endswith(".npz"):
                data = _mutate_bytes(original, rng)
            else:
                data = mutate(original.decode(), rng).encode("utf-8", "surrogatepass")
            (example / name).write_bytes(data)
            try:
                check_example(load_example(example))
            except RulepassError:
                pass
            (example / name).write_bytes(original)


def test_plan_mutants():
    from rulepass.engine.paddle.plan import load_plan

    rng = random.Random(SEED + 5)
    plans = [p.read_text() for p in sorted((ROOT / "examples").glob("*/plan.toml"))]
    plans += ['[mesh]\nshape = [99999999999]\ndim_names = ["mp"]\n',
              '[mesh]\nshape = [2, 2]\ndim_names = ["pp", "mp"]\n[pp]\nsplit_spec = "X"\n']
    with no_hang(60 * SCALE, "plan mutants"):
        for _ in range(100 * SCALE):
            text = mutate(rng.choice(plans), rng)
            try:
                load_plan(text, "plan.toml")
            except RulepassError:
                pass
