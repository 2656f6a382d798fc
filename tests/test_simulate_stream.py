"""simulate streams: its memory does not grow with the shoes dealt and its tallies are exact
across the batches they are added in."""

import os
import subprocess
import sys
import time
from collections import Counter

import pytest

from analyzer import Shoe
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.simulate import simulate_to_text
from analyzer.simcheck.verify import replay

EIGHT = Shoe.standard(8)


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_tallies_of_a_run_longer_than_one_batch_match_its_log():
    # 3,500 shoes deal some 280,000 coups: more than one batch of coups added to the tallies
    text, result = simulate_to_text(EIGHT, 3_500, 5, bets=("player", "banker", "tie", "dragon7"))
    log = read_hand_log("sim.csv", text)
    rep = replay(log, EIGHT)
    assert rep.ok and log.coups == result.coups > 270_000 and log.shoes == result.shoes == 3_500
    assert Counter(rep.winner.tolist()) == {i: result.outcomes[o] for i, o in enumerate(("player", "banker", "tie"))}
    assert Counter(zip(rep.player_total.tolist(), rep.banker_total.tolist())) == \
        {k: v for k, v in result.totals.items() if v}
    assert Counter(rep.cards.tolist()) == {k: v for k, v in result.cards.items() if v}
    wins = Counter(rep.winner.tolist())
    # player: +1 a win, -1 a loss, 0 a tie; every bet is bet every coup
    assert result.bets["player"] == (result.coups, wins[0] - wins[1])
    assert result.bets["tie"] == (result.coups, 8 * wins[2] - wins[0] - wins[1])


def _peak_rss_kib(args, cwd):
    """The peak resident memory (KiB) of ``baccarat ARGS`` run in a fresh process."""
    p = subprocess.Popen([sys.executable, "-m", "analyzer", *args], cwd=cwd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode()
    p.stderr.close()
    assert p.returncode == 0, err
    return usage.ru_maxrss


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_memory_does_not_grow_with_the_shoes(tmp_path):
    # 24 times the shoes, about a million coups more: the peak grows by a few MB (the per-coup
    # lists it replaces grew it by some 50 MB here, about 1 GB at 200,000 shoes)
    small = _peak_rss_kib(["simulate", "--shoes", "500", "--seed", "1", "--tallies", "a.csv", "-q"], tmp_path)
    large = _peak_rss_kib(["simulate", "--shoes", "12000", "--seed", "1", "--log", "b.csv",
                           "--tallies", "b_t.csv", "-q"], tmp_path)
    assert large - small < 20 * 1024, (small, large)


@pytest.mark.slow
def test_memory_does_not_grow_with_the_shoes_long_run(tmp_path):
    small = _peak_rss_kib(["simulate", "--shoes", "1000", "--seed", "2", "-q"], tmp_path)
    large = _peak_rss_kib(["simulate", "--shoes", "200000", "--seed", "2", "-q"], tmp_path)
    assert large - small < 20 * 1024, (small, large)


def test_more_shoes_than_the_tallies_count_exactly_is_refused_before_work(tmp_path, cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    t = time.perf_counter()
    captured = cli("simulate", "--shoes", "999999999999999999", "--seed", "1", "--log", "h.csv")
    assert captured.code == 2
    assert time.perf_counter() - t < 10
    assert captured.out == "" and captured.err.count("\n") == 1
    assert "more coups than the tallies count exactly" in captured.err
    assert list(tmp_path.iterdir()) == []
