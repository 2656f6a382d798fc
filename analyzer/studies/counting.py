"""Linear counts: the true count, and what a count captures of the exact EVs.

A count's tags ``t_r`` come from :meth:`analyzer.studies.params.StudyParams.create`
(the user's, or the effects of removal on the start shoe); the true count and
the "bet at trigger ``T``" rule are the conventions of :mod:`analyzer.studies`.
"""

from __future__ import annotations

from fractions import Fraction

from ..core.cards import RANKS
from .evs import ExactSums
from .params import CARDS_PER_DECK, StudyParams


def true_count(running: int, tag_total: int, cards: int, left: int) -> Fraction:
    """``52 (RC - m * seen) / left``: the running count per deck left, centred.

    ``m = tag_total / cards`` is the start shoe's average tag (0 for a balanced
    count, which makes this the usual ``RC / decks left``); centring makes an
    unbalanced count comparable: it is ``-52`` times the excess of the remaining
    cards' average tag over the start shoe's.

    >>> true_count(6, 0, 416, 104), true_count(10, 32, 416, 208)
    (Fraction(3, 1), Fraction(-3, 2))
    """
    return Fraction(CARDS_PER_DECK * (running * cards - tag_total * (cards - left)), left * cards)


def count_correlations(params: StudyParams, bets, tags) -> dict[str, dict]:
    """Effects of removal of the counted bets on the start shoe, and the tags' correlation."""
    if not tags:
        return {}
    from ..reports.eor import effects_of_removal

    eff = effects_of_removal(params.start_shoe(), [b for b in bets if b.id in tags]).bets
    out = {}
    for b, (t, _) in tags.items():
        e = eff[b]
        tag_map = dict(zip(RANKS, t))
        out[b] = {
            "vanishes": e.vanishes,
            "correlation": None if e.vanishes else e.correlation(tag_map),
            "effects": e.effects,
        }
    return out


def count_summary(a: dict, ex: ExactSums, tag_info, corr, shoes: int, perfect_win: Fraction) -> dict:
    """A counted bet's figures: its tags, their correlation, and the win at every trigger.

    ``a``: the bet's merged sums (:class:`~analyzer.studies.aggregate.Aggregate`),
    ``perfect_win``: perfect play's win a shoe, the yardstick of each trigger.
    """
    t, source = tag_info
    cells = a["count"]
    curve = []
    total_ev, n_bets, n_pos = Fraction(0), 0, 0
    for b in sorted(cells, reverse=True):  # cumulative from the top: bet when TC >= b
        cell = cells[b]
        total_ev += ex.value(cell["sum"])
        n_bets += cell["coups"]
        n_pos += cell["positive"]
        curve.append(
            {
                "trigger": b,
                "bets": n_bets,
                "bets_per_shoe": Fraction(n_bets, shoes),
                "positive_bets": n_pos,
                "avg_edge": total_ev / n_bets,
                "win_per_shoe": total_ev / shoes,
                "share_of_perfect_play": (total_ev / shoes) / perfect_win if perfect_win > 0 else None,
            }
        )
    curve.reverse()
    best = None
    for row in curve:
        if row["win_per_shoe"] > 0 and (best is None or row["win_per_shoe"] >= best["win_per_shoe"]):
            best = row  # ties go to the higher trigger (fewer bets)
    all_tags = all(x == 0 for x in t)
    return {
        "tags": dict(zip(RANKS, t)),
        "source": source,
        "correlation": None if corr is None else corr["correlation"],
        "effects_vanish": bool(corr and corr["vanishes"]) or all_tags,
        "best": best,
        "curve": curve,
    }
