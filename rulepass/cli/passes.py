"""What ``rulepass rewrite`` runs: the passes and pipelines of the command line, in the order
given (``--pass a --pass b``, ``--pass a,b``, ``--pipeline p``, mixed), as one flat list of
(pass, params) steps, and the IR dumps after each step (``--print-ir-after-all`` on stderr,
``--dump-dir DIR``: mlir-opt's habits).

Params (``-p KEY=VALUE``) reach every pass of the list that declares them, as a pipeline's params
do (:meth:`~rulepass.engine.api.RuleSet.pipeline_steps`); a key given twice or an item
without ``=`` is wrong usage (exit 2); a key no pass declares, a value that does not convert to
the param's type and a missing param of a pass the command line names are problems with the
params (exit 1, docs/spec/cli.md), named by pass and param rather than at the installed rule
file's declaration the user did not write; all before anything runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulepass.cli.inputs import UsageError
from rulepass.engine.errors import RuleCompileError


def parse_params(items) -> dict:
    """``-p KEY=VALUE`` items as {key: value text}.

    Raises:
        UsageError: an item without ``=`` or key (``-p rank``), or a key given twice
            (``-p k=1 -p k=2``: which one was meant is unknown). Both are wrong usage (exit 2).
    """
    params: dict = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"-p {item!r}: expected KEY=VALUE (for example -p rank=1)")
        if key in params:
            raise UsageError(f"-p {key} given twice ({key}={params[key]} and {key}={value}); "
                             "give each param once")
        params[key] = value
    return params


def split_names(items) -> list[tuple[str, str]]:
    """(kind, name) for each ``--pass``/``--pipeline`` item, comma-separated lists split, in order.

    Raises:
        UsageError: an empty name (``--pass a,,b``) or no name at all.
    """
    out = []
    for kind, text in items:
        for name in text.split(","):
            name = name.strip()
            if not name:
                raise UsageError(f"--{kind} {text!r}: empty pass name in the list")
            out.append((kind, name))
    if not out:
        raise UsageError("give --pass NAME or --pipeline NAME")
    return out


def _declared(rules, kind: str, name: str) -> set:
    """Every param some pass of ``name`` (a pass, or a pipeline and those it includes) declares.
    Raises RuleCompileError for an unknown name, listing the names of its kind (and saying so
    when it names the other kind)."""
    table, other = (rules.passes, rules.pipelines) if kind == "pass" else (rules.pipelines,
                                                                           rules.passes)
    if name not in table:
        plural = "passes" if kind == "pass" else "pipelines"
        hint = ""
        if name in other:
            hint = f"; {name!r} is a {'pipeline' if kind == 'pass' else 'pass'}: give " \
                   f"--{'pipeline' if kind == 'pass' else 'pass'} {name}"
        raise RuleCompileError(f"unknown {kind} {name!r} ({plural}: "
                               f"{', '.join(sorted(table)) or 'none'}){hint}")
    if kind == "pass":
        return set(rules.find_pass(name).params)
    out, stack = set(), [name]
    while stack:
        for entry in rules.pipelines[stack.pop()].entries:
            if entry.name in rules.pipelines:
                stack.append(entry.name)
            else:
                out.update(rules.find_pass(entry.name).params)
    return out


def plan_steps(rules, names: list[tuple[str, str]], params: dict) -> list:
    """(CompiledPass, resolved params) for every pass to run, pipelines expanded, all params
    checked and converted before anything runs.

    Raises:
        RuleCompileError: an unknown pass or pipeline; a param no pass declares, a value of the
            wrong type or a missing param of a pass named with ``--pass`` (named by pass and
            param); a param a pipeline's own entries get wrong (as
            :meth:`RuleSet.resolve_params` names it).
    """
    steps, used, declared_all = [], set(), set()
    for kind, name in names:
        declared = _declared(rules, kind, name)
        declared_all |= declared
        chosen = {k: v for k, v in params.items() if k in declared}
        used.update(chosen)
        if kind == "pipeline":
            steps.append((kind, name, chosen))
        else:
            steps.append((kind, rules.find_pass(name), chosen))
    unused = sorted(set(params) - used)
    if unused:
        listed = ", ".join(f"{kind} {name}" for kind, name in names)
        raise RuleCompileError(f"-p {', '.join(unused)}: no param of {listed} (their params: "
                         f"{', '.join(sorted(declared_all)) or 'none'})")
    out = []
    for kind, step, chosen in steps:
        if kind == "pipeline":
            out.extend(rules.pipeline_steps(step, chosen, True))
            continue
        _check_given(step, chosen)
        out.append((step, rules.resolve_params(step, chosen, True)))
    return out


def _check_given(cpass, given: dict) -> None:
    """The ``-p`` values of one pass the command line names: each converts to its declared type
    and every param without a default is given. These are the command line's mistakes, reported
    named by pass and param, not at the installed rule file's declaration.

    Raises:
        RuleCompileError: naming the param, the pass and the declared type.
    """
    from rulepass.engine.api import convert_param

    for name, text in given.items():
        kind = cpass.params[name].type
        try:
            convert_param(text, kind)
        except RuleCompileError:
            raise RuleCompileError(f"-p {name}={text}: param value {text!r} is not "
                                   f"{'an' if kind == 'int' else 'a'} {kind} (param {name!r} "
                                   f"of pass {cpass.name})") from None
    for name, param in cpass.params.items():
        if name not in given and param.default is None:
            raise RuleCompileError(f"pass {cpass.name!r} needs param {name!r} ({param.type}); "
                                   f"give it as -p {name}=...")


class IRDumps:
    """The program after each step: on stderr with ``print_after_all`` (mlir-opt's
    ``// -----// IR Dump After NAME //----- //`` header), and as ``NN_NAME.pir`` files in
    ``folder`` (NN counts the steps from 01; the folder is made and checked first)."""

    def __init__(self, print_after_all: bool = False, folder: str | None = None):
        from rulepass.engine.files import check_output_dir

        self.print_after_all = print_after_all
        self.folder = check_output_dir(folder, "--dump-dir folder") if folder else None
        self.count = 0
        self.rank_counts: dict[int, int] = {}

    @property
    def active(self) -> bool:
        """Whether anything is dumped."""
        return self.print_after_all or self.folder is not None

    def file(self, count: int, name: str, prefix: str = "") -> Path:
        """The file of step number ``count`` (from 1), pass ``name``: ``folder/prefix/NN_name.pir``."""
        return self.folder / prefix / f"{count:02d}_{name}.pir"

    def per_rank(self, name: str, rank: int, program) -> None:
        """:meth:`after` for rank ``rank`` of ``rulepass run`` (files under ``rank<r>/``, each
        rank counting its own steps; the threads of the local backend compile one rank at a
        time)."""
        self.rank_counts[rank] = self.rank_counts.get(rank, 0) + 1
        self.count = self.rank_counts[rank] - 1
        self.after(name, program, f"rank{rank}/")

    def after(self, name: str, program, prefix: str = "") -> None:
        """Dump ``program`` as it stands after step ``name`` (``prefix``: a sub-folder such as
        ``rank0/``)."""
        from rulepass.engine.files import write_text
        from rulepass.engine.pir.printer import print_program

        self.count += 1
        text = print_program(program)
        if self.print_after_all:
            sys.stderr.write(f"// -----// IR Dump After {name} ({prefix}{self.count}) //----- //\n"
                             + text)
        if self.folder is not None:
            target = self.file(self.count, name, prefix)
            Path(target.parent).mkdir(parents=True, exist_ok=True)
            write_text(target, text)


def run_steps(rules, program, steps: list, dumps: IRDumps | None = None, timing: bool = False,
              trace_positions: bool = True):
    """Run ``steps`` (from :func:`plan_steps`) on ``program`` in place, in one transaction: if a
    pass fails, the program is as it was before the first. The trace carries positions (unless
    ``trace_positions`` is false: ``rewrite`` without ``--trace`` writes no trace); with
    ``timing`` the stats hold each rule's matching time (``--stats``). Returns a
    :class:`~rulepass.engine.api.RunResult` with every step's trace and stats."""
    from rulepass.engine.api import RunResult
    from rulepass.engine.rewrite.driver import run_pass
    from rulepass.engine.rewrite.trace import PassStats

    drivers, stats = [], PassStats()
    with program.transaction():
        for cpass, resolved in steps:
            driver = run_pass(program, cpass, resolved, trace_positions, rules.compiled, timing)
            drivers.append(driver)
            stats.merge(driver.stats)
            if dumps is not None and dumps.active:
                dumps.after(cpass.name, program)
    return RunResult(program, drivers, stats)
