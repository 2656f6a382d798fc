"""Where the shoe-aware sums of ``baccarat check`` run: on Dask workers (``--cluster local`` /
``--scheduler``, :class:`DaskRunner`) or on processes forked once (``--jobs N``, :class:`ForkRunner`).

:class:`ShoeAwareSums.add <.reference.ShoeAwareSums.add>` cuts the coups of each chunk into
fixed blocks and merges the sums of every block in block order, so where the blocks are computed
does not change a bit of the report.  A :class:`DaskRunner` is opened once for the whole check
(a ``LocalCluster`` started, or a running scheduler connected to), passed down in place of
``jobs``, and per chunk sends each group of blocks (its coups only) to a worker.  What every chunk
shares, the cells' families, is scattered once; each worker compiles the exact counter from them
on first use.  Dask is imported here only, with the same error as ``baccarat study`` when the
``cluster`` extra is missing.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Protocol

from ..core.errors import BaccaratError

if TYPE_CHECKING:
    from multiprocessing.pool import Pool

    from distributed import Client, LocalCluster

#: how long to try to reach a ``--scheduler`` (as ``baccarat study``)
CONNECT_TIMEOUT = "20s"


class ClusterError(BaccaratError):
    """The cluster cannot be used (missing extra, unreachable scheduler, a task failing on it)."""


class Runner(Protocol):
    """What :class:`ForkRunner` and :class:`DaskRunner` have in common: an open runner the
    shoe-aware sums hand their groups of blocks to (the ``jobs`` of a check, in place of a number)."""

    @property
    def tasks(self) -> int: ...
    @property
    def where(self) -> str | None: ...
    @property
    def used(self) -> int: ...

    def run(self, state, groups, accumulate) -> list: ...


def _strip(fam, code: bool = True):
    """A family the workers can unpickle: its bet (parsed conditions hold lambdas) left out, and
    without ``code`` its cells of the 10**6 value sequences too (the loop reads only its rows)."""
    if code:
        return dataclasses.replace(fam, bet=None)
    import numpy as np

    return dataclasses.replace(fam, bet=None, code=np.zeros(0, dtype=fam.code.dtype))


class _Shared:
    """What every task of a check needs (scattered once): the families, and the counter compiled
    from them on the worker at first use (never sent)."""

    def __init__(self, families):
        self.families = tuple(_strip(f) for f in families)
        self._counter = None

    def __getstate__(self):
        return {"families": self.families}

    def __setstate__(self, state):
        self.families = state["families"]
        self._counter = None

    @property
    def counter(self):
        if self._counter is None:
            from .families import Counter

            self._counter = Counter(list(self.families))
        return self._counter


def _start_local(workers: int):
    """A LocalCluster of ``workers`` processes on 127.0.0.1.

    Workers started while SIGINT is ignored keep ignoring it (Python leaves an ignored SIGINT
    alone at start-up), so Ctrl-C reaches only this process, which stops them (as ``baccarat
    study`` does).  A Ctrl-C during the start itself, a second or two, is ignored with them."""
    import logging
    import signal
    import threading

    import dask
    from distributed import LocalCluster

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        # Dask starts its workers with MALLOC_TRIM_THRESHOLD_=65536, which turns off glibc's
        # adaptive mmap threshold: every temporary array of the loop is then mapped and unmapped
        # again, and the sums run about twice as slow.  Not set, the workers keep glibc's default.
        with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
            return LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=":0",  # a free port: 8787 may be taken (another cluster), and Dask warns
                silence_logs=logging.ERROR,
            )
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


def _pieces(state, groups) -> list:
    """What a worker gets for each group of blocks: the state with the group's coups only (no
    counter: the worker has its own; families without their bets, which do not pickle) and the
    blocks' bounds within it."""
    pieces = []
    for group in groups:
        lo, hi = group[0][0], group[-1][1]
        piece = dataclasses.replace(
            state,
            counter=None,
            progress=None,
            remaining=state.remaining[lo:hi],
            N=state.N[lo:hi],
            obs=state.obs[lo:hi] if state.obs is not None else None,
            bet_fams=[_strip(f, code=False) for f in state.bet_fams],
            outcome=_strip(state.outcome, code=False) if state.outcome is not None else None,
        )
        pieces.append((piece, [(a - lo, b - lo) for a, b in group]))
    return pieces


def _block_sums(accumulate, counter, state, blocks) -> list:
    """Worker side: ``accumulate`` (:func:`.reference._accumulate`) over each block of a piece."""
    st = dataclasses.replace(state, counter=counter)
    return [accumulate(st, lo, hi) for lo, hi in blocks]


def _group_sums(shared: _Shared, state, blocks, accumulate):
    return _block_sums(accumulate, shared.counter, state, blocks)


class DaskRunner:
    """Runs the groups of blocks of :meth:`ShoeAwareSums.add` on a Dask cluster.

    ``tasks``: groups per chunk (the workers of a local cluster, or ``--jobs`` with a scheduler).
    ``where`` names the cluster for the report; ``used`` counts the tasks run.  Use as a context
    manager: the client (and a local cluster) are closed on the way out, Ctrl-C included."""

    def __init__(self, cluster: str | None = None, scheduler: str | None = None, jobs: int = 1):
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:  # type: ignore[redundant-expr]  # checked at run time
            raise ClusterError(f"jobs must be a whole number >= 1, got {jobs!r}")
        if cluster not in (None, "local"):
            raise ClusterError(f"unknown cluster {cluster!r} (use 'local', or --scheduler ADDRESS)")
        if bool(cluster) == bool(scheduler):
            raise ClusterError("give either a local cluster or a scheduler address (one of them)")
        self.cluster_name, self.scheduler, self.tasks = cluster, scheduler, jobs
        self.client: Client | None = None
        self.local: LocalCluster | None = None
        self.used = 0
        self._shared: tuple[Any, Any] | None = None  # (families, future of their _Shared)
        self.where = (
            f"Dask scheduler {scheduler}"
            if scheduler
            else f"Dask LocalCluster ({jobs} worker{'s' if jobs != 1 else ''} on 127.0.0.1)"
        )

    def __enter__(self) -> DaskRunner:
        try:
            from distributed import Client
        except ImportError:
            raise ClusterError(
                "the cluster engine needs Dask distributed: python -m pip install 'baccarat-analyzer[cluster]'"
            ) from None
        try:
            if self.scheduler:
                try:
                    self.client = Client(self.scheduler, timeout=CONNECT_TIMEOUT)
                except (OSError, TimeoutError, ValueError, TypeError) as e:
                    raise ClusterError(f"cannot connect to the Dask scheduler at {self.scheduler!r}: {e}") from None
            else:
                try:
                    self.local = _start_local(self.tasks)
                    self.client = Client(self.local)
                except (OSError, RuntimeError, TimeoutError) as e:
                    raise ClusterError(f"cannot start a Dask LocalCluster of {self.tasks} workers: {e}") from None
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        client, local = self.client, self.local
        self.client = self.local = None
        self._shared = None
        try:
            if client is not None:
                client.close()
        finally:
            if local is not None:
                local.close()

    def _shared_future(self, state):
        fams = state.counter.families
        if self._shared is None or self._shared[0] is not fams:
            assert self.client is not None  # inside the with block
            fut = self.client.scatter(_Shared(fams), broadcast=True, hash=False)
            self._shared = (fams, fut)
        return self._shared[1]

    def run(self, state, groups, accumulate) -> list:
        """The sums of every block, in block order (``accumulate`` is :func:`.reference._accumulate`)."""
        if self.client is None:
            raise RuntimeError("DaskRunner.run outside its 'with' block")
        shared = self._shared_future(state)
        pieces = _pieces(state, groups)
        data = self.client.scatter([p for p, _ in pieces], hash=False)
        futures = [
            self.client.submit(_group_sums, shared, d, blocks, accumulate, pure=False)
            for d, (_, blocks) in zip(data, pieces)
        ]
        try:
            results = [f.result() for f in futures]
        except Exception as e:
            self.client.cancel(futures + data)
            raise ClusterError(
                f"the shoe-aware sums failed on the {self.where}: {type(e).__name__}: {e} "
                f"(is the same version of baccarat-analyzer installed on every worker?)"
            ) from None
        except BaseException:
            self.client.cancel(futures + data)
            raise
        self.used += len(futures)
        return [part for parts in results for part in parts]


_FORK_COUNTER = None  # the counter the forked processes of a ForkRunner inherit


def _ignore_interrupt() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops the pool
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # and ends the workers with SIGTERM


def _fork_group(arg):
    accumulate, state, blocks = arg
    return _block_sums(accumulate, _FORK_COUNTER, state, blocks)


class ForkRunner:
    """``jobs`` > 1 on one machine: the groups of blocks of :meth:`ShoeAwareSums.add` on ``jobs``
    processes forked once for the whole check (a pool per chunk made ``--jobs 2`` slower than one
    job).  The counter is inherited at the fork; each chunk's coups are sent to the processes.  A
    context manager; ``where``/``used`` as :class:`DaskRunner`'s, so the report names no engine."""

    where = None
    used = 0

    def __init__(self, jobs: int):
        self.tasks = jobs
        self.pool: Pool | None = None
        self._counter = None

    def __enter__(self) -> ForkRunner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.terminate()
            pool.join()

    def run(self, state, groups, accumulate) -> list:
        """The sums of every block, in block order (``accumulate`` is :func:`.reference._accumulate`)."""
        if len(groups) == 1:  # too few coups to share
            return _block_sums(accumulate, state.counter, state, groups[0])
        if self.pool is None or self._counter is not state.counter:
            global _FORK_COUNTER  # noqa: PLW0603 (read by the forked workers, which inherit module state)
            import multiprocessing as mp

            self.close()
            _FORK_COUNTER = self._counter = state.counter
            self.pool = mp.get_context("fork").Pool(self.tasks, initializer=_ignore_interrupt)
        pieces = [(accumulate, piece, blocks) for piece, blocks in _pieces(state, groups)]
        return [part for parts in self.pool.map(_fork_group, pieces) for part in parts]


def can_fork() -> bool:
    import multiprocessing as mp

    return "fork" in mp.get_all_start_methods()


__all__ = ["CONNECT_TIMEOUT", "ClusterError", "DaskRunner", "ForkRunner", "can_fork"]
