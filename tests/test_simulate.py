"""The reference simulator: real shoes, seeded, reproducible; its log and tallies agree."""

import io
import json
import time
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from analyzer import Shoe
from analyzer.simcheck.logs import CARD_POINT, read_hand_log
from analyzer.simcheck.tallies import read_tallies
from analyzer.core.rules import play_coup
from analyzer.simcheck.simulate import Faults, SimulationError, simulate, simulate_to_text
from analyzer.simcheck.verify import replay

EIGHT = Shoe.standard(8)


def test_same_seed_same_log_other_seed_other_log():
    a, ra = simulate_to_text(EIGHT, 3, 42, burn=True)
    b, rb = simulate_to_text(EIGHT, 3, 42, burn=True)
    c, _ = simulate_to_text(EIGHT, 3, 43, burn=True)
    assert a == b and ra == rb and a != c
    # writing the log does not change what is dealt
    assert simulate(EIGHT, 3, 42, burn=True) == ra


def test_log_follows_the_rules_and_matches_the_tallies():
    text, result = simulate_to_text(EIGHT, 12, 1, burn=True, bets=("player", "banker", "tie"))
    log = read_hand_log("sim.csv", text)
    rep = replay(log, EIGHT)
    assert rep.ok and log.coups == result.coups and log.shoes == result.shoes == 12
    assert Counter(rep.winner.tolist()) == {i: result.outcomes[o] for i, o in enumerate(("player", "banker", "tie"))}
    assert Counter(zip(rep.player_total.tolist(), rep.banker_total.tolist())) == \
        {k: v for k, v in result.totals.items() if v}
    assert Counter(rep.cards.tolist()) == {k: v for k, v in result.cards.items() if v}
    w = Counter(rep.winner.tolist())
    assert result.bets["banker"] == (result.coups, Fraction(19, 20) * w[1] - w[0])
    assert result.bets["player"] == (result.coups, Fraction(w[0] - w[1]))
    assert result.bets["tie"] == (result.coups, Fraction(8 * w[2] - w[0] - w[1]))
    # every coup is what rules.play_coup deals from the same cards
    for k in range(0, log.coups, 7):
        p, b = log.hand(k, "player"), log.hand(k, "banker")
        order = [p[0], b[0], p[1], b[1]] + p[2:] + b[2:]
        coup = play_coup([CARD_POINT[c] for c in order])
        assert coup.player == tuple(CARD_POINT[c] for c in p)
        assert coup.banker == tuple(CARD_POINT[c] for c in b)


def test_tallies_round_trip():
    result = simulate(EIGHT, 4, 9, bets=("player", "banker", "tie"))
    t = read_tallies("t.csv", result.tallies_csv())
    assert t.outcomes == result.outcomes and t.cards == result.cards
    assert t.totals == result.totals
    assert {k: (v.count, v.total_return) for k, v in t.bets.items()} == result.bets


def test_cut_card_and_burn():
    cut = 20
    text, _ = simulate_to_text(EIGHT, 30, 5, burn=True, cut_card=cut)
    log = read_hand_log("sim.csv", text)
    N = EIGHT.cards
    for s in range(log.shoes):
        ks = np.flatnonzero(log.shoe == s)
        seen = log.seen[ks[0]]
        assert len(seen) == 1 and all(k not in log.seen for k in ks[1:])
        burned = 1 + (CARD_POINT[seen[0]] or 10)
        used = [len(log.hand(k, "player")) + len(log.hand(k, "banker")) for k in ks]
        before_last = burned + sum(used[:-1])
        # the last coup starts with at least `cut` cards left, and the cut card comes out in it
        assert before_last <= N - cut < before_last + used[-1]


def test_one_coup_per_shoe_when_the_cut_card_is_the_shoe_size():
    text, r = simulate_to_text(Shoe.standard(1), 50, 3, cut_card=52)
    assert r.coups == 50 and r.shoes == 50


def test_rank_only_shoe_logs_ranks_only_and_custom_shoes_work():
    shoe = Shoe.parse("A=8,2=8,3=8,4=8,5=8,6=8,7=8,8=8,9=8,T=8,J=8,Q=8,K=8")
    text, r = simulate_to_text(shoe, 3, 2)
    log = read_hand_log("sim.csv", text)
    assert all(c % 5 == 4 for c in log.player[log.player >= 0].tolist())
    assert replay(log, shoe).ok


def test_json_lines_log_holds_the_same_coups():
    csv_text, _ = simulate_to_text(EIGHT, 2, 8, burn=True)
    buf = io.StringIO()
    simulate(EIGHT, 2, 8, burn=True, log=buf, log_format="jsonl")
    a, b = read_hand_log("a.csv", csv_text), read_hand_log("b.jsonl", buf.getvalue())
    for attr in ("player", "banker", "outcome", "shoe"):
        assert (getattr(a, attr) == getattr(b, attr)).all()
    assert a.seen == b.seen
    assert json.loads(buf.getvalue().splitlines()[0])["seen"]


def test_faults_parse_and_change_what_they_should():
    f = Faults.parse(["banker-cell=5:4", "commission=0.04", "extra-card=As", "biased-shuffle",
                      "with-replacement"])
    assert f == Faults((5, 4), True, True, Fraction(24, 25), "As")
    for bad in ("banker-cell=9:1", "banker-cell=x", "commission=2", "extra-card=Zz", "nonsense",
                "biased-shuffle=yes"):
        with pytest.raises(SimulationError):
            Faults.parse([bad])
    good = simulate(EIGHT, 5, 1)
    paid = simulate(EIGHT, 5, 1, faults=Faults(banker_pays=Fraction(24, 25)))
    assert paid.outcomes == good.outcomes
    assert paid.bets["banker"][1] - good.bets["banker"][1] == Fraction(1, 100) * good.outcomes["banker"]


@pytest.mark.parametrize("kw, message", [
    (dict(shoes=0), "number of shoes"),
    (dict(seed=-1), "seed must be"),
    (dict(cut_card=417), "deeper than the shoe"),
    (dict(cut_card=5), "--cut-card must be a whole number >= 6"),
])
def test_bad_simulate_arguments_raise_simulation_error(kw, message):
    args = dict(shoe=EIGHT, shoes=1, seed=1)
    args.update(kw)
    with pytest.raises(SimulationError, match=message):
        simulate(**args)


def test_simulate_writes_its_log_and_tallies_and_prints_tallies_without_them(tmp_path, cli):
    log, tallies = tmp_path / "h.csv", tmp_path / "t.csv"
    r = cli("simulate", "--decks", "6", "--shoes", "3", "--seed", "7", "--log", log,
            "--tallies", tallies, "--burn", "--cut-card", "30")
    assert r.code == 0
    out = r.out
    assert out.startswith("simulated ") and "6 decks (312 cards)" in out and "seed 7, cut card 30, burn" in out
    assert log.read_text().startswith("shoe,player,banker,outcome,seen\n")
    assert read_tallies(str(tallies), tallies.read_text()).coups == read_hand_log(str(log)).coups
    r = cli("simulate", "--shoes", "1", "--seed", "7", "--bets", "tie")
    assert r.code == 0
    out = r.out
    assert out.startswith("category,count,total_return\n") and "bet:tie," in out and "bet:banker" not in out
    assert not list(tmp_path.glob(".*tmp")), "no temporary files left behind"


@pytest.mark.parametrize("args, message", [
    (["--shoes", "0", "--seed", "1"], "--shoes must be at least 1"),
    (["--shoes", "2", "--seed", "x"], "--seed must be a whole number"),
    (["--shoes", "2"], "the following arguments are required: --seed"),
    (["--shoes", "2", "--seed", "1", "--cut-card", "500"], "deeper than the shoe"),
    (["--shoes", "2", "--seed", "1", "--fault", "oops"], "unknown --fault 'oops'"),
    (["--shoes", "2", "--seed", "1", "--log", "same.csv", "--tallies", "same.csv"], "name the same file"),
    (["--shoes", "2", "--seed", "1", "--bets", "nosuch"], "unknown bet 'nosuch'"),
    (["--shoes", "2", "--seed", "1", "--bets", "all"], "reads ranks or suits"),
])
def test_simulate_refuses_bad_input_in_one_line_writing_nothing(tmp_path, cli, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    captured = cli("simulate", *args)
    assert captured.code == 2
    assert captured.out == "" and message in captured.err and captured.err.count("\n") == 1
    assert not list(tmp_path.iterdir())


@pytest.mark.slow
def test_a_million_coups_in_under_30_seconds(tmp_path):
    t = time.perf_counter()
    result = simulate(EIGHT, 12_500, 1, log=open(tmp_path / "h.csv", "w"))
    elapsed = time.perf_counter() - t
    assert result.coups > 1_000_000 and elapsed < 30
