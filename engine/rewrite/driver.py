"""Run a pass's rules over a program: to fixpoint with a worklist, or in one sweep.

`run_pass(program, cpass, params)` changes `program` in place inside a transaction, so a pass that
fails leaves it exactly as it was, and returns the applications made and per-rule statistics.
The guarantees of the rule language (spec "Semantics the engine guarantees") live here:

- fixpoint: the pass ends only after a full round over every op in which no rule matched;
- a rule application that changes nothing is an error naming the rule's file:line;
- termination: a budget of applications proportional to program size, and a check for a
  repeated program state; either failing says "did not converge" and names the rules and ops;
- determinism: ops are visited in program order, candidates sorted by program position;
- cost: after a rewrite only the touched ops, their producers, users and block neighbours are
  revisited (an op that only lost a reader: not all its other readers, `Changes.to_revisit`);
  nothing here recurses over the program's length or depth.
"""

from __future__ import annotations

import collections
import gc
import hashlib

from rulepass.engine.rewrite.actions import Rewriter
from rulepass.engine.rewrite.codegen.actions import compiled_rewrite
from rulepass.engine.errors import RewriteError
import rulepass.engine.lang.nodes as A
from rulepass.engine.rewrite.exprs import Context, EvalError, evaluate
from rulepass.engine.ir.core import Operation, Program, Value
from rulepass.engine.rewrite.match import Match, RuleMatcher
from rulepass.engine.rewrite.index import ProgramIndex
from rulepass.engine.pir.printer import print_op, print_program
from rulepass.engine.rewrite.compiled import CompiledPass
from rulepass.engine.rewrite.functions import REGISTRY, FunctionCalls
from rulepass.engine.rewrite.changes import Changes, PositionLog
from rulepass.engine.rewrite.reads import (confirm_rules, join_keys_of, neighbour_keys,
                                           registered_calls)
from rulepass.engine.rewrite.trace import Application, PassStats, applications

#: Applications allowed per op of the program (plus a constant for tiny programs).
BUDGET_PER_OP = 16
BUDGET_BASE = 1000
#: How many applications in a row are checked for a repeated program state, and when.
STATE_WINDOW = 64


def called_functions(cpass: CompiledPass) -> set[str]:
    """Names of the registered functions a pass's rules call (to snapshot for registered ones)."""
    return {call.func for call in registered_calls(cpass)}


def constant_calls(cpass: CompiledPass, ctx: Context) -> list | None:
    """(name, argument values) of each call of a non-live registered function when every such
    call has constant arguments (literals and params): those can be answered before the pass
    changes anything, so no copy of the program is needed. None when some call is not constant."""
    found = []
    for call in registered_calls(cpass):
        registered = REGISTRY[call.func]
        if registered.live or registered.prepare is not None:
            continue  # these never need the copy
        if not all(isinstance(arg, (A.Literal, A.ParamRef)) for arg in call.args):
            return None
        found.append((call.func, [evaluate(arg, {}, ctx) for arg in call.args], call.span))
    return found


_UNMADE = object()


def _no_rule(op) -> None:
    """The dispatch of an op name no rule starts at."""
    return None


def alive(op: Operation, program: Program) -> bool:
    """Whether `op` is still in `program` (not erased, nor nested in an erased op)."""
    block = op.block
    return block is not None and block.program is program


class Driver:
    """One run of one pass over one program."""

    def __init__(self, program: Program, cpass: CompiledPass, params: dict,
                 trace_positions: bool = False, compiled: bool = True, timing: bool = False,
                 trace: bool = True, provenance: dict | None = None):
        self.compiled = compiled
        self.program = program
        self.cpass = cpass
        self.params = params
        self.trace_positions = trace_positions
        #: whether applications are recorded in `trace` (positions imply it)
        self.tracing = trace or trace_positions
        join_keys = join_keys_of(cpass)
        # what the IR reports while the pass runs; positions are answered at the end
        # every op, in printed order: the first round's items, the budget's size
        fixpoint = cpass.strategy == "fixpoint"
        #: the fixpoint's mark of queued ops: the first round's, set as the ops are listed
        self.token = object() if fixpoint else None
        self.ops = program.op_list(self.token) if fixpoint else program.op_list()
        self.position_log = PositionLog(program, self.ops) if trace_positions else None
        # the attribute keys whose change sends the driver to the changed op's neighbours
        self.changes = Changes(self.position_log, join_keys, fixpoint,
                               neighbour_keys(cpass) if fixpoint else None)
        self.stats = PassStats()
        # the applications, as Application objects, or (name, file, line, ops, ops after)
        # made into one when `trace` is first read
        self.applications: list = []
        self.raw = False  # whether `applications` holds tuples still
        #: op -> the index in `applications` of the application that erased it (traced
        #: without positions: the trace reads it to tell which matched ops outlived each)
        self.erased: dict | None = {} if self.tracing and not trace_positions else None
        self.changes.erased = self.erased
        self.ctx = Context(program, params)
        self.changes.regions = self.ctx.regions  # kept up to date by what the IR reports
        self.ctx.regions.observed = True
        self.ctx.functions = FunctionCalls(program, called_functions(cpass),
                                           constant_calls(cpass, self.ctx))
        self.index = ProgramIndex(program, join_keys, self.ops)
        self.matcher = RuleMatcher(cpass, self.ctx, self.index, compiled)
        self.matcher.timing = timing
        #: the final full round's rules' matcher and `match(op)`, made when the worklist first
        #: drains (`confirmer`)
        self.confirming: RuleMatcher | None = None
        self.confirm_match = _UNMADE
        self.value_rules = bool(self.matcher.value_rules)
        self.rewriter = Rewriter(None, self.ctx, cpass.name, compiled)
        self.size = max(1, len(self.ops))
        self.budget = BUDGET_PER_OP * self.size + BUDGET_BASE
        self.state_checks = (min(2 * self.size + 32, self.budget // 2), self.budget // 2)
        self.states: dict[str, int] = {}
        self.applied = 0
        #: rule name -> applications, in the order rules first applied
        self.counts: dict[str, int] = {}
        self.pass_name = cpass.name
        # id(rule) -> (name, file, line, stats record): read once, not at every application.
        self.rule_info: dict[int, tuple] = {}
        # The ops of the latest applications, to name them if the pass does not converge.
        self.recent: collections.deque = collections.deque(maxlen=2 * STATE_WINDOW)
        # op -> (pass, rule, file, line) of the latest application that matched or created it,
        # when the caller asks for it (run_pass's `provenance`; the localizer of rulepass run).
        self.provenance: dict | None = provenance
        if provenance is not None:  # the ops rewired (an operand replaced) are rewritten too
            self.changes.rewired = {}

    @property
    def trace(self) -> list[Application]:
        """One `Application` per rule application, in order (empty unless `tracing`)."""
        if self.raw:
            applications(self.pass_name, self.applications, self.erased)
            self.raw = False
        return self.applications

    def applied_counts(self) -> dict:
        """Rule name -> applications, in the order rules first applied (kept whether or not the
        trace is)."""
        return dict(self.counts)

    def index_size(self) -> int:
        """Ops in the program (nested included) when the pass started."""
        return self.size if self.ops is None else len(self.ops)

    # ---- strategies ---------------------------------------------------------------------------
    def run(self) -> None:
        """Run the pass with its strategy; raises RewriteError."""
        try:
            with self.program.observe(self.changes):
                if self.cpass.strategy == "fixpoint":
                    self.fixpoint()
                else:
                    self.sweep(reverse=self.cpass.strategy == "sweep_reverse")
        except EvalError as error:
            span = error.span
            raise RewriteError(error.message, span.file if span else None,
                               span.line if span else None, pass_name=self.cpass.name) from None
        finally:
            for matcher in (self.matcher, self.confirming):
                if matcher:
                    matcher.flush_counts()
                    # the dispatch functions refer back to the matcher (a cycle): dropped, so
                    # that the driver and what it holds are freed with it, not by the collector
                    matcher.records_for(None)
        if self.position_log is not None:
            self.position_log.resolve()  # fills the position lists the trace records hold

    def items(self) -> list:
        """Everything a full round visits: every op in program order, then (for value rules)
        the values no op defines. In a fixpoint the ops come marked queued (`mark` = the
        token): the first round's when listed at the start, a later round's as listed."""
        items: list = self.ops
        if items is None:
            token = self.token
            items = self.program.op_list() if token is None else self.program.op_list(token)
        self.ops = None  # the program as the pass found it: later rounds walk it again
        if self.matcher.value_rules:
            values = list(self.program.kwargs) + list(self.program.block.args)
            for op in items:
                for region in op.regions:
                    values.extend(region.args)
            return items + values  # a new list: the index may read the list of ops
        return items

    def op_matcher(self, matcher: RuleMatcher | None = None):
        """`match(op) -> Match | None`, the first match at an op of the program of the rules of
        `matcher` (default: the pass's): each op name's generated dispatch function
        (`codegen/dispatch.py`, made on first use), or the matcher's loop when per-rule time is
        asked for or the rules are walked."""
        matcher, stats = matcher or self.matcher, self.stats
        if matcher.records_of is not stats:
            matcher.records_for(stats)
        first_at = matcher.first_at
        if not matcher.compiled or matcher.timing:
            return lambda op: first_at(op, stats)
        functions: dict = {}
        make = matcher.dispatch_function

        def match(op):
            function = functions.get(op.name, _UNMADE)
            if function is _UNMADE:
                function = functions[op.name] = make(op.name) or _no_rule
            return function(op)
        match.functions = functions
        return match

    def fixpoint(self) -> None:
        """Worklist to fixpoint; a final full round of the rules the worklist does not follow
        (`confirm`) confirms that nothing matches anywhere. An op is queued when its `mark` is
        this run's token (no set of queued ops to keep); values (for value rules) are queued in
        a dict."""
        token = self.token
        items = self.items()
        queue = collections.deque(items)
        queued = self.queued_values(items)
        dirty = False
        # the loop runs once per op and round: what it reads is in locals
        program, first_at, stats, popleft = self.program, self.matcher.first_at, self.stats, \
            queue.popleft
        top = program.block
        match = self.op_matcher()
        functions = getattr(match, "functions", None)
        make = self.matcher.dispatch_function
        apply = self.apply
        while True:
            if not queue:
                if not dirty:
                    return
                dirty = False
                if not self.value_rules:
                    hit = self.confirm(match, queue)
                    if hit is None:
                        return  # the confirming round found nothing
                    item, found = hit
                    dirty = True
                    apply(found, queued, queue)
                    if item.mark is not token:
                        item.mark = token
                        queue.append(item)
                    continue
                items = self.items()
                queue.extend(items)
                queued = self.queued_values(items)
                continue  # the confirming round may be empty: the program lost its last op
            item = popleft()
            if type(item) is Operation:
                item.mark = None
                block = item.block  # alive(), inline (a top-level op without a call)
                if block is not top and (block is None or block.program is not program):
                    continue
                if functions is not None:  # match(item), inline
                    function = functions.get(item.name, _UNMADE)
                    if function is _UNMADE:
                        function = functions[item.name] = make(item.name) or _no_rule
                    found = function(item)
                else:
                    found = match(item)
                if found is None:
                    continue
                dirty = True
                apply(found, queued, queue)
                if item.mark is not token:  # the op matched is visited again, last
                    item.mark = token
                    queue.append(item)
            else:
                del queued[item]
                if item.kwarg_name is not None and not item.is_kwarg_of(program):
                    continue  # an erased ^kw: value
                found = first_at(item, stats)
                if found is None:
                    continue
                dirty = True
                apply(found, queued, queue)

    def confirmer(self, match):
        """The final full round's `match(op)`: of the rules the worklist does not follow
        (`reads.confirm_rules`; once the worklist is empty the others match nowhere), `match`
        (the pass's `op_matcher`) when that is every rule; None when it follows them all."""
        if self.confirm_match is _UNMADE:
            rules = confirm_rules(self.cpass)
            if len(rules) == len(self.cpass.rules):
                self.confirm_match = match
            elif rules:
                self.confirming = RuleMatcher(self.cpass, self.ctx, self.index, self.compiled,
                                              rules)
                self.confirming.timing = self.matcher.timing
                self.confirm_match = self.op_matcher(self.confirming)
            else:
                self.confirm_match = None
        return self.confirm_match

    def confirm(self, match, queue: collections.deque):
        """The confirming round of a pass without value rules, up to its first match: the ops
        walked in printed order, none queued, until the rules the worklist does not follow
        (`confirmer`; `match` is the pass's `op_matcher`) find one at an op; then the ops
        after it are queued (into `queue`, marked) as a round's list would have left them, and
        (op, match) returned; None when nothing matches (at once when the worklist follows
        every rule). The same round as `items` queues (nothing changes before the first
        match), without listing the ops first: most confirming rounds find nothing, and a walk
        over the program costs as much again as the list."""
        match = self.confirmer(match)
        if match is None:
            return None
        for op in self.program.walk():
            found = match(op)
            if found is not None:
                ops = self.program.op_list()
                token = self.token
                after = ops[ops.index(op) + 1:]  # (identity: ops have no __eq__)
                for other in after:
                    other.mark = token
                queue.extend(after)
                return op, found
        return None

    def queued_values(self, items: list) -> dict:
        """The values of a round's `items` (for value rules), queued: a dict (the ops are
        queued by their `mark`, set by `items`)."""
        if not self.value_rules:
            return {}
        return {item: None for item in items if type(item) is not Operation}

    def sweep(self, reverse: bool) -> None:
        """Visit each op once in program order (or reverse), then the values no op defines
        (for value rules), applying the first rule that matches each; ops created on the way
        are not visited. Values come last both ways: a reverse sweep erasing readers (Paddle's
        reverse walks) finds the values they read unused."""
        items = self.items()
        if reverse:
            if self.value_rules:  # values last both ways (readers erased first)
                ops = [i for i in items if isinstance(i, Operation)]
                items = ops[::-1] + [i for i in items if not isinstance(i, Operation)]
            else:
                items = items[::-1]
        program, first_at, stats = self.program, self.matcher.first_at, self.stats
        match = self.op_matcher()
        functions = getattr(match, "functions", None)
        make = self.matcher.dispatch_function
        apply = self.apply
        top = program.block
        for item in items:
            if type(item) is Operation:
                block = item.block
                if block is not top and (block is None or block.program is not program):
                    continue  # erased (alive(), inline)
                if functions is not None:  # match(item), inline
                    function = functions.get(item.name, _UNMADE)
                    if function is _UNMADE:
                        function = functions[item.name] = make(item.name) or _no_rule
                    found = function(item)
                else:
                    found = match(item)
            elif item.kwarg_name is not None and not item.is_kwarg_of(program):
                continue  # an erased ^kw: value
            else:
                found = first_at(item, stats)
            if found is not None:
                apply(found)

    # ---- one application --------------------------------------------------------------------
    def apply(self, found: Match, queued: dict | None = None,
              queue: collections.deque | None = None) -> None:
        """Apply a match. With `queued` (the fixpoint's queued values; its queued ops are marked
        with `token`) and `queue` (the worklist), queue what to revisit that is not queued yet
        (`Changes.to_revisit`: the touched ops, their producers, users and block neighbours, the
        producer of a value an erased op read), in program order, then the values they read
        that no op defines (for value rules); a sweep
        passes none: it visits each op once. Raises RewriteError for a no-op, an exhausted budget
        or a repeated state."""
        rule = found.rule
        info = self.rule_info.get(id(rule))
        if info is None:
            info = self.rule_info[id(rule)] = (
                rule.name, rule.file, rule.line, self.stats.rule(rule),
                compiled_rewrite(rule.decl.rewrite) if self.compiled else None)
        name, file, line, record, function = info
        ops = found.ops
        log = self.position_log
        asked = log.ask(ops) if log is not None else None
        changes = self.changes
        changes.reset()
        changes.stamp = len(self.applications)  # this application's entry, in `erased`
        functions = self.ctx.functions
        if not functions.ready:
            functions.before_change()
        self.rewriter.apply(found, function)
        if not changes.count:
            anchor = found.anchor
            raise RewriteError(
                f"the application changed nothing (a rule must change the program, or fail); "
                f"matched {', '.join(op.name for op in found.ops) or 'a value'}",
                rule.file, rule.line, context=("  at op: " + print_op(anchor)) if anchor else None,
                rule=rule.name, pass_name=self.cpass.name)
        record.applied += 1
        self.applied += 1
        counts = self.counts
        counts[name] = counts.get(name, 0) + 1
        if queued is not None:  # a sweep cannot cycle: nothing to name in a "did not converge"
            self.recent.append((name, ops))
        program = self.program
        created = changes.created
        if log is None and self.tracing and not created:
            # the common case: kept as the ops matched, their names and whether they outlive
            # the application read when the trace is (`erased` says when each op went)
            self.applications.append((name, file, line, ops))
            self.raw = True
            if self.provenance is not None:
                self.record(found, info, asked, created, trace=False)
        elif self.tracing or self.provenance is not None:
            self.record(found, info, asked, created, trace=self.tracing)
        if changes.reindex:
            refresh = self.index.refresh
            top = program.block
            for op in changes.reindex:
                block = op.block
                refresh(op, block is top or (block is not None and block.program is program))
        if self.applied > self.budget or self.applied >= self.state_checks[0]:
            self.check_progress()
        if queued is None:
            return
        token = self.token
        fresh, values = changes.to_revisit(program, token, queued, self.value_rules)
        if fresh:
            if len(fresh) > 1:
                fresh = sorted(fresh, key=Operation.position_key)
            append = queue.append
            for op in fresh:
                op.mark = token
                append(op)
        for value in values:
            queued[value] = None
            queue.append(value)

    def record(self, found: Match, info: tuple, asked, created: list, trace: bool) -> None:
        """The trace entry of an application (and the provenance of its ops), when asked for:
        a tuple of the ops' names (and, when positions are traced, the lists the position log
        fills at the end of the pass), made an `Application` when the trace is read."""
        ops = found.ops  # in program order
        program = self.program
        names = None
        if not created:
            if len(ops) == 1:  # the common case: one op matched, nothing made
                block = ops[0].block
                names = (ops[0].name,)
                alive_after = block is program.block or (
                    block is not None and block.program is program)
                after_ops, after_names = (ops, names) if alive_after else ((), ())
            else:
                top = program.block
                after_ops = tuple([op for op in ops if (b := op.block) is top or (
                    b is not None and b.program is program)])
                if len(after_ops) == len(ops):
                    after_ops = ops
        else:
            after_ops = [op for op in ops if alive(op, program)]
            after_ops = list({**dict.fromkeys(after_ops), **dict.fromkeys(
                op for op in created if alive(op, program))})
            if len(after_ops) > 1:
                after_ops.sort(key=Operation.position_key)
        name, file, line = info[0], info[1], info[2]
        if trace:
            # op names, not ops: the trace keeps no erased op alive
            if names is None:
                names = tuple([op.name for op in ops])
                after_names = names if after_ops is ops else \
                    tuple([op.name for op in after_ops])
            log = self.position_log
            if log is None:
                self.applications.append((name, file, line, names, after_names))
            else:  # with the lists the position log fills at the end of the pass
                self.applications.append((name, file, line, names, after_names, asked,
                                          log.ask(after_ops)))
            self.raw = True
        if self.provenance is not None:
            mark = (self.pass_name, name, file, line)
            for op in ops:
                self.provenance[op] = mark
            for op in created:
                self.provenance[op] = mark
            for op in self.changes.rewired:  # readers of a replaced value: rewritten too
                self.provenance[op] = mark

    def check_progress(self) -> None:
        """Fail with "did not converge" past the budget or on a repeated program state."""
        if self.applied > self.budget:
            raise self.not_converged(f"more than {self.budget} rule applications on "
                                     f"{self.size} ops", 8)
        first, second = self.state_checks
        if first <= self.applied < first + STATE_WINDOW or \
                second <= self.applied < second + STATE_WINDOW:
            digest = hashlib.sha1(print_program(self.program).encode()).hexdigest()
            seen = self.states.get(digest)
            if seen is not None:
                raise self.not_converged("the program came back to an earlier state",
                                         self.applied - seen)
            self.states[digest] = self.applied

    def not_converged(self, why: str, count: int) -> RewriteError:
        """The "did not converge" error, naming the rules and ops of the last `count`
        applications (the cycle)."""
        cycle = list(self.recent)[-count:]
        rules = sorted({name for name, _ in cycle})
        lines = []
        for name, ops in cycle:
            shown = "; ".join(self.describe_op(op) for op in ops) or "a value"
            lines.append(f"  rule {name} at {shown}")
        decl = self.cpass.decl
        return RewriteError(
            f"did not converge: {why}; rules {', '.join(rules)} keep undoing each other "
            "(make one of them stop matching after it applies)",
            decl.span.file, decl.span.line, context="  last applications:\n" + "\n".join(lines),
            pass_name=self.cpass.name)

    def describe_op(self, op: Operation) -> str:
        """`op 3 (pd_op.scale)` for an op still in the program, else its name."""
        if not alive(op, self.program):
            return f"{op.name} (erased)"
        return f"op {self.ctx.position(op)} ({op.name})"


def run_pass(program: Program, cpass: CompiledPass, params: dict,
             trace_positions: bool = False, compiled: bool = True,
             timing: bool = False, provenance: dict | None = None,
             trace: bool = True) -> Driver:
    """Run one pass on `program` in place, inside a transaction (on error the program is
    restored exactly and the error re-raised). Returns the driver, holding `trace` and `stats`.
    `params` must already be checked and complete (see `api.resolve_params`). `compiled`: run the
    generated matcher and rewrite functions (False: the tree walks they are checked against).
    `timing`: add each attempt's time to its rule's `seconds` (else they stay 0: the clock is
    read only when asked). `provenance`: a dict that receives op -> (pass, rule, file, line) for
    every op an application matched, created or rewired (an operand replaced; the latest
    application wins; erased ops stay in it). `trace`: record each application in the driver's `trace` (False: the trace stays
    empty, and costs nothing; `trace_positions` implies it)."""
    # The undo journal holds a closure per change; the cyclic garbage collector would walk that
    # growing heap again and again (quadratic on long passes), and nothing here needs it.
    collecting = gc.isenabled()
    gc.disable()
    try:
        with program.transaction():
            driver = Driver(program, cpass, params, trace_positions, compiled, timing, trace,
                            provenance)
            driver.run()
    finally:
        if collecting:
            gc.enable()
    return driver
