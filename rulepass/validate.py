"""Translation validation of a pass (issue 15): the programs before and after it, run on the
simulated ranks with random inputs, must compute the same.

*After* is every rank's program made by the whole chain, the pass included, run on threads with
``--localize``'s comparison of every op against the single-device run. *Before* is what the
program meant before the pass ran:

- for a step the chain can run without (``chain.OPTIONAL_STEPS``: ``sp_fusion``,
  ``drop_trivial_comm``, ``check_chunk_id``; and any user pass), the ranks' programs made without
  it, trained alike: their losses and final parameters must equal the after-world's;
- for a step every rank needs (backward, partition, reshard lowering, pruning, dist_to_dense ...),
  the global program's own meaning, the single-device run of :mod:`rulepass.reference`: the
  after-world's ops must not diverge from it and its losses must be within the tolerances.

Inputs are random (:func:`random_example`: parameters and batches drawn with each array's own
mean and spread, so the example's program and shapes stay as they are), so a pass that is right
only on the captured numbers fails. :func:`validate_pass` is the library call,
:func:`rulepass.testing.assert_pass_preserves` the test helper.
"""

from __future__ import annotations

import attrs
import numpy as np

from rulepass.chain import OPTIONAL_STEPS
from rulepass.example import Example
from rulepass.run import RunOptions, run_local, within


@attrs.define
class Validation:
    """The verdict on one pass: ``applied`` (its rule applications over all ranks), ``before``
    (``"without the pass"`` or ``"single device"``), the worst relative loss difference between
    before and after, the after-world's first divergence (None when none), and ``ok``."""

    pass_name: str
    example: str
    seed: int
    applied: int
    before: str
    loss_error: float
    divergence: dict | None
    ok: bool

    def message(self) -> str:
        """One line: the pass, the example, the seed and what differed."""
        what = "preserves the program's meaning" if self.ok else "changes what the program computes"
        line = (f"{self.pass_name} on {self.example} (seed {self.seed}, {self.applied} "
                f"applications): {what}; before = {self.before}, worst loss difference "
                f"{self.loss_error:.1e}")
        if self.divergence is not None:
            line += "; " + self.divergence["message"]
        return line


def random_example(example: Example, seed: int) -> Example:
    """``example`` with random float parameters and batches (normal, each array's own mean and
    standard deviation, at least 0.1) and without Paddle's results; optimizer state and integer
    arrays are kept."""
    rng = np.random.default_rng(seed)

    def draw(arrays: dict) -> dict:
        out = {}
        for name in sorted(arrays):
            a = np.asarray(arrays[name])
            if a.dtype.kind != "f":
                out[name] = a
                continue
            spread = max(float(a.std()) if a.size else 0.0, 0.1)
            out[name] = (rng.standard_normal(a.shape) * spread + float(a.mean() if a.size else 0)
                         ).astype(a.dtype)
        return out

    return attrs.evolve(example, params=draw(example.params), data=draw(example.data),
                        reference_losses=None, final_params={})


def _relative(a: list, b: list) -> float:
    worst = 0.0
    for x, y in zip(a, b):
        if x is None or y is None:
            return float("inf")
        worst = max(worst, abs(x - y) / max(abs(y), 1e-12))
    return worst


def validate_passes(example: Example, passes, *, seed: int = 0, steps: int = 1, rules=(),
                    extra=()) -> list[Validation]:
    """:class:`Validation` of each of ``passes`` (chain steps or user passes of ``extra``) on
    ``example`` with random inputs drawn from ``seed``, training ``steps`` steps. One
    after-world serves every pass; each optional pass adds its before-world. Raises what
    ``rulepass run`` raises for a bad example or rule file."""
    example = random_example(example, seed)
    steps = min(steps, example.steps)
    options = RunOptions(steps=steps, rules=tuple(rules), extra=tuple(extra), localize=True)
    after = run_local(example, options)
    divergence = after.localize["first"]
    single = after.single.float64.losses
    after_params_ok = all(all(r.single_ok.values()) for r in after.records)
    out = []
    for name in passes:
        applied = sum(sum(r.applied.get(name, {}).values()) for r in after.records)
        user = any(name == p for p, _ in extra)
        if name in OPTIONAL_STEPS or user:
            before_options = attrs.evolve(
                options, localize=False, extra=tuple((p, a) for p, a in extra if p != name),
                skip=() if user else (name,))
            before = run_local(example, before_options)
            loss_error = _relative(after.losses, before.losses)
            same = (len(before.losses) == len(after.losses)
                    and all(within(a, b, example.rtol, example.atol)
                            for a, b in zip(after.losses, before.losses)))
            ok = same and divergence is None and after_params_ok
            out.append(Validation(name, example.path.name, seed, applied, "without the pass",
                                  loss_error, divergence, ok))
        else:
            loss_error = _relative(after.losses, single)
            ok = (divergence is None and after_params_ok
                  and all(within(a, b, example.rtol, example.atol)
                          for a, b in zip(after.losses, single)))
            out.append(Validation(name, example.path.name, seed, applied, "single device",
                                  loss_error, divergence, ok))
    return out


def validate_pass(example: Example, pass_name: str, **options) -> Validation:
    """:class:`Validation` of one pass; ``options`` as for :func:`validate_passes`."""
    return validate_passes(example, [pass_name], **options)[0]
