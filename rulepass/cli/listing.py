"""``rulepass list``: what this installation can run — the passes with their params (type and
default), the pipelines with their passes, and the examples with their parallel degrees."""

from __future__ import annotations

import sys

from rulepass.cli.commands import command
from rulepass.cli.inputs import path_argument


@command("list")
def _register_list(sub) -> None:
    p = sub.add_parser("list", help="the passes (with their params), pipelines and examples")
    p.add_argument("--rules", type=path_argument, action="append", default=[], metavar="PATH",
                   help="more .rw files or folders to list with the installed rules/")
    p.set_defaults(func=_run_list)


def _param(rule_set, param) -> str:
    from rulepass.engine.lang.check import constant

    text = f"{param.name}: {param.type}"
    if param.default is not None:
        value = constant(param.default, rule_set.sources)
        text += f" = {value!r}" if isinstance(value, str) else f" = {value}"
    return text


def count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless n is 1: "1 rule", "3 rules", "1 micro-batch"."""
    plural = noun + "es" if noun.endswith("ch") else noun + "s"
    return f"{n} {noun if n == 1 else plural}"


def listing(rule_set, examples: dict) -> list[str]:
    """The lines ``rulepass list`` prints for ``rule_set`` and ``examples`` ({name: folder})."""
    from rulepass.engine.errors import RulepassError
    from rulepass.example import load_example

    lines = ["passes:"]
    for name in sorted(rule_set.passes):
        cpass = rule_set.passes[name]
        params = ", ".join(_param(rule_set, p) for p in cpass.decl.params)
        where = f"{cpass.decl.span.file}:{cpass.decl.span.line}" if cpass.decl.span else ""
        lines.append(f"  {name}({params})  [{cpass.strategy}, {count(len(cpass.rules), 'rule')}]  {where}")
    lines.append("pipelines:")
    for name in sorted(rule_set.pipelines):
        entries = ", ".join(entry.name for entry in rule_set.pipelines[name].entries)
        lines.append(f"  {name} = {entries}")
    lines.append("examples:")
    for name, folder in examples.items():
        try:
            par = load_example(folder).parallel
            what = (f"world_size {par.world_size}: pp {par.pp}, vpp {par.vpp}, mp {par.mp}, "
                    f"dp {par.dp}, {par.schedule}, {count(par.micro_batches, 'micro-batch')}")
        except RulepassError as error:  # a broken example is listed, not fatal
            what = f"cannot load: {str(error).splitlines()[0]}"
        lines.append(f"  {name}  ({what})")
    return lines


def _run_list(args) -> int:
    from rulepass.engine.api import load_rules
    from rulepass.example import installed_examples

    rule_set = load_rules(args.rules, installed=True)
    sys.stdout.write("\n".join(listing(rule_set, installed_examples())) + "\n")
    return 0
