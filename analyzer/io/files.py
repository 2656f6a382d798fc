"""Files in and out, safely: atomic outputs, bounded inputs, owned folders.

Outputs (:func:`atomic_open`, :func:`atomic_write`):

* ``-`` is standard output.
* A regular file (or a new name) is written to a temporary file beside it,
  flushed to disk (fsync) and renamed over it, so an interrupted run never
  leaves half a file under its name.  An existing file keeps its permission
  bits (and its owner, when run as root).  A symlink is followed: its target
  is replaced, the link stays.  A file with other hard links is rewritten in
  place, so every link sees the new text.
* A name of one of this process's open descriptors (``/dev/stdout``,
  ``/dev/stderr``, ``/dev/fd/N``, ``/proc/self/fd/N``) writes into that
  descriptor, as the shell set it up: ``-o /dev/stdout >> log.txt`` appends to
  ``log.txt`` and never replaces it; into a pipe it goes down the pipe.
* Anything else (``/dev/null``, a FIFO, a terminal) is
  written straight into, never replaced.
* Temporary files are named ``.NAME.PID.baccarat.tmp``; one left by a killed
  run is removed by the next write of the same file.  A run told to stop
  (:mod:`analyzer.io.interrupt`) never renames its temporary file into place.

Inputs (:func:`read_text`): at most a stated number of bytes are read, so
``/dev/zero`` or a huge file is refused with a clear error instead of filling
memory.

Folders (:func:`prepare_folder`, :func:`staged_folder`): a folder the tool
writes many files into (``baccarat report --out``) must be new, empty, or one
it wrote before (it holds the tool's manifest file); anything else is refused,
so ``--out .`` cannot overwrite a project.  :func:`staged_folder` writes the
whole folder beside its name (``.NAME.PID.baccarat.tmp``) and renames it into
place at the end, so an interrupted run leaves the folder as it was.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from contextlib import contextmanager
from pathlib import Path

from ..core.errors import BaccaratError
from .interrupt import check_stop

#: Default limit of :func:`read_text`: 64 MiB.
MAX_INPUT_BYTES = 64 * 2**20
_TMP_SUFFIX = ".baccarat.tmp"


class OutputError(BaccaratError):
    """A file or folder that cannot be written."""


class InputError(BaccaratError):
    """A file that cannot be read, or is too large to read."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_DESCRIPTOR = re.compile(r"/dev/(?:(?P<std>stdout|stderr)|fd/(?P<fd>\d+))|/proc/(?P<pid>self|\d+)/fd/(?P<pfd>\d+)")


def descriptor(path: str | Path) -> int | None:
    """The open descriptor of this process that ``path`` names (``/dev/stdout``: 1,
    ``/dev/stderr``: 2, ``/dev/fd/N``, ``/proc/self/fd/N``, also through symlinks to
    those names), or None for any other path.

    >>> descriptor("/dev/stdout"), descriptor("/proc/self/fd/7"), descriptor("out.csv")
    (1, 7, None)
    """
    name = os.path.abspath(str(path))
    for _ in range(40):
        m = _DESCRIPTOR.fullmatch(name)
        if m:
            if m["std"]:
                return 1 if m["std"] == "stdout" else 2
            if m["fd"]:
                return int(m["fd"])
            if m["pid"] in ("self", str(os.getpid())):
                return int(m["pfd"])
            return None
        if not os.path.islink(name):
            return None
        try:
            name = os.path.normpath(os.path.join(os.path.dirname(name), os.readlink(name)))
        except OSError:
            return None
    return None


def _check_descriptor(fd: int, name: str) -> None:
    try:
        st = os.fstat(fd)
    except OSError:
        raise OutputError(f"cannot write {name!r}: descriptor {fd} is not open") from None
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(f"cannot write {name!r}: it is a directory")


def _target(path: str | Path) -> Path:
    """The file a write to ``path`` lands in (symlinks followed)."""
    if str(path).strip() == "":
        raise OutputError("an empty output path")
    if str(path).endswith(("/", os.sep)):
        raise OutputError(f"cannot write {str(path)!r}: it names a folder (give a file name)")
    path = Path(path)
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def check_output(path: str | Path) -> None:
    """Raise :class:`OutputError` now if ``path`` cannot be written later.

    Run before long work, so a bad path is found before the work, not after.
    """
    if str(path) == "-":
        return
    fd = descriptor(path)
    if fd is not None:
        _check_descriptor(fd, str(path))
        return
    target = _target(path)
    name = str(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        parent = target.parent if str(target.parent) else Path(".")
        if not parent.is_dir():
            raise OutputError(f"cannot write {name!r}: folder {str(parent)!r} does not exist") from None
        if not os.access(parent, os.W_OK | os.X_OK):
            raise OutputError(f"cannot write {name!r}: folder {str(parent)!r} is not writable") from None
        return
    except OSError as e:
        raise OutputError(f"cannot write {name!r}: {e.strerror or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(f"cannot write {name!r}: it is a directory")
    if not os.access(target, os.W_OK):
        raise OutputError(f"cannot write {name!r}: permission denied")
    if stat.S_ISREG(st.st_mode) and st.st_nlink == 1 and not os.access(target.parent, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {name!r}: its folder is not writable")


def check_not_input(output: str | Path | None, *inputs: str | Path | None) -> None:
    """Refuse an output that is one of the command's inputs (writing it would replace what
    is being read): the same file by any name, links followed."""
    if output is None or str(output) == "-":
        return
    out = _target(output)
    for path in inputs:
        if path is None or str(path) == "-":
            continue
        try:
            same = os.path.samefile(out, path)
        except OSError:
            same = os.path.realpath(out) == os.path.realpath(path)
        if same:
            raise OutputError(
                f"cannot write {str(output)!r}: it is an input of this command ({str(path)!r}), "
                "which writing would replace"
            )


def _remove_stale(target: Path) -> None:
    """Remove temporary files of ``target`` left by runs that were killed."""
    for entry, tag in _killed_runs(target):
        if tag:
            continue
        try:
            os.unlink(entry.path)
        except OSError:
            pass


def _killed_runs(target: Path, tags: tuple[str, ...] = ()):
    """The entries beside ``target`` named ``.NAME.PID[TAG].baccarat.tmp`` of processes
    that no longer run, each with its tag (one of ``tags``, or ``""``)."""
    directory = target.parent if str(target.parent) else Path(".")
    prefix = f".{target.name}."
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(_TMP_SUFFIX)):
            continue
        pid = name[len(prefix) : -len(_TMP_SUFFIX)]
        tag = next((t for t in tags if pid.endswith(t)), "")
        pid = pid[: -len(tag)] if tag else pid
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        yield entry, tag


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _fdopen(fd: int, binary: bool):
    return os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="")


@contextmanager
def atomic_open(path: str | Path, binary: bool = False):
    """A file object to write ``path`` with (see the module for what happens)."""
    fd = 1 if str(path) == "-" else descriptor(path)
    if fd in (1, 2):
        if str(path) != "-":
            _check_descriptor(fd, str(path))
        stream = sys.stdout if fd == 1 else sys.stderr
        stream = stream.buffer if binary else stream
        yield stream
        stream.flush()
        return
    if fd is not None:
        _check_descriptor(fd, str(path))
        try:
            f = _fdopen(os.dup(fd), binary)
        except OSError as e:
            raise OutputError(f"cannot write {str(path)!r}: {e.strerror or e}") from None
        try:
            with f:
                yield f
        except OSError as e:
            raise OutputError(f"cannot write {str(path)!r}: {e.strerror or e}") from None
        return
    check_output(path)
    target = _target(path)
    name = str(path)
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise OutputError(f"cannot write {name!r}: {e.strerror or e}") from None
    if st is not None and (not stat.S_ISREG(st.st_mode) or st.st_nlink > 1):
        # a device, FIFO or terminal, or a file with other hard links: write into it
        try:
            # (type: ignore: mypy picks no overload of open() for a mode and **kwargs)
            f = open(  # noqa: SIM115 (closed by `with f:` below: open's errors are told apart)
                target,
                "wb" if binary else "w",  # type: ignore[call-overload]
                **({} if binary else {"encoding": "utf-8", "newline": ""}),
            )
        except OSError as e:
            raise OutputError(f"cannot write {name!r}: {e.strerror or e}") from None
        try:
            with f:
                yield f
        except OSError as e:
            raise OutputError(f"cannot write {name!r}: {e.strerror or e}") from None
        return
    _remove_stale(target)
    tmp = target.with_name(f".{target.name}.{os.getpid()}{_TMP_SUFFIX}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_EXCL, 0o600)
    except FileExistsError:
        os.unlink(tmp)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_EXCL, 0o600)
    except OSError as e:
        raise OutputError(f"cannot write {name!r}: {e.strerror or e}") from None
    try:
        with _fdopen(fd, binary) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if st is not None:
            os.chmod(tmp, stat.S_IMODE(st.st_mode))
            if os.geteuid() == 0 and (st.st_uid, st.st_gid) != (0, 0):
                os.chown(tmp, st.st_uid, st.st_gid)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        check_stop()  # a SIGTERM / Ctrl-C whose KeyboardInterrupt was swallowed: no commit
        os.replace(tmp, target)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise OutputError(f"cannot write {name!r}: {e.strerror or e}") from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write(path: str | Path, data: str | bytes) -> None:
    """Write text or bytes to ``path`` (see :func:`atomic_open`)."""
    with atomic_open(path, binary=isinstance(data, bytes)) as f:
        f.write(data)


def read_text(path: str | Path, what: str = "file", limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of ``path`` (``-``: standard input), refusing more than ``limit`` bytes."""
    name = str(path)
    try:
        if name == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except IsADirectoryError:
        raise InputError(f"cannot read {what} {name!r}: it is a directory") from None
    except OSError as e:
        raise InputError(f"cannot read {what} {name!r}: {e.strerror or e}") from None
    if len(data) > limit:
        raise InputError(f"{what} {name!r} is larger than {limit / 2**20:g} MiB, the most this command reads")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"{what} {name!r} is not UTF-8 text (byte {e.start + 1})") from None
    if "\x00" in text:
        raise InputError(f"{what} {name!r} is not text (it holds NUL bytes)")
    return text


def parse_toml(text: str, source: str, error: type[BaccaratError] = InputError) -> dict:
    """The TOML document ``text`` (named ``source`` in errors), or one line of ``error``: a
    syntax error, nesting deeper than the reader can follow, an integer of more digits than
    Python converts (4,300).

    >>> parse_toml("a = [[[1]]]", "t.toml")
    {'a': [[[1]]]}
    >>> parse_toml("a = " + "[" * 5000 + "]" * 5000, "t.toml")
    Traceback (most recent call last):
    ...
    analyzer.io.files.InputError: t.toml: nested more deeply than a TOML file here may be
    """
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise error(f"{source}: TOML syntax error: {e}") from None
    except RecursionError:
        raise error(f"{source}: nested more deeply than a TOML file here may be") from None
    except ValueError:  # tomllib's int() of a number beyond Python's digit limit
        raise error(f"{source}: a number of more than {sys.get_int_max_str_digits():,} digits") from None


def read_json(path: str | Path, limit: int = 2**20):
    """The JSON document in a small file of the tool's own, or ``None`` if it is not one."""
    try:
        return json.loads(read_text(path, "file", limit))
    except (BaccaratError, ValueError, RecursionError):
        return None


#: The file that marks a folder as written by this tool.
MANIFEST = ".baccarat-manifest.json"
_FILE_SUFFIXES = {".md", ".csv", ".json", ".jsonl", ".txt", ".png", ".html", ".xlsx", ".toml"}


def check_folder(path: str | Path, kind: str) -> Path:
    """Raise :class:`OutputError` now unless ``path`` may hold this tool's ``kind`` files:
    new (its parent a folder, or creatable), empty, or holding this tool's manifest for
    ``kind``.  Creates nothing; returns the folder's path."""
    name = str(path)
    if name.strip() == "":
        raise OutputError(f"an empty {kind} folder name")
    p = Path(path)
    if p.suffix.lower() in _FILE_SUFFIXES:
        raise OutputError(f"{name!r} looks like a file name; give a folder for the {kind}")
    if p.exists() and not p.is_dir():
        raise OutputError(f"cannot write the {kind} into {name!r}: it is not a folder")
    if p.is_dir():
        manifest = p / MANIFEST
        try:
            entries = os.listdir(p)
        except OSError as e:
            raise OutputError(f"cannot read folder {name!r}: {e.strerror or e}") from None
        if entries:
            if not manifest.is_file():
                raise OutputError(
                    f"folder {name!r} is not empty and was not written by baccarat {kind}; give a new or empty folder"
                )
            doc = read_json(manifest)
            if not isinstance(doc, dict) or doc.get("kind") != kind:
                raise OutputError(
                    f"folder {name!r} holds a baccarat manifest of another kind; "
                    f"give a new or empty folder for the {kind}"
                )
        if not os.access(p, os.W_OK | os.X_OK):
            raise OutputError(f"cannot write the {kind} into {name!r}: permission denied")
        return p
    parent = p.parent if str(p.parent) else Path(".")
    for up in (parent, *parent.parents):  # the first that exists must be a folder
        if up.exists():
            if not up.is_dir():
                raise OutputError(f"cannot create {name!r}: {str(up)!r} is not a folder")
            break
    return p


def prepare_folder(path: str | Path, kind: str) -> Path:
    """Make ``path`` ready to hold this tool's ``kind`` files, or refuse.

    The folder must be new, empty, or hold this tool's manifest for ``kind``
    (:func:`check_folder`).  Returns the folder; :func:`write_manifest` marks it
    once written.  (:func:`staged_folder` writes such a folder whole or not at all.)
    """
    p = check_folder(path, kind)
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot create folder {str(path)!r}: {e.strerror or e}") from None
    return p


_OLD = ".old"


def _stage_names(target: Path, pid: int) -> tuple[Path, Path]:
    """The staging folder of ``target`` for process ``pid``, and the name its previous
    content is renamed to while the new one takes its place."""
    return (
        target.with_name(f".{target.name}.{pid}{_TMP_SUFFIX}"),
        target.with_name(f".{target.name}.{pid}{_OLD}{_TMP_SUFFIX}"),
    )


def _remove_stale_folders(target: Path) -> None:
    """Remove the staging folders of ``target`` left by runs that were killed; a previous
    folder renamed aside by a run killed before it put the new one in place is put back."""
    import shutil

    for entry, tag in _killed_runs(target, (_OLD,)):
        old = tag == _OLD
        try:
            if not entry.is_dir(follow_symlinks=False):
                continue
            if old and not os.path.lexists(target):
                os.rename(entry.path, target)
            else:
                shutil.rmtree(entry.path)
        except OSError:
            pass


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def staged_folder(path: str | Path, kind: str):
    """Write a folder of this tool's ``kind`` files whole or not at all.

    Checks ``path`` (:func:`check_folder`), then yields a new staging folder beside
    it, ``.NAME.PID.baccarat.tmp``, to write into (its manifest last).  When the
    block ends, the staging folder takes the name ``path``: a previous folder there
    (empty, or this tool's) is renamed aside, the new one renamed in, the previous
    one removed.  If the block raises (an error, Ctrl-C, SIGTERM as
    ``KeyboardInterrupt``), the staging folder is removed and ``path`` is left as it
    was: absent, empty, or the previous complete folder.  A staging folder left by a
    killed run is removed by the next run.  ``path`` a symlink: its target is replaced.
    """
    import shutil

    p = check_folder(path, kind)
    name = str(path)
    target = Path(os.path.realpath(p)) if p.is_symlink() else Path(os.path.abspath(p))
    if target.is_dir():
        cwd = Path(os.path.realpath(os.getcwd()))
        real = Path(os.path.realpath(target))
        if real == cwd or real in cwd.parents:
            raise OutputError(
                f"cannot replace folder {name!r}: it holds the current folder (give --out a folder outside it)"
            )
        if os.path.ismount(target):
            raise OutputError(f"cannot replace folder {name!r}: it is a mount point (give a folder in it)")
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot create folder {str(parent)!r}: {e.strerror or e}") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(
            f"cannot write the {kind} into {name!r}: folder {str(parent)!r} is not writable "
            "(the new folder is written beside it, then renamed)"
        )
    _remove_stale_folders(target)
    stage, aside = _stage_names(target, os.getpid())
    for leftover in (stage, aside):  # this process's, of an earlier call
        if os.path.lexists(leftover):
            shutil.rmtree(leftover, ignore_errors=True)
    try:
        os.mkdir(stage, 0o777)
    except OSError as e:
        raise OutputError(f"cannot create folder {str(stage)!r}: {e.strerror or e}") from None
    moved = False
    try:
        yield stage
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode) if target.is_dir() else None
            if mode is not None:
                os.chmod(stage, mode)
            if target.is_dir():
                os.rename(target, aside)
                moved = True
            os.rename(stage, target)
            moved = False
        except OSError as e:
            raise OutputError(f"cannot put the {kind} in place as {name!r}: {e.strerror or e}") from None
    except BaseException:
        if moved and not os.path.lexists(target):
            try:
                os.rename(aside, target)  # the previous folder back under its name
            except OSError:
                pass
        shutil.rmtree(stage, ignore_errors=True)
        raise
    _sync_folder(parent)
    shutil.rmtree(aside, ignore_errors=True)


def write_manifest(folder: Path, kind: str, files: list[Path]) -> None:
    """Record that ``folder`` holds this tool's ``kind`` files (deterministic: no dates)."""
    rel = sorted({f.relative_to(folder).as_posix() for f in files})
    doc = {"written_by": "baccarat-analyzer", "kind": kind, "files": rel}
    atomic_write(folder / MANIFEST, json.dumps(doc, indent=1) + "\n")
