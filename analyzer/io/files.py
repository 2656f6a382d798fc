"""Atomic file writing: a temporary file beside the target, then a rename.

An interrupted run (Ctrl-C, a crash, a full disk) never leaves a half-written
file under the target's name.  The file gets the usual permissions (0666 less
the umask), as a plain ``open`` would give it.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import BaccaratError


class OutputError(BaccaratError):
    """A file that cannot be written."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_open(path: str | Path, binary: bool = False):
    """Open a temporary file for writing; on success it replaces ``path``."""
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"cannot write {str(path)!r}: it is a directory")
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise OutputError(f"cannot write {str(path)!r}: {e.strerror or e}") from None
    try:
        if binary:
            f = os.fdopen(fd, "wb")
        else:
            f = os.fdopen(fd, "w", encoding="utf-8", newline="")
        with f:
            yield f
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(f"cannot write {str(path)!r}: {e.strerror or e}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write(path: str | Path, data: str | bytes) -> None:
    """Write text or bytes to ``path`` atomically."""
    with atomic_open(path, binary=isinstance(data, bytes)) as f:
        f.write(data)
