"""Compiled tables kept on disk between runs: the persistent cache of the card engine.

Compiling the card bets of the catalog takes seconds (every sequence of card classes
they read is enumerated); counting a shoe with the compiled tables takes a fraction of
a millisecond.  :class:`TableCache` keeps what :class:`analyzer.core.solver.Solver`
compiles, so that a second run of ``baccarat odds --bets all`` loads its tables instead:
the card engine's tables, the value engine's rows of the bets, and the float64 batch plans
of the card bets (:meth:`analyzer.core.ways.WaysTable.keep_plans_in`, built once a batch
has counted some shoes, then loaded by later batches, which count with them from their
first shoe).

* **Where**: the platform's user cache directory (``platformdirs``:
  ``~/.cache/baccarat-analyzer`` on Linux), or ``$BACCARAT_CACHE_DIR``; off with
  ``BACCARAT_NO_CACHE=1`` or the commands' ``--no-cache``.
* **Keyed by everything that decides a table**: the solver's key (the conditions' texts,
  the rules, the known cards, the budget: :func:`analyzer.core.solver.stored_key`) with
  a digest of the package's source code and data (:func:`code_digest`), so that a
  changed engine never reads a table an older one wrote.
* **Never trusted**: a file holds plain arrays (``numpy.load(allow_pickle=False)``:
  nothing in it is executed; ``int64`` arrays in the narrowest integer type that holds
  them, widened again on load), its own key and a SHA-256 digest of both; a file that
  does not load, names another key or fails its digest is ignored and compiled again
  (and replaced), and the solver checks the arrays' shapes and ranges again.
* **Safe when processes race**: each file is written under a temporary name in the same
  folder and renamed into place (one atomic step), so a reader sees a whole file or none.
* **Bounded**: beyond :data:`MAX_BYTES` the least recently used files are removed.
* **A read-only or full folder**: the command still works, without the cache, and says
  so once (``warn``).
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

#: Most bytes the cache folder holds; the least recently used files go first beyond it.
MAX_BYTES = 256 * 2**20
#: Files of this kind in the folder (nothing else there is read or removed).
SUFFIX = ".npz"
ENV_DIR = "BACCARAT_CACHE_DIR"
ENV_OFF = "BACCARAT_NO_CACHE"
#: The layout of a cache file (changed with it).
STORE_VERSION = "baccarat-analyzer table cache 2"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """SHA-256 of every Python source and data file of the package (what a stored
    table's meaning depends on: any release or edit changes it); read once a process
    (about 4 ms)."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256(STORE_VERSION.encode())
    for path in sorted(root.rglob("*.py")) + sorted(root.rglob("*.toml")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def default_folder() -> Path:
    """``$BACCARAT_CACHE_DIR``, else the platform's user cache directory for this tool."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("baccarat-analyzer", appauthor=False))


def enabled(no_cache: bool = False) -> bool:
    """Whether the cache is on: not turned off by ``--no-cache`` or ``BACCARAT_NO_CACHE``."""
    return not no_cache and os.environ.get(ENV_OFF, "").strip().lower() in ("", "0", "false", "no")


#: Integer types an ``int64`` array is stored in when its values fit (narrowest first): the
#: compiled tables hold small counts and indices, so the files, and the reading and
#: hashing of them, are several times smaller.
_NARROW = (np.int8, np.int16, np.int32)


def _narrowed(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """``arrays`` as stored: each ``int64`` array in the narrowest of :data:`_NARROW` that
    holds its values, the names so stored listed in ``__narrowed__`` (read back by
    :func:`_widened`)."""
    out, names = {}, []
    for name, a in arrays.items():
        a = np.ascontiguousarray(a)
        if a.dtype == np.int64 and a.size:
            lo, hi = int(a.min()), int(a.max())
            narrow = next((t for t in _NARROW if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max), None)
            if narrow is not None:
                a = a.astype(narrow)
                names.append(name)
        out[name] = a
    out["__narrowed__"] = np.frombuffer("\0".join(names).encode(), dtype=np.uint8)
    return out


def _widened(stored: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The arrays :func:`_narrowed` stored, as they were given (``ValueError`` for a list
    of narrowed names that is not one)."""
    arrays = dict(stored)
    listed = bytes(arrays.pop("__narrowed__")).decode()
    for name in listed.split("\0") if listed else []:
        a = arrays[name]  # KeyError: not a list this module wrote
        if a.dtype not in [np.dtype(t) for t in _NARROW]:
            raise ValueError(f"{name!r} is listed as narrowed but holds {a.dtype}")
        arrays[name] = a.astype(np.int64)
    return arrays


def _digest(key: str, arrays: dict[str, np.ndarray]) -> str:
    h = hashlib.sha256(key.encode() + b"\0")
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}\0".encode())
        h.update(a.tobytes())
    return h.hexdigest()


class TableCache:
    """Compiled tables on disk (see the module); the ``store`` of a :class:`Solver`.

    ``load(key)`` gives back the arrays :meth:`save` stored under ``key`` by this
    version of the code, or ``None``; nothing it does raises for a missing, damaged,
    foreign or unwritable file.  ``warn(message)`` is called once if the folder cannot
    be written.

    >>> import tempfile, numpy as np
    >>> cache = TableCache(tempfile.mkdtemp())
    >>> cache.save("k", {"a": np.arange(3)})
    >>> cache.load("k")["a"].tolist(), cache.load("other")
    ([0, 1, 2], None)
    """

    def __init__(self, folder: str | Path | None = None, max_bytes: int = MAX_BYTES, warn=None):
        self.folder = Path(folder) if folder is not None else default_folder()
        self.max_bytes = max_bytes
        self._warn = warn
        self._warned = False
        self.hits = self.misses = 0

    def _path(self, key: str) -> Path:
        name = hashlib.sha256(f"{code_digest()}\0{key}".encode()).hexdigest()
        return self.folder / f"{name[:40]}{SUFFIX}"

    def _full_key(self, key: str) -> str:
        return f"{code_digest()}\0{key}"

    def load(self, key: str) -> dict[str, np.ndarray] | None:
        """The arrays stored under ``key``, verified, or ``None``."""
        path = self._path(key)
        try:
            if path.stat().st_size > self.max_bytes:  # not one of ours: never read whole
                raise OSError("too large")
            data = path.read_bytes()
        except OSError:
            self.misses += 1
            return None
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                stored = {n: z[n] for n in z.files}
            stored_key = bytes(stored.pop("__key__")).decode()
            digest = bytes(stored.pop("__digest__")).decode()
            if stored_key != self._full_key(key) or digest != _digest(stored_key, stored):
                raise ValueError("another key, or a damaged file")
            arrays = _widened(stored)
        except Exception:  # not an archive of plain arrays this key wrote (a damaged or foreign file)
            self.misses += 1
            return None
        try:
            os.utime(path)  # recently used: removed last
        except OSError:
            pass
        self.hits += 1
        return arrays

    def save(self, key: str, arrays: dict[str, np.ndarray]) -> None:
        """Store ``arrays`` under ``key`` (atomically); a folder that cannot be written
        is said once (``warn``) and otherwise ignored."""
        full = self._full_key(key)
        payload = _narrowed(arrays)
        digest = _digest(full, payload)
        payload["__key__"] = np.frombuffer(full.encode(), dtype=np.uint8)
        payload["__digest__"] = np.frombuffer(digest.encode(), dtype=np.uint8)
        path = self._path(key)
        tmp = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=self.folder)
            with os.fdopen(fd, "wb") as f:
                np.savez(f, **payload)  # type: ignore[arg-type]  # mypy reads a key of payload as allow_pickle
            os.replace(tmp, path)
            tmp = None
            self._trim()
        except OSError as e:
            self._say(
                f"cannot write the table cache in {str(self.folder)!r} ({e.strerror or e}); "
                f"continuing without it (turn it off with --no-cache or {ENV_OFF}=1)"
            )
        finally:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass

    def _say(self, message: str) -> None:
        if not self._warned and self._warn is not None:
            self._warn(message)
        self._warned = True

    def _trim(self) -> None:
        """Remove the least recently used files while the folder holds more than ``max_bytes``."""
        entries, now = [], time.time()
        for p in self.folder.glob(f"*{SUFFIX}"):
            try:
                st = p.stat()
                if p.name.startswith(".tmp-"):
                    # another process's file being written; an hour old: left by a killed run
                    if now - st.st_mtime > 3600:
                        p.unlink()
                    continue
            except OSError:
                continue
            entries.append((st.st_mtime, st.st_size, p))
        total = sum(size for _, size, _ in entries)
        for _, size, p in sorted(entries, key=lambda e: e[0]):
            if total <= self.max_bytes:
                break
            try:
                p.unlink()
                total -= size
            except OSError:
                pass

    def clear(self) -> int:
        """Remove every cached table; the number of files removed."""
        n = 0
        for p in self.folder.glob(f"*{SUFFIX}"):
            try:
                p.unlink()
                n += 1
            except OSError:
                pass
        return n
