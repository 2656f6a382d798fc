"""``baccarat bankroll``: the exact programme against brute force, gambler's ruin, and bad input."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from analyzer import Shoe, analyze
from analyzer.reports.bankroll import bankroll_session, plan
from analyzer.reports.bankroll_systems import SYSTEMS, BankrollError

F = Fraction


def brute_force(events, bankroll, unit, coups, system, limit=None):
    """Every sequence of outcomes, played step by step with the rules written out again."""
    bankroll, unit = F(bankroll), F(unit)
    limit = None if limit is None else F(limit)
    ruin = double = played = F(0)
    final: dict[Fraction, Fraction] = {}
    for seq in itertools.product(events, repeat=coups):
        prob = F(1)
        for p, _ in seq:
            prob *= p
        b, doubled, ruined, n = bankroll, False, False, 0
        losses = wins = 0
        units = 1
        for p, pays in seq:
            stake = {"flat": unit, "martingale": unit * 2 ** losses, "paroli": unit * 2 ** wins,
                     "dalembert": unit * units}[system]
            if limit is not None:
                stake = min(stake, limit)
            if stake > b:
                ruined = True
                break
            n += 1
            b += stake * pays
            if b >= 2 * bankroll:
                doubled = True
            if pays < 0:
                if limit is None or unit * 2 ** losses < limit:
                    losses += 1
                if limit is None or unit * units < limit:
                    units += 1
                wins = 0
            elif pays > 0:
                losses = 0
                wins = (wins + 1) % 3
                units = max(1, units - 1)
        else:
            stake = {"flat": unit, "martingale": unit * 2 ** losses, "paroli": unit * 2 ** wins,
                     "dalembert": unit * units}[system]
            ruined = (stake if limit is None else min(stake, limit)) > b
        # A sequence cut short by ruin is counted once per continuation: weights add up.
        ruin += prob * ruined
        double += prob * doubled
        played += prob * n
        final[b] = final.get(b, F(0)) + prob
    return ruin, double, played, sorted(final.items())


def banker_events(decks=1):
    r = analyze(Shoe.standard(decks), ["banker"]).bet("banker")
    return [(e.probability, e.pays) for e in r.events]


TOY = [(F(2, 5), F(1)), (F(1, 10), F(0)), (F(1, 10), F(3, 2)), (F(2, 5), F(-1))]


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("bankroll,unit,limit,coups", [(3, 1, None, 5), (5, 1, 3, 5), (F(7, 2), 1, 2, 4)])
def test_against_brute_force(system, bankroll, unit, limit, coups):
    r = bankroll_session(TOY, bankroll, unit, coups, system, limit)
    ruin, double, played, final = brute_force(TOY, bankroll, unit, coups, system, limit)
    assert r.ruin_probability == ruin
    assert r.double_first_probability == double
    assert r.expected_coups == played
    assert r.distribution() == final
    assert sum(p for _, p in r.distribution()) == 1


@pytest.mark.parametrize("system", SYSTEMS)
def test_banker_against_brute_force(system):
    events = banker_events()
    r = bankroll_session(events, 4, 1, 4, system, 4)
    ruin, double, played, final = brute_force(events, 4, 1, 4, system, 4)
    assert (r.ruin_probability, r.double_first_probability, r.expected_coups) == (ruin, double, played)
    assert r.distribution() == final
    assert sum(p for _, p in final) == 1
    assert r.mean_final == sum(b * p for b, p in final)


def gamblers_ruin(p, q, start):
    """P(reach 2 start before 0 | start), one unit a coup, even money, no push."""
    r = q / p
    return (1 - r ** start) / (1 - r ** (2 * start))


@pytest.mark.parametrize("p,start,coups", [(F(9, 19), 5, 400), (F(1, 2) + F(1, 100), 4, 300)])
def test_gamblers_ruin_closed_form(p, start, coups):
    r = bankroll_session([(p, F(1)), (1 - p, F(-1))], start, 1, coups)
    closed = gamblers_ruin(p, 1 - p, start)
    # Within N coups the limit lies between what is decided and what is still open.
    assert r.double_first_probability <= closed <= r.double_first_probability + r.undecided_probability
    assert r.undecided_probability < F(1, 10 ** 6)
    ruin_first = 1 - r.double_first_probability - r.undecided_probability   # ruined before doubling
    assert 1 - closed - r.undecided_probability <= ruin_first <= 1 - closed
    assert ruin_first <= r.ruin_probability <= ruin_first + r.double_first_probability


def test_gamblers_ruin_of_the_player_bet_with_ties():
    player = analyze(Shoe.standard(8), ["player"]).bet("player")
    win, lose = (e.probability for e in player.events if e.pays != 0)
    r = bankroll_session(player, 3, 1, 250)
    closed = gamblers_ruin(win / (win + lose), lose / (win + lose), 3)
    assert r.double_first_probability <= closed <= r.double_first_probability + r.undecided_probability
    assert r.undecided_probability < F(1, 10 ** 6)
    assert sum(p for _, p in r.distribution()) == 1


def test_units_and_fractions_scale():
    a = bankroll_session(banker_events(), 10, 1, 12, "martingale", 8)
    b = bankroll_session(banker_events(), F(25), F(5, 2), 12, "martingale", 20)
    assert (a.ruin_probability, a.double_first_probability, a.expected_coups) == \
        (b.ruin_probability, b.double_first_probability, b.expected_coups)
    assert b.mean_final == a.mean_final * F(5, 2)
    assert [q for q, _ in b.final_quantiles] == [q for q, _ in a.final_quantiles]


def test_estimate_is_monotone_and_offers_the_bound():
    events = banker_events(8)
    p = plan(events, 100, 1, 100_000, "flat")
    assert 0 < p.fits < 100_000
    assert plan(events, 100, 1, p.fits, "flat").fits == p.fits
    with pytest.raises(BankrollError, match=f"at most {p.fits:,} coups"):
        bankroll_session(events, 100, 1, 100_000)


def test_bankroll_json_is_the_exact_session_of_the_library(cli, tmp_path):
    code, out, err = cli("bankroll", "--bet", "player", "--decks", "1", "--bankroll", "5", "--coups", "20",
                         "--system", "paroli", "--limit", "4", "--format", "json", "--quiet")
    assert code == 0, err
    d = json.loads(out)
    player = analyze(Shoe.standard(1), ["player"]).bet("player")
    r = bankroll_session(player, 5, 1, 20, "paroli", 4)
    assert d["ruin_probability"] == f"{r.ruin_probability.numerator}/{r.ruin_probability.denominator}"
    assert F(d["double_first_probability"]) == r.double_first_probability
    assert F(d["expected_coups"]) == r.expected_coups
    assert [F(q["bankroll"]) for q in d["final_quantiles"]] == [b for _, b in r.final_quantiles]
    assert any("off the top" in c for c in d["conventions"])
    code, out, err = cli("bankroll", "--coups", "10", "--format", "csv")
    assert code == 0 and out.startswith("metric,exact,float\nruin_probability,")
    code, out, err = cli("bankroll", "--coups", "10", "--system", "dalembert", "--limit", "5")
    assert code == 0 and "off the top" in out and "| 50%" in out


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_bankroll_chart_is_a_png(cli, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "b.png"
    code, out, err = cli("bankroll", "--coups", "30", "--system", "martingale", "--limit", "8",
                         "--chart", str(path), "-o", str(tmp_path / "b.md"))
    assert code == 0, err
    assert path.read_bytes().startswith(b"\x89PNG")
    first = path.read_bytes()
    cli("bankroll", "--coups", "30", "--system", "martingale", "--limit", "8", "--chart", str(path))
    assert path.read_bytes() == first


@pytest.mark.parametrize("args,message", [
    (["--bet", "nosuch"], "nosuch"),
    (["--bankroll", "0"], "--bankroll must be positive"),
    (["--bankroll", "-5"], "--bankroll must be a positive number"),
    (["--unit", "0"], "--unit must be positive"),
    (["--unit", "x"], "--unit must be a positive number"),
    (["--limit", "1/2"], "below the unit"),
    (["--bankroll", "1/2"], "does not cover one unit"),
    (["--system", "fibonacci"], "unknown system"),
    (["--coups", "0"], "--coups must be at least 1"),
    (["--coups", "100000"], "at most"),
    (["--system", "martingale", "--coups", "5000"], "(--coups"),
    (["--format", "xml"], "unknown --format"),
])
def test_bad_bankroll_input_is_one_line_and_exit_2(cli, args, message):
    code, out, err = cli("bankroll", "--quiet", *args)
    assert code == 2 and out == ""
    assert err.startswith("baccarat: error: ") and err.count("\n") == 1
    assert message in err


def test_exact_values_beyond_4300_digits_print_in_full(cli):
    # Exact values longer than Python's default 4,300-digit limit print in full in JSON and CSV.
    argv = ["bankroll", "--decks", "1", "--bet", "player", "--bankroll", "5", "--coups", "400", "--quiet"]
    code, out, err = cli(*argv, "--format", "json")
    assert code == 0, err
    d = json.loads(out)
    assert len(d["ruin_probability"]) > 4300
    player = analyze(Shoe.standard(1), ["player"]).bet("player")
    win, lose = (e.probability for e in player.events if e.pays != 0)
    closed = gamblers_ruin(win / (win + lose), lose / (win + lose), 5)
    assert F(d["double_first_probability"]) <= closed <= F(d["double_first_probability"]) + F(d["undecided_probability"])
    code, out, err = cli(*argv, "--format", "csv")
    assert code == 0 and len(out) > 4300 * 2
    code, out, err = cli(*argv)
    assert code == 0 and "digits: see --format json" in out


def test_bankroll_prices_a_bet_of_a_bets_file(cli, tmp_path):
    path = tmp_path / "even.toml"
    path.write_text('[[bet]]\nid = "even"\nname = "Player, ties lose"\n'
                    'events = [{ event = "player wins", when = "winner == player", pays = 1 }]\n')
    code, out, err = cli("bankroll", "--bets-file", str(path), "--bet", "even", "--decks", "1",
                         "--bankroll", "3", "--coups", "60", "--format", "json", "--quiet")
    assert code == 0, err
    d = json.loads(out)
    player = analyze(Shoe.standard(1), ["player"]).bet("player")
    win = next(e.probability for e in player.events if e.pays > 0)
    r = bankroll_session([(win, F(1)), (1 - win, F(-1))], 3, 1, 60)
    assert F(d["ruin_probability"]) == r.ruin_probability and d["bet"]["id"] == "even"


def test_expected_coups_when_ruin_cannot_happen():
    # A stake below the lowest bankroll reachable was a negative index into the programme's
    # array, so the live mass (and the expected coups) came out wrong: 16.02 of 50 coups here.
    player = analyze(Shoe.standard(8), ["player"]).bet("player")
    r = bankroll_session(player, 100, 1, 50)
    assert r.expected_coups == 50 and r.ruin_probability == 0
    assert bankroll_session(TOY, 40, 1, 6, "martingale", 4).expected_coups == 6
