"""Outcome-only logs: P/B/T per coup (``shoe,outcome``) or one bead string per shoe (``shoe,results``).

Most simulators and published data sets (bead plates, road scoreboards) keep only
the winner of each coup.  :func:`outcome_log` turns the records of
:mod:`.shapes` into an :class:`OutcomeLog`; :mod:`.streaks` checks it.

>>> from analyzer.simcheck.shapes import read_log
>>> log = read_log("beads.csv", "shoe,results\\n1,BPPTB\\n2,pb\\n")
>>> log.shape, log.outcome.tolist(), log.shoe.tolist()
('read as bead strings, one row per shoe (CSV)', [1, 0, 0, 2, 1, 0, 1], [0, 0, 0, 0, 0, 1, 1])
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field

import numpy as np

from .logs import LogError

_BEAD = {"P": 0, "B": 1, "T": 2}
_WORD = {"player": 0, "banker": 1, "tie": 2}


@dataclass
class OutcomeLog:
    """Winners only: ``outcome`` 0 player, 1 banker, 2 tie; ``shoe`` the shoe index of each coup."""

    path: str
    shape: str
    rows: np.ndarray
    shoe: np.ndarray
    shoe_ids: list[str]
    outcome: np.ndarray
    skipped: dict[str, int] = field(default_factory=dict)
    reused: list[tuple[str, int]] = field(default_factory=list)

    @property
    def coups(self) -> int:
        return int(self.outcome.shape[0])

    @property
    def shoes(self) -> int:
        return len(self.shoe_ids)


def outcome_word(value, where: str):
    """``player|banker|tie``, ``P|B|T``, ``player win|banker win|tie`` (any case) -> canonical; None if empty."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise LogError(f"{where}: outcome {value!r} is not player, banker or tie")
    t = " ".join(value.lower().split())
    t = re.sub(r"\s+(wins?|won)$", "", t)
    if not t:
        return None
    word = {"p": "player", "b": "banker", "t": "tie", "player": "player", "banker": "banker", "tie": "tie"}.get(t)
    if word is None:
        raise LogError(
            f"{where}: outcome {value!r} is not player, banker or tie (P/B/T, 'player win', ... are read too)"
        )
    return word


def outcome_log(path: str, layout: str, what: str, records, skip) -> OutcomeLog:
    """From :mod:`.shapes` records (``layout`` ``"outcomes"`` or ``"beads"``)."""
    return next(outcome_chunks(path, layout, what, records, skip))


def outcome_chunks(
    path: str, layout: str, what: str, records, skip, chunk: int | None = None, meta: dict | None = None
):
    """:func:`outcome_log` as :class:`OutcomeLog` chunks of about ``chunk`` coups (``None``: one chunk
    of the whole log): shoe indices are the file's, ``shoe_ids`` the list of every id so far.  The
    errors of the whole log (no valid coup, a shoe id that comes back) are raised once the records
    are done, after the last chunk; ``meta`` then gets ``skipped``."""
    rows, shoe, out = array("q"), array("i"), array("b")
    ids: list[str] = []
    first: dict[str, int] = {}
    reused: tuple[str, int] | None = None
    last = None
    shape = (
        f"read as {'bead strings' if layout == 'beads' else 'outcomes only'}, "
        f"{'one row per shoe' if layout == 'beads' else '1 row per coup'} ({what})"
    )
    total = 0

    def flush() -> OutcomeLog:
        nonlocal rows, shoe, out
        log = OutcomeLog(
            path,
            shape,
            np.frombuffer(rows, dtype=np.int64).copy(),
            np.frombuffer(shoe, dtype=np.int32).copy(),
            ids,
            np.frombuffer(out, dtype=np.int8).copy(),
            dict(skip.reasons),
        )
        rows, shoe, out = array("q"), array("i"), array("b")
        return log

    for row, item in records:
        where = f"{path}: row {row}"
        try:
            sid = item.get("shoe")
            if isinstance(sid, bool) or not isinstance(sid, (str, int)) or not str(sid).strip():
                raise LogError(f"{where}: shoe id must be a non-empty text or whole number, got {sid!r}")
            sid = str(sid).strip()
            if layout == "beads":
                beads = item.get("results")
                if not isinstance(beads, str) or not beads.strip():
                    raise LogError(f"{where}: results must be a bead string such as BPPTB, got {beads!r}")
                text = "".join(beads.split()).replace(",", "").upper()
                bad = next((i for i, ch in enumerate(text) if ch not in _BEAD), None)
                if bad is not None:
                    raise LogError(f"{where}: bead string has {text[bad]!r} at position {bad + 1} (beads are P, B, T)")
                got = [_BEAD[ch] for ch in text]
            else:
                word = outcome_word(item.get("outcome"), where)
                if word is None:
                    raise LogError(f"{where}: empty outcome (an outcome-only log needs one per coup)")
                got = [_WORD[word]]
        except LogError as e:
            skip(e)
            continue
        if sid != last:
            if sid in first and reused is None:
                reused = (sid, first[sid])
            first.setdefault(sid, row)
            ids.append(sid)
            last = sid
        rows.extend([row] * len(got))
        shoe.extend([len(ids) - 1] * len(got))
        out.extend(got)
        total += len(got)
        if chunk is not None and len(out) >= chunk:
            yield flush()
    if meta is not None:
        meta["skipped"] = dict(skip.reasons)
    if not total:
        reasons = "; ".join(f"{n} {r}" for r, n in skip.reasons.most_common(3))
        raise LogError(f"{path}: no valid coups in the file" + (f" (skipped: {reasons})" if reasons else ""))
    if reused:
        sid, row = reused
        raise LogError(
            f"{path}: shoe id {sid!r} comes back after other shoes (first used at row {row}); "
            f"ids must change at each new shoe and not repeat"
        )
    if out or chunk is None:
        yield flush()


class OutcomeStream:
    """An outcome-only log read as it goes (:mod:`.stream`): :meth:`chunks` hands out
    :class:`OutcomeLog` chunks; ``shape`` is known from the start, ``coups``, ``shoes`` and
    ``skipped`` once :meth:`chunks` is exhausted.  :func:`~.streaks.check_outcomes` takes it
    as it takes an :class:`OutcomeLog`, with the same report."""

    def __init__(self, path: str, shape: str, chunks, meta: dict):
        self.path, self.shape = path, shape
        self._chunks, self.meta = chunks, meta
        self.coups = 0
        self.shoes = 0
        self.skipped: dict[str, int] = {}

    def chunks(self):
        for log in self._chunks:
            self.coups += log.coups
            self.shoes = log.shoes
            self.skipped = log.skipped
            yield log
        self.skipped = self.meta.get("skipped", self.skipped)
