"""Paddle's CPU random numbers, reproduced: the ``mt19937_64`` engine of its default generator and
the uniform draws its random kernels take from it.

Paddle 3.3.1 (``paddle/phi/core/generator.cc``) keeps one ``std::mt19937_64`` per generator;
``paddle.seed(s)`` seeds the default CPU generator's engine through ``std::seed_seq({s})``. Its
CPU random kernels (``dropout``, ``uniform``; ``paddle/phi/kernels/cpu/``) draw one number per
element, in row-major order, with ``std::uniform_real_distribution<T>(0, 1)``, which for a 64-bit
engine is libstdc++'s ``generate_canonical<T>``: one engine output ``x`` converted to ``T``
(rounded to nearest) and divided by 2^64, clamped below 1. A kernel given a nonzero ``seed``
(``fix_seed``) uses a fresh engine seeded with it directly (``engine.seed(seed)``, no seed_seq) on
every call.

:class:`MersenneTwister64` is the engine (vectorized with NumPy, 312 outputs per twist);
:func:`uniform_from` turns its outputs into Paddle's ``T`` draws. A *draw source* gives a random
kernel the draws for one run of one op (see ``kernels.registry.random_kernel``):
:class:`SequentialSource` draws them in the order the ops run, as a single process does, and
:class:`IndexedSource` (used by ``rulepass run``) gives every rank the piece of the draws the
single-process model would have made for the whole tensor, so a program split across ranks and
micro-batches draws what Paddle's single-process run drew.

The draws are made on the host (NumPy) and moved to the kernel's namespace once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["MersenneTwister64", "seed_seq_state", "uniform_from", "Draws", "SequentialSource",
           "IndexedSource", "RandomOp"]

_N, _M = 312, 156
_MATRIX_A = np.uint64(0xB5026F5AA96619E9)
_UPPER = np.uint64(0xFFFFFFFF80000000)
_LOWER = np.uint64(0x7FFFFFFF)
_MASK32 = 0xFFFFFFFF


def seed_seq_state(seed: int) -> np.ndarray:
    """The 312-word state ``std::mt19937_64(std::seed_seq({seed}))`` starts from (C++11
    [rand.util.seedseq]: 624 32-bit words, paired low word first; ``seed`` taken modulo 2^32, as
    seed_seq stores it)."""
    n, words = 2 * _N, [0x8B8B8B8B] * (2 * _N)
    values = [seed & _MASK32]
    s = len(values)
    t = 11  # n >= 623
    p = (n - t) // 2
    q = p + t
    m = max(s + 1, n)

    def mix(x: int) -> int:
        return x ^ (x >> 27)

    for k in range(m):
        r1 = (1664525 * mix(words[k % n] ^ words[(k + p) % n] ^ words[(k - 1) % n])) & _MASK32
        r2 = (r1 + (s if k == 0 else (k % n + values[k - 1]) if k <= s else k % n)) & _MASK32
        words[(k + p) % n] = (words[(k + p) % n] + r1) & _MASK32
        words[(k + q) % n] = (words[(k + q) % n] + r2) & _MASK32
        words[k % n] = r2
    for k in range(m, m + n):
        r3 = (1566083941 * mix((words[k % n] + words[(k + p) % n] + words[(k - 1) % n])
                               & _MASK32)) & _MASK32
        r4 = (r3 - k % n) & _MASK32
        words[(k + p) % n] ^= r3
        words[(k + q) % n] ^= r4
        words[k % n] = r4
    state = np.array([words[2 * i] | (words[2 * i + 1] << 32) for i in range(_N)], dtype=np.uint64)
    if not (int(state[0]) >> 31) and not state[1:].any():  # all zero: the standard's fix-up
        state[0] = np.uint64(1 << 63)
    return state


def _plain_seed_state(seed: int) -> np.ndarray:
    """The state ``std::mt19937_64(seed)`` / ``engine.seed(seed)`` starts from."""
    state = [seed & 0xFFFFFFFFFFFFFFFF]
    for i in range(1, _N):
        prev = state[-1]
        state.append((6364136223846793005 * (prev ^ (prev >> 62)) + i) & 0xFFFFFFFFFFFFFFFF)
    return np.array(state, dtype=np.uint64)


class MersenneTwister64:
    """``std::mt19937_64``: ``MersenneTwister64(seed)`` seeds as ``engine.seed(seed)``;
    :meth:`from_seed_seq` as Paddle's generator does (``std::seed_seq({seed})``)."""

    def __init__(self, seed: int = 5489, state: np.ndarray | None = None):
        self.state = _plain_seed_state(seed) if state is None else np.array(state, np.uint64)
        self.index = _N
        self.drawn = 0  # outputs taken so far

    @classmethod
    def from_seed_seq(cls, seed: int) -> MersenneTwister64:
        """The engine of a Paddle generator after ``paddle.seed(seed)``."""
        return cls(state=seed_seq_state(seed))

    def _twist(self) -> None:
        mt = self.state
        new = mt.copy()

        def step(upper, lower, far):
            x = (upper & _UPPER) | (lower & _LOWER)
            return far ^ (x >> np.uint64(1)) ^ ((x & np.uint64(1)) * _MATRIX_A)

        # i < 156 reads old words only; 156 <= i < 311 reads the new words i - 156; i = 311
        # reads the new word 0 and the new word 155
        new[:_M] = step(mt[:_M], mt[1:_M + 1], mt[_M:])
        new[_M:_N - 1] = step(mt[_M:_N - 1], mt[_M + 1:], new[:_N - 1 - _M])
        new[_N - 1] = step(mt[_N - 1:], new[:1], new[_M - 1:_M])[0]
        self.state = new
        self.index = 0

    def next(self, count: int) -> np.ndarray:
        """The next ``count`` outputs (uint64), tempered."""
        out = np.empty(count, dtype=np.uint64)
        filled = 0
        while filled < count:
            if self.index >= _N:
                self._twist()
            take = min(count - filled, _N - self.index)
            out[filled:filled + take] = self.state[self.index:self.index + take]
            self.index += take
            filled += take
        self.drawn += count
        y = out
        y ^= (y >> np.uint64(29)) & np.uint64(0x5555555555555555)
        y ^= (y << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000)
        y ^= (y << np.uint64(37)) & np.uint64(0xFFF7EEE000000000)
        y ^= y >> np.uint64(43)
        return y


def uniform_from(outputs: np.ndarray, dtype: str) -> np.ndarray:
    """``std::uniform_real_distribution<T>(0, 1)`` of libstdc++ for these engine outputs:
    ``T(x) / 2^64`` (the conversion rounds to nearest), values that round up to 1 clamped to
    the largest ``T`` below 1. ``dtype``: ``"float32"`` or ``"float64"`` (others draw as
    float32, as Paddle's bfloat16/float16 kernels compute in float)."""
    t = np.float64 if dtype == "float64" else np.float32
    u = outputs.astype(t) * t(2.0 ** -64)
    return np.minimum(u, np.nextafter(t(1), t(0)))


Draws = Callable[[tuple, str, int], Any]
"""``draws(shape, dtype, seed) -> array``: uniform [0, 1) draws for one run of one op, shaped
``shape``, as Paddle's CPU kernel makes them for ``dtype``, from the generator (``seed`` 0) or from
an engine seeded with ``seed``."""


def _seeded(seed: int, count: int, dtype: str) -> np.ndarray:
    return uniform_from(MersenneTwister64(seed).next(count), dtype)


class SequentialSource:
    """Draws in the order random ops run, each op ``numel`` draws from one Paddle CPU generator
    seeded with ``seed`` (``paddle.seed(seed)``) after ``skip`` outputs: what one process running
    the program does. Thread-safe (one generator for every caller)."""

    def __init__(self, seed: int = 0, skip: int = 0):
        self.engine = MersenneTwister64.from_seed_seq(seed)
        if skip:
            self.engine.next(skip)
        self._lock = threading.Lock()

    def draws(self, op: Any, xp: Any) -> Draws:
        """The ``draws`` callable of one run of ``op`` (see :data:`Draws`)."""

        def draw(shape: tuple, dtype: str, seed: int) -> Any:
            count = int(np.prod(shape, dtype=np.int64))
            if seed:
                return xp.asarray(_seeded(seed, count, dtype).reshape(shape))
            with self._lock:
                outputs = self.engine.next(count)
            return xp.asarray(uniform_from(outputs, dtype).reshape(shape))

        return draw


class RandomOp:
    """What :class:`IndexedSource` knows of one random op of a rank's program.

    ``offset``: the generator outputs the single-process model draws in a step before this op.
    ``shape``: the op's global result for one micro-batch (its type before ``dist_to_dense``).
    ``micro_batches``: how many times the op runs in a step (once per micro-batch).
    ``batch_dim``: the dim of the result holding the micro-batch, or None: the model's tensor
    is the ``micro_batches`` results concatenated along it (micro-batch ``m`` its ``m``-th
    block), or, without one, the same for every micro-batch. ``dtype``: the draws' type
    (``uniform_from``). ``piece(array) -> array``: the rank's piece of one micro-batch's global
    tensor (by its placement; the whole of it when replicated).
    """

    def __init__(self, offset: int, shape: tuple, micro_batches: int, batch_dim: int | None,
                 piece: Callable[[np.ndarray], np.ndarray], dtype: str = "float32"):
        self.offset = offset
        self.shape = tuple(int(n) for n in shape)
        self.micro_batches = max(1, micro_batches)
        self.batch_dim = batch_dim
        self.piece = piece
        self.dtype = dtype

    @property
    def model_shape(self) -> tuple:
        """The op's result in the single-process model (all micro-batches)."""
        if self.batch_dim is None:
            return self.shape
        shape = list(self.shape)
        shape[self.batch_dim] *= self.micro_batches
        return tuple(shape)

    @property
    def count(self) -> int:
        """Generator outputs the model's op draws per step."""
        return int(np.prod(self.model_shape, dtype=np.int64))


class IndexedSource:
    """Draws by position: in step ``s``, element ``i`` of the model's tensor of op ``o`` is
    generator output ``skip + s * per_step + o.offset + i`` of a Paddle CPU generator seeded with
    ``seed``, whatever rank or micro-batch runs it; each run gets its micro-batch's block and its
    rank's piece of it (:class:`RandomOp`). Run ``n`` of an op is step ``n // micro_batches``,
    micro-batch ``n % micro_batches`` (the schedules run one job type's micro-batches in order).
    An op drawing from an engine of its own seed gets that engine's first outputs every run.

    ``ops``: op -> :class:`RandomOp` (ops of every rank: each rank's ops are its own objects).
    ``per_step``: generator outputs one step of the model draws. :meth:`draws` raises
    ``KeyError`` for an op not in ``ops``. Thread-safe.
    """

    def __init__(self, ops: dict, per_step: int, seed: int = 0, skip: int = 0):
        self.ops = ops
        self.per_step = per_step
        self.skip = skip
        self.engine = MersenneTwister64.from_seed_seq(seed)
        self._outputs = np.empty(0, dtype=np.uint64)
        self._lock = threading.Lock()
        self._runs: dict = {}  # op -> runs so far

    def _outputs_upto(self, end: int) -> np.ndarray:
        with self._lock:
            if end > self._outputs.size:
                more = self.engine.next(end - self._outputs.size)
                self._outputs = np.concatenate([self._outputs, more])
            return self._outputs

    def draws(self, op: Any, xp: Any) -> Draws:
        """The ``draws`` callable of the next run of ``op``."""
        info = self.ops.get(op)
        if info is None:
            raise KeyError(f"{getattr(op, 'name', op)} draws random numbers, but the run did not "
                           "find it in the single-process model")
        with self._lock:
            n = self._runs.get(op, 0)
            self._runs[op] = n + 1
        step, micro_batch = divmod(n, info.micro_batches)

        def draw(shape: tuple, dtype: str, seed: int) -> Any:
            if seed:
                whole = _seeded(seed, info.count, info.dtype)
            else:
                start = self.skip + step * self.per_step + info.offset
                end = start + info.count
                whole = uniform_from(self._outputs_upto(end)[start:end], info.dtype)
            whole = whole.reshape(info.model_shape)
            if info.batch_dim is not None:
                rows = info.shape[info.batch_dim]
                index = [slice(None)] * len(info.shape)
                index[info.batch_dim] = slice(micro_batch * rows, (micro_batch + 1) * rows)
                whole = whole[tuple(index)]
            piece = info.piece(whole)
            if tuple(piece.shape) != tuple(shape):
                raise ValueError(f"{getattr(op, 'name', op)}: this rank's piece of the model's "
                                 f"draws is {list(piece.shape)}, the kernel asked for "
                                 f"{list(shape)}")
            return xp.asarray(np.ascontiguousarray(piece))

        return draw
