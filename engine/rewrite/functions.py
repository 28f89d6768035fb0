"""Functions that rules may call: the registry of Python functions (the built-ins are
`lang/builtins.BUILTINS`).

A Python function becomes callable from `.rw` files with the `function` decorator::

    from rulepass.engine.rewrite.functions import function

    @function("layer_chunk")            # evaluated once per pass on the program as it was
    def layer_chunk(program, op):
        ...

    @function(live=True)                 # evaluated on the program as it stands
    def stage_of(program, op): ...

    @function("in_layer", prepare=layer_table)   # layer_table(program) once per pass
    def in_layer(table, op): ...

The Python function receives the program first, then the arguments written in the rule. A non-live
function sees a copy of the program taken when the pass started (the ops and values it is given
are that copy's, and ops or values it returns are mapped back), and each distinct call is computed
once per pass. Given an op or value made during the pass, it is not called: the call answers
absent, as that program had no such op. A function registered with `prepare=table_of` instead receives what
`table_of(program)` returned, computed once per pass on the program as the pass found it; it needs
no copy of the program (a pass whose non-live functions are all prepared, or called with constant
arguments only, copies nothing). It may return ints, strings, lists, types, meshes and dist
attributes, which `set` and `retype` accept. Register functions before loading the rule files that call them: unknown
functions are reported when rules are loaded.
"""

from __future__ import annotations

import inspect
from typing import Callable

import attrs

from rulepass.engine.lang.builtins import BUILTINS
from rulepass.engine.rewrite.values import ABSENT, EvalError

@attrs.frozen
class RegisteredFunction:
    """A Python function callable from rules.

    `arity` is (least, most) arguments written in the rule (the program argument not counted);
    `most` is None for a variadic function. `prepare`, when set, turns the program into what the
    function reads instead of it (see `function`).
    """

    name: str
    fn: Callable
    live: bool
    arity: tuple
    prepare: Callable | None = None


REGISTRY: dict[str, RegisteredFunction] = {}


def _arity_of(fn: Callable) -> tuple:
    """(least, most) rule arguments of `fn(program, ...)`."""
    params = list(inspect.signature(fn).parameters.values())[1:]
    least, most = 0, 0
    for p in params:
        if p.kind == p.VAR_POSITIONAL:
            return least, None
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            most += 1
            if p.default is p.empty:
                least += 1
    return least, most


def function(name: str | Callable | None = None, *, live: bool = False,
             prepare: Callable | None = None):
    """Decorator registering a Python function for rules, under `name` (default: its own name).

    Usable bare (`@function`) or with arguments (`@function("name", live=True)`). With
    `prepare=table_of` (not live), `table_of(program)` runs once per pass on the program as the
    pass found it and the function is called as `fn(table, *args)`: for questions answered from
    one walk (such as "is this op inside a local region"), without copying the program. Raises
    ValueError when the name is a built-in's, or for a live function with `prepare`. Returns the
    function unchanged.
    """

    def register(fn: Callable, fn_name: str | None) -> Callable:
        key = fn_name or fn.__name__
        if key in BUILTINS:
            raise ValueError(f"{key!r} is a built-in function of the rule language")
        if live and prepare is not None:
            raise ValueError(f"{key!r}: a live function reads the program as it stands; "
                             "`prepare` is for functions that are not live")
        REGISTRY[key] = RegisteredFunction(key, fn, live, _arity_of(fn), prepare)
        return fn

    if callable(name):
        return register(name, None)
    return lambda fn: register(fn, name)


#: Checks of pass params against the program a pass is given, by param name (see `param_check`).
PARAM_CHECKS: dict[str, list[Callable]] = {}


def param_check(name: str):
    """Decorator registering ``check(program, value) -> str | None`` for every pass that declares
    a param ``name``: called before the pass runs (by `RuleSet.run_pass`, `run_pipeline` and the
    CLI alike), it returns what is wrong with ``value`` for this program (``"is not a rank of
    the program, ..."``), or None. The engine knows no param; the packages that give params a
    meaning register their checks (``engine/paddle/param_checks.py``: ``rank``, the degrees).
    Returns the check unchanged."""

    def register(check: Callable) -> Callable:
        PARAM_CHECKS.setdefault(name, []).append(check)
        return check

    return register


def check_params(program, pass_name: str, params: dict) -> None:
    """Run the registered checks of ``params`` (a pass's resolved params) on ``program``.

    Raises:
        RewriteError: naming the pass, the param and its value, and what is wrong; nothing has
            run, so the program is unchanged.
    """
    from rulepass.engine.errors import RewriteError

    for name, value in params.items():
        for check in PARAM_CHECKS.get(name, ()):
            problem = check(program, value)
            if problem:
                raise RewriteError(f"{name}={value!r} {problem}", pass_name=pass_name)


def unregister(name: str) -> None:
    """Remove a registered function (tests use this to keep the registry clean)."""
    REGISTRY.pop(name, None)


def arity(name: str) -> tuple | None:
    """(least, most) arguments of a built-in or registered function; None if unknown."""
    builtin = BUILTINS.get(name)
    if builtin is not None:
        return builtin.arity
    registered = REGISTRY.get(name)
    return registered.arity if registered is not None else None


class FunctionCalls:
    """Calls registered functions during one pass.

    Non-live functions see the program as the pass found it, each distinct call computed once.
    Until the pass first changes the program they run on the program itself; just before the
    first change (`before_change`) the program is copied, and later calls run on the copy, with
    ops and values mapped to it and back. A pass that changes nothing copies nothing. Live
    functions run on the program as it stands, every time.
    """

    def __init__(self, program, names, constant_calls=None):
        self.program = program
        self.cache: dict = {}
        self.copy = None
        self.to_copy: dict = {}
        self.from_copy: dict = {}
        self.needs_copy = any(n in REGISTRY and not REGISTRY[n].live
                              and REGISTRY[n].prepare is None for n in names)
        self.prepared_names = [n for n in names if n in REGISTRY and not REGISTRY[n].live
                               and REGISTRY[n].prepare is not None]
        self.tables: dict = {}
        # ids of the ops (and their results) made during the pass (`note_created`).
        self.created: set = set()

        self.absent, self.eval_error = ABSENT, EvalError
        # (name, argument values, span) of every non-live call when all have constant
        # arguments (else None): answered before the first change instead of copying.
        self.constant_calls = constant_calls
        self.ready = False  # before_change has nothing left to do

    def before_change(self) -> None:
        """Called by the driver before each rewrite: the first time, prepare the tables of
        prepared functions and answer the constant calls on the program as it still is, or
        (when some call is not constant, or one fails) copy the program. Once that is done it
        returns at once (the driver calls it before every rewrite)."""
        if self.ready:
            return
        if len(self.tables) < len(self.prepared_names):
            self.prepare_tables()
        if self.needs_copy and self.copy is None:
            if self.constant_calls is not None and self.answer_constant_calls():
                self.needs_copy = False
            else:
                self.snapshot()
        self.ready = True

    def answer_constant_calls(self) -> bool:
        """Compute and cache every constant call now; False (and nothing to rely on) when one
        raises, so that the error comes when and where the rule makes the call."""
        try:
            for name, args, span in self.constant_calls:
                self._call(name, args, span)
        except Exception:  # noqa: BLE001 - the rule's own call will raise it properly
            return False
        return True

    def prepare_tables(self) -> None:
        """The table of each prepared function, on the program as the pass found it."""
        for name in self.prepared_names:
            if name not in self.tables:
                self.tables[name] = REGISTRY[name].prepare(self.program)

    def note_created(self, op) -> None:
        """Remember `op` (and its results, and what is nested in it) as made during the pass;
        the rewriter calls this for each op it creates. Ids stay unique: the program or the
        transaction's journal keeps these objects alive while the pass runs. Only prepared
        functions read the set (a copied program refuses made ops by not knowing them): a
        pass calling none keeps nothing."""
        if not self.prepared_names:
            return
        for inner in op.walk():
            self.created.add(id(inner))
            self.created.update(id(r) for r in inner.results)

    def call_prepared(self, registered: RegisteredFunction, args: list, span):
        """A prepared function on its table (made now if the pass has not changed anything)."""

        table = self.tables.get(registered.name)
        if table is None:  # nothing changed yet (else before_change made it)
            table = self.tables[registered.name] = registered.prepare(self.program)
        if self.created and any(self.made_during_pass(arg) for arg in args):
            return None  # absent: the program the table describes had no such op
        return registered.fn(table, *args)

    def made_during_pass(self, arg) -> bool:
        """Whether `arg` (or an item of it, for a list) is an op or value made during the pass."""
        if isinstance(arg, (list, tuple)):
            return any(self.made_during_pass(item) for item in arg)
        return id(arg) in self.created

    def snapshot(self) -> None:
        """Copy the program and map its ops and values to the copy's, both ways."""
        from rulepass.engine.ir.core import Program  # late: ir is not needed to register functions

        program: Program = self.program
        copy = program.clone()
        pairs = list(zip(program.kwargs, copy.kwargs))
        for original, cloned in zip(program.walk(), copy.walk()):
            pairs.append((original, cloned))
            pairs.extend(zip(original.results, cloned.results))
        self.copy = copy
        self._keep = pairs  # keeps ids unique: an id is only reused after its object dies
        self.to_copy = {id(a): b for a, b in pairs}
        self.from_copy = {id(b): a for a, b in pairs}

    def call(self, name: str, args: list, span):
        """The result of registered function `name` on `args` (a Python `None` reads as absent,
        as does a non-live function given an op or value made during the pass); EvalError for an
        exception the function raises (naming it, so the driver can name the rule)."""
        registered = REGISTRY[name]
        try:
            if registered.live:  # the common case first: no cache, no copy
                result = registered.fn(self.program, *args)
            elif registered.prepare is not None:
                result = self.call_prepared(registered, args, span)
            else:
                result = self._call(name, args, span)
        except FAILURES as error:  # an EvalError is none of these and passes through
            raise self.eval_error(f"{name}() failed: {type(error).__name__}: {error}",
                                  span) from None
        return self.absent if result is None else result

    def _call(self, name: str, args: list, span):

        registered = REGISTRY[name]
        if registered.live:
            return registered.fn(self.program, *args)
        if registered.prepare is not None:
            return self.call_prepared(registered, args, span)
        key = (name, tuple(_identity(a) for a in args))
        if key in self.cache:
            return self.cache[key]
        if self.copy is None:  # nothing changed yet: the program is as the pass found it
            result = registered.fn(self.program, *args)
            self.cache[key] = result
            return result
        try:
            mapped = [_map(a, self.to_copy) for a in args]
        except KeyError:
            # an op or value made during the pass: the program as the pass found it had none,
            # so the function answers absent, as for any op that program did not have
            return None
        result = _map(registered.fn(self.copy, *mapped), self.from_copy, strict=False)
        self.cache[key] = result
        return result


#: What a registered function may raise that becomes an EvalError naming it.
FAILURES = (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError,
             ArithmeticError)


def _identity(x):
    """A cache key part: ops and values by identity, lists item by item, others as they are."""
    if isinstance(x, list):
        return tuple(_identity(i) for i in x)
    if type(x).__name__ in ("Operation", "Value"):
        return ("#", id(x))
    try:
        hash(x)
    except TypeError:
        return ("repr", repr(x))
    return x


def _map(x, table: dict, strict: bool = True):
    """`x` with ops and values replaced through `table` (lists item by item)."""
    if isinstance(x, (list, tuple)) and not isinstance(x, str):
        mapped = [_map(i, table, strict) for i in x]
        return mapped if isinstance(x, list) else tuple(mapped)
    if type(x).__name__ in ("Operation", "Value"):
        if id(x) in table:
            return table[id(x)]
        if strict:
            raise KeyError(id(x))
    return x
