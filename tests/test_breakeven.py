"""Break-even payouts and the symbolic EV (analyzer.bets.breakeven), against published counts."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy

from analyzer import BetError, Shoe, Solver, analyze, catalog
from analyzer.bets.breakeven import breakeven, ev_polynomial

# Published 8-deck counts (Wizard of Odds; tests/data/published_8deck.toml).
DEALS = 4_998_398_275_503_360
BANKER = 2_292_252_566_437_888
PLAYER = 2_230_518_282_592_256
TIE = 475_627_426_473_216
DRAGON7 = 112_633_011_329_024
EZ_BANKER_WIN = 2_179_619_555_108_864  # Banker wins other than with a three-card 7 (Wizard, by subtraction)
DB_PLAYER_WIN_BY_9 = 18_409_431_764_992
DB_PLAYER = {"natural win": (1, 812_685_054_124_032), "natural tie (push)": (0, 89_325_908_267_520),
             "win by 9": (30, 18_409_431_764_992), "win by 8": (10, 34_097_645_543_424),
             "win by 7": (6, 89_590_261_473_280), "win by 6": (4, 141_238_897_317_888),
             "win by 5": (2, 166_169_165_987_840), "win by 4": (1, 186_780_352_174_080)}


def R(p: int, q: int = 1) -> sympy.Rational:
    return sympy.Rational(p, q)


@pytest.fixture(scope="module")
def a8():
    return Solver(tuple(catalog().bets.values())).solve(Shoe.standard(8))


def test_published_counts_are_consistent():
    assert BANKER + PLAYER + TIE == DEALS == 416 * 415 * 414 * 413 * 412 * 411


def test_tie_breaks_even_between_9_and_10_to_1(a8):
    # EV(x) = x p_tie - (1 - p_tie) = 0  =>  x = (deals - tie) / tie
    b = breakeven(a8.bet("tie"), "tie")
    assert b.pays == R(4_522_770_849_030_144, 475_627_426_473_216) == R(DEALS - TIE, TIE)
    assert b.event == "tie" and b.bet == "tie" and b.current == 8
    assert sympy.expand(b.ev - (b.symbol * R(TIE, DEALS) - R(DEALS - TIE, DEALS))) == 0
    assert 9 < b.pays < 10  # neither 8:1 nor 9:1 is fair
    # the default event is the first paying one
    assert breakeven(a8.bet("tie")).pays == b.pays
    assert breakeven(a8.bet("tie_9to1")).pays == b.pays


def test_banker_breakeven_commission(a8):
    # A fair Banker bet pays x with x P(B) = P(P) (ties push).
    b = breakeven(a8.bet("banker"), "banker wins")
    assert b.pays == R(2_230_518_282_592_256, 2_292_252_566_437_888) == R(PLAYER, BANKER)
    assert b.commission == 1 - R(PLAYER, BANKER) == R(BANKER - PLAYER, BANKER)
    assert b.current == R(19, 20)
    assert f"{float(b.commission):.4%}" == "2.6932%"
    # the 4% table has the same break-even: only the Banker win is symbolic
    assert breakeven(a8.bet("banker_4pct"), "banker wins").pays == b.pays
    # leaving the push symbolic instead: EV = (19/20) B + x T - P = 0
    push = breakeven(a8.bet("banker"), "tie (push)")
    assert push.pays == (R(PLAYER) - R(19, 20) * BANKER) / TIE


def test_player_would_need_a_bonus_to_break_even(a8):
    b = breakeven(a8.bet("player"), "player wins")
    assert b.pays == R(BANKER, PLAYER)
    assert b.commission == 1 - R(BANKER, PLAYER) < 0  # the Player bet would need a bonus


def test_dragon7_breakeven_is_losses_over_wins(a8):
    b = breakeven(a8.bet("dragon7"))
    assert b.event == "banker wins with a three-card 7"
    assert b.pays == R(DEALS - DRAGON7, DRAGON7) == R(4_885_765_264_174_336, 112_633_011_329_024)
    assert 43 < b.pays < 44


def test_ez_banker_breakeven(a8):
    b = breakeven(a8.bet("ez_banker"), "banker wins")
    assert b.pays == R(PLAYER, EZ_BANKER_WIN)


def test_dragon_bonus_breakeven_on_win_by_9(a8):
    # EV(x) = (x w9 + sum of the other paying events - losses) / deals
    b = breakeven(a8.bet("dragon_bonus_player"), "win by 9")
    others = sum(p * w for e, (p, w) in DB_PLAYER.items() if e != "win by 9")
    losses = DEALS - sum(w for _, w in DB_PLAYER.values())
    assert b.pays == R(losses - others, DB_PLAYER_WIN_BY_9)
    assert b.current == 30 and b.pays > 30  # house edge positive at 30


def test_ev_polynomial_at_catalog_payouts_equals_engine_ev_for_every_bet(a8):
    for bet_id, r in a8.bets.items():
        expr, symbols = ev_polynomial(r)
        assert set(symbols.values()) == {e.event for e in r.events}, bet_id
        pays = {e.event: e.pays for e in r.events}
        value = expr.subs({s: R(pays[name].numerator, pays[name].denominator) for s, name in symbols.items()})
        assert value == R(r.ev.numerator, r.ev.denominator), bet_id
        # linear in every payout, coefficient = probability of the event
        for s, name in symbols.items():
            e = r.event(name)
            assert sympy.diff(expr, s) == R(e.ways, e.deals), (bet_id, name)


def test_ev_polynomial_matches_published_counts(a8):
    expr, symbols = ev_polynomial(a8.bet("banker"))
    by_name = {name: s for s, name in symbols.items()}
    ev = expr.subs({by_name["banker wins"]: R(19, 20), by_name["tie (push)"]: 0, by_name["loses"]: -1})
    assert ev == R(19 * BANKER - 20 * PLAYER, 20 * DEALS)
    expr, symbols = ev_polynomial(a8.bet("dragon7"))
    by_name = {name: s for s, name in symbols.items()}
    ev = expr.subs({by_name["banker wins with a three-card 7"]: 40, by_name["loses"]: -1})
    assert ev == R(40 * DRAGON7 - (DEALS - DRAGON7), DEALS)
    assert round(float(ev), 6) == -0.076113  # Wizard's printed return


def test_breakeven_ev_at_current_payout_is_the_ev(a8):
    for bet_id, r in a8.bets.items():
        b = breakeven(r)
        assert b.ev.subs(b.symbol, b.current) == R(r.ev.numerator, r.ev.denominator), bet_id
        if b.pays is not None:
            assert b.ev.subs(b.symbol, b.pays) == 0, bet_id


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_breakeven_root_is_the_one_sympy_solves(a8):
    # The break-even payout is read on integers (-rest / ways): sympy's solver finds the same root
    # of the same EV, for every event of every catalog bet.
    for bet_id, r in a8.bets.items():
        for e in r.events:
            b = breakeven(r, e.event)
            assert b.ev == sympy.expand(sum(R(x.pays.numerator, x.pays.denominator) * R(x.ways, r.deals)
                                            if x is not e else b.symbol * R(x.ways, r.deals) for x in r.events))
            roots = sympy.solve(sympy.Eq(b.ev, 0), b.symbol)
            assert b.pays == (roots[0] if roots else None), (bet_id, e.event)
            assert b.pays is None or isinstance(b.pays, sympy.Rational)


def test_breakeven_event_that_never_happens():
    # A shoe of zero-value cards always ties at 0: a tie on 9 never happens.
    shoe = Shoe.parse("K=10")
    r = analyze(shoe, ("egalite_9", "egalite_0")).bet("egalite_9")
    b = breakeven(r)
    assert b.pays is None and b.commission is None
    assert b.ev == -1
    # ... and a tie on 0 always does: any payout is favourable, break-even at 0
    assert breakeven(analyze(shoe, ("egalite_0",)).bet("egalite_0")).pays == 0


def test_unknown_event_name(a8):
    with pytest.raises(BetError) as e:
        breakeven(a8.bet("tie"), "ties")
    msg = str(e.value)
    assert "'tie'" in msg and "'ties'" in msg and "'loses'" in msg and "\n" not in msg


def test_breakeven_json_gives_the_exact_fair_pay(cli):
    code, out, err = cli("odds", "--breakeven", "tie", "--format", "json")
    assert code == 0 and err == ""
    be = json.loads(out)["breakeven"]
    assert be["bet"] == "tie" and be["event"] == "tie" and be["current"] == "8/1"
    assert Fraction(be["pays"]) == Fraction(DEALS - TIE, TIE)
    assert be["pays_float"] == pytest.approx(9.509062340173596)
    x = sympy.Symbol(be["symbol"])
    assert sympy.simplify(sympy.sympify(be["ev"]) - (x * R(TIE, DEALS) - R(DEALS - TIE, DEALS))) == 0


def test_cli_breakeven_banker_commission_and_other_formats(cli):
    code, out, err = cli("odds", "--breakeven", "banker:banker wins", "--format", "json")
    assert code == 0, err
    be = json.loads(out)["breakeven"]
    assert Fraction(be["commission"]) == Fraction(BANKER - PLAYER, BANKER)
    code, out, _ = cli("odds", "--breakeven", "banker", "--format", "md")
    assert code == 0 and "Break-even" in out and "2.693171%" in out
    code, out, _ = cli("odds", "--breakeven", "dragon7", "--format", "csv")
    assert code == 0
    row = [line for line in out.splitlines() if line.startswith("dragon7,breakeven_pays")]
    assert len(row) == 1
    assert Fraction(row[0].split(",")[6]) == Fraction(DEALS - DRAGON7, DRAGON7)


@pytest.mark.parametrize("spec, pattern", [
    ("tie:ties", r"bet 'tie' has no event 'ties' \(events: 'tie', 'loses'\)"),
    ("nosuchbet", r"unknown bet 'nosuchbet' \(known: player, banker"),
])
def test_a_bad_breakeven_is_one_line_and_exit_2(cli, spec, pattern):
    import re
    code, out, err = cli("odds", "--breakeven", spec, "--format", "json")
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("baccarat: error: ")
    assert re.search(pattern, lines[0])
