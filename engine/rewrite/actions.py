"""Carry out a rule's `rewrite` block on a match, through the IR's mutation API only.

`Rewriter(match, ctx).run()` applies the actions in order. What they change the IR reports itself,
once per mutation, to the observer the driver installs (`rewrite/changes.py`): that is how the
driver rejects no-op applications and revisits only what changed; nothing here keeps account. Errors are `RewriteError`s naming
the rule and the action's file:line.
"""

from __future__ import annotations

import attrs

import rulepass.engine.lang.nodes as A
from rulepass.engine.errors import RewriteError
from rulepass.engine.rewrite.codegen.actions import compiled_rewrite
from rulepass.engine.rewrite.codegen.exprs import compiled
from rulepass.engine.rewrite.exprs import ABSENT, Context, EvalError, as_value, describe, iterate
from rulepass.engine.ir.attributes import Place, Symbol
from rulepass.engine.ir.core import Operation, Value
from rulepass.engine.rewrite.match import Match
from rulepass.engine.pir.printer import print_op
from rulepass.engine.ir.types import DenseTensorType, DistTensorType, NullType, OperationDistAttr, ProcessMesh, \
    VectorType

TYPE_CLASSES = (DenseTensorType, DistTensorType, NullType, VectorType)
#: What an attribute may hold (besides lists of these): what the printer can write.
ATTRIBUTE_CLASSES = (bool, int, float, str, Symbol, Place)
#: Attribute values `attribute_value` returns unchanged (checked by exact type).
_PLAIN_ATTRIBUTES = frozenset({int, str, bool, float})
_MISSING = object()


def attribute_value(value, span):
    """An expression result as an attribute value: lists become tuples; ops, values, ABSENT and
    anything the program text cannot hold (a type, a mesh, None, a dict) are refused
    (EvalError)."""
    if value is ABSENT:
        raise EvalError("the value is absent (use `??` to give a default)", span)
    if isinstance(value, (Operation, Value)):
        raise EvalError(f"{describe(value)} cannot be an attribute value", span)
    if isinstance(value, (list, tuple)):
        return tuple(attribute_value(v, span) for v in value)
    if not isinstance(value, ATTRIBUTE_CLASSES):
        raise EvalError(f"{describe(value)} cannot be an attribute value (attributes hold "
                        "ints, floats, strings, bools, symbols, places and lists of them)", span)
    return value


def as_type(value, span):
    """An expression result as a type: a type, the type of a value or op, or type text."""
    if isinstance(value, TYPE_CLASSES):
        return value
    if isinstance(value, (Operation, Value)):
        return as_value(value, span).type
    if isinstance(value, str):
        from rulepass.engine.errors import ParseError
        from rulepass.engine.pir.parse import parse_type

        try:
            return parse_type(value)
        except ParseError as e:
            # located at the rule's `: type`, not at column 10 of an anonymous "<input>"
            raise EvalError(f"type text {value!r} does not parse: {e.message} (at column "
                            f"{e.col} of the text)", span) from None
    raise EvalError(f"expected a type, got {describe(value)}", span)


class Rewriter:
    """Applies one match's rewrite actions."""

    __slots__ = ("match", "rule", "ctx", "pass_name", "anchor", "compiled")

    def __init__(self, match: Match | None, ctx: Context, pass_name: str,
                 compiled: bool = True):
        self.compiled = compiled  # run a rewrite block as its generated function (else walk it)
        self.match = match
        self.rule = match.rule if match is not None else None
        self.ctx = ctx
        self.pass_name = pass_name
        ops = match.ops if match is not None else ()
        self.anchor = ops[-1] if ops else None  # Match.anchor: the latest matched op

    def error(self, message: str, span: A.Span | None, context: str | None = None):
        """A RewriteError naming the rule, at the action's file:line."""
        span = span or self.rule.decl.span
        if context is None and self.anchor is not None:
            context = "  at op: " + print_op(self.anchor)
        return RewriteError(message, span.file, span.line, None, None, context,
                            rule=self.rule.name, pass_name=self.pass_name)

    def run(self) -> None:
        """Apply every action. Raises RewriteError."""
        self.apply(self.match, compiled_rewrite(self.rule.decl.rewrite) if self.compiled
                   else None)

    def apply(self, match: Match, function) -> None:
        """Apply `match`'s actions (the rewriter is reused from one match to the next):
        through `function`, the rule's compiled rewrite block (`compiled_rewrite`), or walked
        when it is None. Raises RewriteError."""
        self.match = match
        rule = self.rule = match.rule
        ops = match.ops
        self.anchor = ops[-1] if ops else None
        decl = rule.decl
        rewrite = decl.rewrite
        try:
            env = self.match.env
            if decl.lets:
                # the rule's lets, once, on the program as matched, before any action
                env = dict(env)
                for let in decl.lets:
                    env[let.name] = self.eval(let.value, env)
            if function is not None:
                function(self, env)
            else:
                self.actions(rewrite, dict(env))
        except EvalError as error:
            raise self.error(error.message, error.span) from None
        except ValueError as error:  # the IR refusing a mutation (such as an op still used)
            raise self.error(str(error), None) from None

    def eval(self, expr, env):
        """Evaluate an expression of the rewrite."""
        return compiled(expr)(env, self.ctx)

    def actions(self, actions, env: dict) -> None:
        """Run `actions` in order with variables `env` (created ops are added to it)."""
        for action in actions:
            ACTIONS[type(action)](self, action, env)

    # ---- actions ------------------------------------------------------------------------------
    def do_LetDecl(self, action: A.LetDecl, env: dict) -> None:
        """`let name = e` in a rewrite: `e`'s value now, for the actions after it."""
        env[action.name] = self.eval(action.value, env)

    def do_CreateOp(self, action: A.CreateOp, env: dict) -> None:
        """`v = dialect.op(args) {attrs} : types`: before the latest matched op."""
        op = self.create(action, [self.eval(e, env) for e in action.operands],
                         [self.eval(e, env) for e in action.types],
                         [self.eval(a.value, env) for a in action.attrs])
        if action.binding is not None:
            env[action.binding] = op

    def create(self, action: A.CreateOp, operand_values: list, type_values: list,
               attr_values: list) -> Operation:
        """The op `action` makes from its evaluated operands, types and attribute values (in
        the order the action writes them), inserted before the latest matched op."""
        operands = []
        for expr, value in zip(action.operands, operand_values):
            for item in (value if isinstance(value, list) else [value]):
                if item is ABSENT:
                    operands.append(None)
                elif isinstance(item, (Operation, Value)):
                    operands.append(as_value(item, expr.span))
                else:
                    raise EvalError(f"an operand must be a value, got {describe(item)}",
                                    expr.span)
        types = []
        for expr, value in zip(action.types, type_values):
            for item in (value if isinstance(value, list) else [value]):
                types.append(as_type(item, expr.span))
        attributes, dist = {}, None
        for attr, value in zip(action.attrs, attr_values):
            if attr.key == "op_dist_attr":
                dist = value if isinstance(value, OperationDistAttr) else None
                if dist is None and value is not ABSENT:
                    raise EvalError("op_dist_attr needs an op dist attribute", attr.span)
                continue
            attributes[attr.key] = attribute_value(value, attr.span)
        op = Operation.create(action.op_name, operands, types, attributes, dist)
        anchor = self.anchor
        if anchor is None:
            # A value rule matched no op: new ops go at the start of the program.
            block = self.ctx.program.block
            if block.first is None:
                block.append(op)
            else:
                block.insert_before(block.first, op)
        else:
            if anchor.block is None:
                raise EvalError("create new ops before erasing the op they go in front of "
                                f"({anchor.name})", action.span)
            # Before the latest matched op, unless an operand is defined there or later (a
            # result of that op, or of an op created after it): then right after that definer.
            late = [v.owner for v in operands if v is not None and v.owner is not None
                    and v.owner.block is anchor.block and not v.owner.is_before(anchor)]
            if late:
                anchor.block.insert_after(max(late, key=Operation.position_key), op)
            else:
                anchor.block.insert_before(anchor, op)
        if self.ctx.functions is not None:
            self.ctx.functions.note_created(op)
        return op

    def do_ReplaceAction(self, action: A.ReplaceAction, env: dict) -> None:
        """`replace a with b [in readers]`: every use of `a` (by the readers) reads `b` (but in
        `b`'s own op)."""
        readers = None if action.readers is None else self.eval(action.readers, env)
        self.replace(self.eval(action.target, env), self.eval(action.replacement, env),
                     action.span, readers)

    def replace(self, target, replacement, span, readers=None) -> None:
        """`replace` on evaluated operands; `readers` (an op or a list of ops, None for all)
        limits it to their uses."""
        pairs = self.replacement_pairs(target, replacement, span)
        only = None
        if readers is not None:
            only = set()
            stack = [readers]  # `in o1, o2` is the list [o1, o2]; lists nest
            while stack:
                item = stack.pop()
                if isinstance(item, (list, tuple)):
                    stack.extend(item)
                elif isinstance(item, Operation):
                    only.add(id(item))
                else:
                    raise EvalError("replace ... in takes ops and lists of ops, got "
                                    f"{describe(item)}", span)
        for old, new in pairs:
            if old is new:
                continue
            # The op defining the replacement keeps reading the old value: `n = reshard(v)`
            # then `replace v with n` redirects v's other readers to n (a value cannot be its
            # own operand).
            for use in old.uses:
                if only is not None and id(use.op) not in only:
                    continue
                if use.op is not new.owner or new.owner is None:
                    use.op.set_operand(use.index, new)

    def replacement_pairs(self, target, replacement, span) -> list:
        """(old value, new value) pairs for `replace target with replacement`."""
        if isinstance(target, Operation) and isinstance(replacement, Operation) and \
                len(target.results) != 1:
            if len(target.results) != len(replacement.results):
                raise EvalError(f"cannot replace {target.name} ({len(target.results)} results) "
                                f"with {replacement.name} ({len(replacement.results)})", span)
            return list(zip(target.results, replacement.results))
        old = as_value(target, span)
        new = as_value(replacement, span)
        if not isinstance(old, Value) or not isinstance(new, Value):
            raise EvalError("replace takes ops or values", span)
        return [(old, new)]

    def do_EraseAction(self, action: A.EraseAction, env: dict) -> None:
        """`erase a, b, body`: the ops (and nested ops) go together, users first."""
        self.erase([self.eval(item, env) for item in action.items], action)

    def erase(self, items: list, action: A.EraseAction) -> None:
        """`erase` on evaluated items: ops (and the ops nested in them), lists of them, and
        `^kw:` values (once their readers are gone)."""
        if len(items) == 1 and type(items[0]) is Operation and not items[0].regions:
            op = items[0]  # one op (the common case): erased at once when nothing reads it
            for result in op.results:
                if result.num_uses:
                    break  # the general path below names the reader
            else:
                if op.block is not None:
                    op.erase()
                return
        doomed: dict[Operation, None] = {}
        kwargs: dict[Value, None] = {}
        stack = items
        while stack:
            item = stack.pop()
            if isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, Operation):
                if not item.regions:
                    doomed[item] = None
                    continue
                for inner in item.walk():
                    doomed[inner] = None
            elif isinstance(item, Value) and item.owner is None and item.kwarg_name is not None:
                kwargs[item] = None
            elif item is not ABSENT:
                raise EvalError(f"erase takes ops, lists of ops or ^kw: values, got "
                                f"{describe(item)}", action.span)
        if kwargs:
            self.erase_kwargs(list(kwargs), doomed, action)
            return
        alive = [op for op in doomed if op.block is not None]
        for op in alive:
            for result in op.results:
                self.check_unread(result, doomed, action, f"cannot erase {op.name}: its result "
                                  f"{result.index} is still used by")
        # Users before producers (reverse program order), so every erase sees no uses left.
        if len(alive) > 1:
            alive.sort(key=Operation.position_key, reverse=True)
        for op in alive:
            op.erase()

    def erase_kwargs(self, values: list, doomed: dict, action: A.EraseAction) -> None:
        """Erase `^kw:` values (after the ops erased with them, which may read them); a value
        still read by an op that stays is an error naming the rule and that op."""
        program = self.ctx.program
        for value in values:
            self.check_unread(value, doomed, action, f"cannot erase ^kw: value "
                              f"%kwarg_{value.kwarg_name}: it is still read by")
        self.erase(list(doomed), action)
        for value in values:
            if value.is_kwarg_of(program):  # one already erased is skipped, as an erased op
                program.erase_kwarg(value)

    def check_unread(self, value: Value, doomed: dict, action: A.EraseAction,
                     refusal: str) -> None:
        """Raise the rule's error ``refusal`` + `` <reader>, which is not erased ...`` when an op
        that is not in ``doomed`` reads ``value``."""
        for use in value.uses:
            if use.op not in doomed:
                raise self.error(f"{refusal} {use.op.name}, which is not erased (replace the uses "
                                 "first)", action.span, "  used by: " + print_op(use.op))

    def do_SetAction(self, action: A.SetAction, env: dict) -> None:
        """`set o.key = e`, `set o.dist... = e`."""
        op = self.target_op(action.path, env)
        self.set(op, action, self.eval(action.value, env))

    def set(self, op: Operation, action: A.SetAction, value) -> None:
        """`set` with its target op checked (`target_op`) and its value evaluated."""
        names = action.path.names
        if names[0] == "dist" or names == ("op_dist_attr",):
            self.set_dist(op, names[1:], value, action.span)
            return
        key = names[0]
        if type(value) not in _PLAIN_ATTRIBUTES:
            value = attribute_value(value, action.span)
        old = op.attributes.get(key, _MISSING)
        if old is _MISSING or old != value or type(old) is not type(value):
            op.set_attr(key, value)

    @staticmethod
    def set_attr(op: Operation, key: str, value, span) -> None:
        """`set op.key = value` for a plain attribute key (`set` with the path read already)."""
        if type(value) not in _PLAIN_ATTRIBUTES:
            value = attribute_value(value, span)
        op.set_attr(key, value)

    def set_dist(self, op: Operation, names: tuple, value, span) -> None:
        """`set o.dist = d`, `set o.dist.chunk_id = k`, `set o.dist.mesh = m`."""
        if not names:
            if not isinstance(value, OperationDistAttr):
                raise EvalError(f"o.dist needs an op dist attribute, got {describe(value)}", span)
            new = value
        else:
            if op.dist_attr is None:
                raise EvalError(f"{op.name} has no op_dist_attr to set {names[0]} in", span)
            if names[0] == "chunk_id":
                if not isinstance(value, int) or isinstance(value, bool):
                    raise EvalError(f"chunk_id must be an int, got {describe(value)}", span)
                new = attrs.evolve(op.dist_attr, chunk_id=value)
            else:
                if not isinstance(value, ProcessMesh):
                    raise EvalError(f"mesh must be a process mesh, got {describe(value)}", span)
                new = attrs.evolve(op.dist_attr, mesh=value)
        if new != op.dist_attr:
            op.set_dist_attr(new)

    def do_UnsetAction(self, action: A.UnsetAction, env: dict) -> None:
        """`unset o.key`, `unset o.dist`."""
        self.unset(self.target_op(action.path, env), action)

    def unset(self, op: Operation, action: A.UnsetAction) -> None:
        """`unset` with its target op checked (`target_op`)."""
        names = action.path.names
        if names[0] == "dist" or names == ("op_dist_attr",):
            if names[1:] == ("chunk_id",):
                if op.dist_attr is not None and op.dist_attr.chunk_id != -1:
                    op.set_dist_attr(attrs.evolve(op.dist_attr, chunk_id=-1))
            elif op.dist_attr is not None:
                op.set_dist_attr(None)
        elif names[0] in op.attributes:
            op.unset_attr(names[0])

    def target_op(self, path: A.FieldPath, env: dict) -> Operation:
        """The op a `set`/`unset` path starts from."""
        return self.checked_op(env.get(path.var), path)

    @staticmethod
    def checked_op(op, path: A.FieldPath) -> Operation:
        """`op` when it is an op, else the EvalError of a `set`/`unset` path."""
        if not isinstance(op, Operation):
            raise EvalError(f"{path.var} is {describe(op)}, not an op", path.span)
        return op

    def do_RetypeAction(self, action: A.RetypeAction, env: dict) -> None:
        """`retype v : t`."""
        self.retype(self.eval(action.value, env), action, self.eval(action.type, env))

    def retype(self, value, action: A.RetypeAction, type_value) -> None:
        """`retype` on the evaluated value and type."""
        if type(value) is not Value:
            value = as_value(value, action.span)
            if not isinstance(value, Value):
                raise EvalError(f"retype takes a value, got {describe(value)}", action.span)
        new = type_value if type(type_value) in TYPE_CLASSES else as_type(type_value,
                                                                            action.type.span)
        value.set_type(new)  # unless equal; journaled, kwargs included; reported

    def do_ForAction(self, action: A.ForAction, env: dict) -> None:
        """`for x in xs [where e] { ... }` over a snapshot of the list."""
        items = iterate(self.eval(action.seq, env), action.seq.span)
        for item in items:
            inner = dict(env)
            inner[action.var] = item
            if action.where is not None and not self.eval(action.where, inner):
                continue
            self.actions(action.body, inner)

    def do_FailAction(self, action: A.FailAction, env: dict) -> None:
        """`fail "message"`: stops the pass, naming the rule and the op."""
        raise self.error(str(self.eval(action.message, env)), action.span)


#: Action node class -> the Rewriter method carrying it out (the walk's one dispatch; a new
#: action adds its entry here and its method above).
ACTIONS = {
    A.LetDecl: Rewriter.do_LetDecl,
    A.CreateOp: Rewriter.do_CreateOp, A.ReplaceAction: Rewriter.do_ReplaceAction,
    A.EraseAction: Rewriter.do_EraseAction, A.SetAction: Rewriter.do_SetAction,
    A.UnsetAction: Rewriter.do_UnsetAction, A.RetypeAction: Rewriter.do_RetypeAction,
    A.ForAction: Rewriter.do_ForAction, A.FailAction: Rewriter.do_FailAction,
}
