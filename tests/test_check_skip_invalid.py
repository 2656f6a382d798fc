"""``check --skip-invalid`` sets aside coups that break the drawing rules.

Their cards still leave the shoe: the coups after them are compared with what is left,
which is checked here against the same log with the set-aside coups' cards moved into
the ``seen`` column of the coup after them (cards that left the shoe without a coup).
"""

from __future__ import annotations

import json

import pytest

from analyzer import Shoe
from analyzer.simcheck.check import CheckError, check_log
from analyzer.simcheck.logs import read_hand_log
from analyzer.simcheck.order import card_order
from analyzer.simcheck.simulate import simulate_to_text
from analyzer.simcheck.verify import replay

EIGHT = Shoe.standard(8)
FLIP = {"player": "tie", "banker": "player", "tie": "banker"}


def _rows(text):
    lines = text.splitlines()
    return lines[0], [ln.split(",") for ln in lines[1:]]


def _bad_log(shoes=12, seed=31):
    """A correct simulated log with 3 reported outcomes changed and one Player's third card
    taken out (the Player then stood on 0-5): 4 coups that break the drawing rules, none the
    first or the last of its shoe.  Returns the text, the broken coups' indices and the text of
    the same log with each broken coup's cards moved into the ``seen`` column of the next coup."""
    text, _ = simulate_to_text(EIGHT, shoes, seed, burn=True)
    head, rows = _rows(text)
    inner = [k for k in range(1, len(rows) - 1) if rows[k - 1][0] == rows[k][0] == rows[k + 1][0]]
    flips = [inner[5], inner[len(inner) // 3], inner[2 * len(inner) // 3]]
    third = next(k for k in inner[len(inner) // 2:] if len(rows[k][1].split()) == 3 and k not in flips
                 and k + 1 not in flips and k - 1 not in flips)
    bad = [r[:] for r in rows]
    for k in flips:
        bad[k][3] = FLIP[bad[k][3]]
    bad[third][1] = " ".join(bad[third][1].split()[:2])
    broken = sorted(flips + [third])
    moved = [r[:] for r in bad]
    for k in broken:
        cards = " ".join(c for c in (moved[k][4], moved[k][1], moved[k][2]) if c)
        moved[k + 1][4] = " ".join(c for c in (moved[k + 1][4], cards) if c)
    gone = [r for k, r in enumerate(moved) if k not in broken]
    as_text = lambda rs: "\n".join([head] + [",".join(r) for r in rs]) + "\n"   # noqa: E731
    return as_text(bad), broken, as_text(gone)


@pytest.fixture(scope="module")
def logs():
    return _bad_log()


def test_without_skip_invalid_a_rule_breaking_log_is_refused(logs, tmp_path, cli):
    text, broken, _ = logs
    log = read_hand_log("bad.csv", text)
    rep = replay(log, EIGHT)
    assert sorted({v.row for v in rep.violations}) == [int(log.rows[k]) for k in broken]
    first = rep.violations[0]
    with pytest.raises(CheckError) as e:
        check_log(log, EIGHT)
    assert str(e.value) == (f"bad.csv: row {first.row}: {first.message} and {len(rep.violations) - 1} more; "
                            "the check needs a log that follows the drawing rules and the declared shoe "
                            "(run 'baccarat verify' to list every violation)")
    f = tmp_path / "bad.csv"
    f.write_text(text)
    r = cli("check", f, "--quiet")
    assert r.code == 2
    err = r.err
    assert f"row {first.row}: {first.message} and" in err and "--skip-invalid" not in err


def test_rule_breaking_coups_are_set_aside_their_cards_still_dealt(logs):
    text, broken, moved_text = logs
    bad = read_hand_log("bad.csv", text)
    moved = read_hand_log("moved.csv", moved_text)
    assert replay(moved, EIGHT).ok
    for reference in ("shoe-aware", "off-the-top"):
        r = check_log(bad, EIGHT, reference, order=False, skip_invalid=True)
        ref = check_log(moved, EIGHT, reference, order=False)
        assert r.coups == ref.coups == bad.coups - len(broken)
        assert r.cells == ref.cells                      # observed and exact expected counts, variances
        assert [(b.bet.id, b.observed, b.expected, b.variance) for b in r.bets] == \
               [(b.bet.id, b.observed, b.expected, b.variance) for b in ref.bets]
        assert [(t.name, t.statistic, t.p) for t in r.tests] == [(t.name, t.statistic, t.p) for t in ref.tests]
        assert r.set_aside == {"outcome": 3, "player": 1}
        note = next(n for n in r.notes if n.startswith("--skip-invalid:"))
        assert note.startswith("--skip-invalid: 4 coups breaking the drawing rules set aside (a reported "
                               "outcome the cards do not give: 3; the Player's third card against the "
                               "rules: 1); their cards still left the shoe")
    # the card order counts every dealt card, the set-aside coups' too
    r = check_log(bad, EIGHT, skip_invalid=True)
    oref, steps = card_order(bad, EIGHT)
    assert [s.observed for s in r.cells["order"]] == steps.tolist()
    assert [s.expected for s in r.cells["order"]] == oref.expected
    assert "and the card order counts them" in next(n for n in r.notes if n.startswith("--skip-invalid:"))


def test_skip_invalid_reports_the_coups_set_aside(logs, tmp_path, cli):
    text, broken, _ = logs
    f = tmp_path / "bad.csv"
    f.write_text(text)
    code, out, _ = cli("check", f, "--quiet", "--skip-invalid")
    assert code in (0, 1) and "Verdict: **" in out
    assert "- --skip-invalid: 4 coups breaking the drawing rules set aside (" in out
    assert f"hand log, {len(text.splitlines()) - 1 - 4:,} coups in 12 shoes, read completely" in out
    doc = json.loads(cli("check", f, "--quiet", "--skip-invalid", "--format", "json").out)
    assert doc["set_aside"] == {"coups": 4, "by_rule": {"outcome": 3, "player": 1}}
    assert doc["coups"] == len(text.splitlines()) - 1 - 4


def test_skip_invalid_still_refuses_a_log_that_contradicts_the_shoe(logs, tmp_path, cli):
    text, _, _ = logs
    log = read_hand_log("bad.csv", text)
    shoe = Shoe.standard(1)                   # an 8-deck log checked against one deck: overdealt cards
    first = next(v for v in replay(log, shoe).violations if v.rule == "overdealt")
    with pytest.raises(CheckError) as e:
        check_log(log, shoe, skip_invalid=True)
    msg = str(e.value)
    assert msg.startswith(f"bad.csv: row {first.row}: {first.message} and ")
    assert "--skip-invalid sets aside coups that break the drawing rules, but the check needs a log " \
           "that follows the declared shoe" in msg
    f = tmp_path / "bad.csv"
    f.write_text(text)
    r = cli("check", f, "--quiet", "--skip-invalid", "--decks", "1")
    assert r.code == 2 and "follows the declared shoe" in r.err


def test_every_coup_set_aside_is_an_error():
    text = "shoe,player,banker,outcome\n1,9 K,2 3,banker\n1,8 K,2 4,tie\n"
    with pytest.raises(CheckError, match="set aside every coup"):
        check_log(read_hand_log("h.csv", text), EIGHT, skip_invalid=True)


def test_readable_log_without_violations_is_unchanged_by_skip_invalid():
    text, _ = simulate_to_text(EIGHT, 3, 4)
    log = read_hand_log("h.csv", text)
    a, b = check_log(log, EIGHT), check_log(log, EIGHT, skip_invalid=True)
    assert a.cells == b.cells and a.notes == b.notes and not getattr(b, "set_aside", None)
