"""A stop request that cannot be lost: SIGTERM / Ctrl-C remembered, not only raised.

The command line's signal handler raises :class:`KeyboardInterrupt` where the main
thread happens to be.  Some code swallows every exception, that one too: Cython's
memoryview support registers its types with ``collections.abc.Sequence`` inside a
bare ``try: ... except: pass`` when a compiled module is first imported (numpy 2
imports ``numpy.random`` lazily, on first use).  A signal handled there would be
forgotten and the run would finish, exit 0 and write its files.

So the handler also calls :func:`request_stop`; long loops and the commit of an
output file (:func:`analyzer.io.files.atomic_open`) call :func:`check_stop`, which
raises :class:`KeyboardInterrupt` again while a stop is pending.

>>> clear_stop(); stop_requested()
False
>>> request_stop()
>>> try:
...     check_stop()
... except KeyboardInterrupt:      # (doctest itself lets a KeyboardInterrupt through)
...     print("stopped")
stopped
>>> clear_stop(); check_stop()
"""

from __future__ import annotations

_requested = False


def request_stop() -> None:
    """Remember that the process was told to stop (called from a signal handler)."""
    global _requested  # noqa: PLW0603 (the one flag a signal handler sets; a process has one)
    _requested = True


def clear_stop() -> None:
    """Forget a stop request (a command starts, or has reported its interruption)."""
    global _requested  # noqa: PLW0603 (the one flag a signal handler sets; a process has one)
    _requested = False


def stop_requested() -> bool:
    return _requested


def check_stop() -> None:
    """Raise :class:`KeyboardInterrupt` if a stop was requested (and maybe swallowed)."""
    if _requested:
        raise KeyboardInterrupt


__all__ = ["request_stop", "clear_stop", "stop_requested", "check_stop"]
