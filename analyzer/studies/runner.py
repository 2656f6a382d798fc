"""Running a study: chunks on local processes or a Dask cluster, with resumable state.

Chunks are independent (each shoe has its own seed), so they may run in any
order and anywhere; :func:`run_study` merges them in chunk order.  With a
state directory every finished chunk is saved (:class:`ChunkStore`) and a
study interrupted or extended later computes only the chunks it lacks.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..io.files import atomic_write, read_json
from .aggregate import Aggregate, StudyResult, run_chunk, summarize
from .params import FORMAT_VERSION, StudyError, StudyParams

ProgressFn = Callable[[dict], None]


class ChunkStore:
    """Finished chunks as JSON files in a state directory (written atomically)."""

    def __init__(self, directory: Path, params: StudyParams):
        self.dir = Path(directory)
        self.params = params
        self.key = params.key()

    def _path(self, index: int, shoes: int) -> Path:
        return self.dir / f"chunk-{index:07d}-{shoes}.json"

    def prepare(self) -> None:
        """Make the state folder ready, or refuse one this study did not write.

        The folder must be new, empty, or hold this study's ``study.json``: a
        folder with other files, or another study's or a foreign
        ``study.json``, is refused rather than written into.
        """
        name = str(self.dir)
        if name.strip() == "":
            raise StudyError("an empty --state folder name")
        if self.dir.exists() and not self.dir.is_dir():
            raise StudyError(f"state {name!r} is not a folder")
        meta = self.dir / "study.json"
        ident = dict(self.params.identity(), key=self.key)
        if self.dir.is_dir() and any(self.dir.iterdir()):
            if not meta.is_file():
                raise StudyError(
                    f"state folder {name!r} is not empty and holds no study; choose a new or empty --state"
                )
            old = read_json(meta)
            if not isinstance(old, dict) or "key" not in old:
                raise StudyError(
                    f"state folder {name!r} holds a study.json this tool did not write; choose another --state"
                )
            if old.get("key") != self.key:
                raise StudyError(
                    f"state directory {name!r} holds another study "
                    f"(key {old.get('key')}, this one is {self.key}); choose another --state"
                )
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StudyError(f"cannot create state directory {name!r}: {e.strerror or e}") from None
        atomic_write(meta, (json.dumps(ident, indent=1, sort_keys=True) + "\n").encode())

    def load(self, index: int, shoes: int) -> dict | None:
        path = self._path(index, shoes)
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # damaged: computed again
        if (
            data.get("format") != FORMAT_VERSION
            or data.get("key") != self.key
            or data.get("index") != index
            or data.get("shoes") != shoes
        ):
            return None
        return data

    def save(self, chunk: dict) -> None:
        text = json.dumps(chunk, separators=(",", ":"))
        atomic_write(self._path(chunk["index"], chunk["shoes"]), text.encode())


def default_state_dir(params: StudyParams, root: str | Path = ".baccarat-study") -> Path:
    return Path(root) / params.key()


def _worker_init() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt does


def _run_chunk_args(args) -> dict:
    return run_chunk(*args)


def run_study(
    params: StudyParams,
    *,
    jobs: int = 1,
    cluster: str | None = None,
    scheduler: str | None = None,
    state_dir: str | Path | None = None,
    progress: ProgressFn | None = None,
) -> StudyResult:
    """Run (or resume) a study and merge its chunks in chunk order.

    ``jobs``: local processes (``cluster is None``) or workers of a local Dask
    cluster (``cluster == "local"``); ``scheduler``: address of an existing Dask
    scheduler.  With ``state_dir`` every finished chunk is saved there and
    chunks already saved are not computed again.  On ``KeyboardInterrupt`` the
    finished chunks stay saved and the interrupt is raised again.

    ``progress(status)``: called with a status dict (``shoes_done`` of ``shoes_total``,
    chunks ``computed`` and ``reused``, ``elapsed``) when the run starts, after each chunk,
    and in-process also as a chunk's coups are priced (``shoes_done`` then has a fraction);
    then with ``stage="summary"``, ``bets_done`` of ``bets_total``, as the exact figures
    of each bet are summed.
    """
    import time

    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:  # type: ignore[redundant-expr]  # checked at run time
        raise StudyError(f"jobs must be a whole number >= 1, got {jobs!r}")
    if cluster not in (None, "local"):
        raise StudyError(f"unknown cluster {cluster!r} (use 'local', or --scheduler ADDRESS)")
    if cluster and scheduler:
        raise StudyError("give either a local cluster or a scheduler address, not both")
    t0 = time.perf_counter()
    store = ChunkStore(Path(state_dir), params) if state_dir is not None else None
    if store is not None:
        store.prepare()
    chunks = params.chunks()
    on_disk = {index for index, _, shoes in chunks if store is not None and store.load(index, shoes) is not None}
    missing = [c for c in chunks if c[0] not in on_disk]
    status: dict[str, Any] = {
        "chunks": len(chunks),
        "reused": len(on_disk),
        "computed": 0,
        "shoes_total": params.shoes,
        "shoes_done": sum(c[2] for c in chunks if c[0] in on_disk),
        "shoes_computed": 0,
        "state_dir": None if store is None else str(store.dir),
    }
    # Chunks are merged in chunk order as soon as they are contiguous, so memory
    # holds only the chunks that finished ahead of an unfinished one.
    agg = Aggregate()
    pending: dict[int, dict] = {}
    cursor = [0]

    def merge_ready() -> None:
        while cursor[0] < len(chunks):
            index, _, shoes = chunks[cursor[0]]
            if index in pending:
                agg.add(pending.pop(index))
            elif index in on_disk:
                assert store is not None  # chunks on disk: there is a store
                data = store.load(index, shoes)
                if data is None:
                    raise StudyError(f"chunk file {index} of {str(store.dir)!r} became unreadable during the run")
                agg.add(data)
            else:
                return
            cursor[0] += 1

    def finished(chunk: dict) -> None:
        key = chunk.get("key")
        if key != params.key():
            raise StudyError(
                "a worker returned a chunk of another study (is the same version of "
                "baccarat-analyzer installed on every worker?)"
            )
        if store is not None:
            store.save(chunk)
        pending[chunk["index"]] = chunk
        status["computed"] += 1
        status["shoes_done"] += chunk["shoes"]
        status["shoes_computed"] += chunk["shoes"]
        merge_ready()
        if progress:
            progress(dict(status, elapsed=time.perf_counter() - t0))

    if progress:
        progress(dict(status, elapsed=0.0))
    merge_ready()
    engine = "in-process"
    if missing:
        if scheduler or cluster:
            engine = _run_dask(params, missing, jobs, cluster, scheduler, finished)
        elif jobs > 1 and len(missing) > 1:
            engine = _run_pool(params, missing, jobs, finished)
        else:
            for index, _, _ in missing:
                tick = None
                if progress:

                    def tick(shoes, base=status["shoes_done"]):
                        progress(dict(status, shoes_done=base + shoes, elapsed=time.perf_counter() - t0))

                finished(run_chunk(params, index, tick))
    merge_ready()
    assert cursor[0] == len(chunks) and not pending
    reused = len(on_disk)
    summary_tick = None
    if progress:

        def summary_tick(done, bets):
            progress(dict(status, stage="summary", bets_done=done, bets_total=bets, elapsed=time.perf_counter() - t0))

    result = summarize(params, agg, summary_tick)
    elapsed = time.perf_counter() - t0
    result.run = {
        "engine": engine,
        "jobs": jobs,
        "chunks": len(chunks),
        "chunks_reused": reused,
        "chunks_computed": status["computed"],
        "shoes_computed": status["shoes_computed"],
        "elapsed_s": elapsed,
        "shoes_per_s": status["shoes_computed"] / elapsed if elapsed > 0 else None,
        "state_dir": status["state_dir"],
    }
    return result


def _run_pool(params, missing, jobs, finished) -> str:
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    pool = ctx.Pool(min(jobs, len(missing)), initializer=_worker_init)
    try:
        for chunk in pool.imap_unordered(_run_chunk_args, [(params, i) for i, _, _ in missing]):
            finished(chunk)
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
    return f"{jobs} local processes"


def _run_dask(params, missing, jobs, cluster, scheduler, finished) -> str:
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise StudyError(
            "the cluster engine needs Dask distributed: python -m pip install 'baccarat-analyzer[cluster]'"
        ) from None
    import logging

    local = None
    try:
        if scheduler:
            try:
                client = Client(scheduler, timeout="20s")
            except (OSError, TimeoutError, ValueError) as e:
                raise StudyError(f"cannot connect to the Dask scheduler at {scheduler!r}: {e}") from None
            where = f"Dask scheduler {scheduler}"
        else:
            # Workers started while SIGINT is ignored keep ignoring it (Python leaves an ignored
            # SIGINT alone at start-up), so Ctrl-C reaches only this process, which stops them.
            import signal

            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                local = LocalCluster(
                    n_workers=jobs,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=":0",  # a free port: 8787 may be taken (another cluster), and Dask warns
                    silence_logs=logging.ERROR,
                )
            finally:
                signal.signal(signal.SIGINT, previous)
            client = Client(local)
            where = f"Dask LocalCluster ({jobs} workers)"
        key = params.key()
        futures = [client.submit(run_chunk, params, i, key=f"baccarat-study-{key}-{i}-{n}") for i, _, n in missing]
        try:
            for fut in as_completed(futures):
                finished(fut.result())
        except BaseException:
            client.cancel(futures)
            raise
        finally:
            client.close()
    finally:
        if local is not None:
            local.close()
    return where
