"""Shoe procedures: --burn standard|N|none, --cut-card, --after-cut 0|1
for `baccarat simulate` and `baccarat study`, counted exactly on fixed seeds and small shoes."""

import json

import numpy as np
import pytest

from analyzer import Shoe
from analyzer.core.procedure import Procedure, ProcedureError, parse_burn
from analyzer.simcheck.logs import CARD_POINT, card_text, encode_card, read_hand_log
from analyzer.simcheck.simulate import Faults, SimulationError, _base_cards, simulate, simulate_to_text
from analyzer.simcheck.verify import replay
from analyzer.studies import StudyError, StudyParams, deal_shoe, run_study, trace_shoe
from analyzer.studies.format import study_csv, study_dict, study_markdown

ONE = Shoe.standard(1)
EIGHT = Shoe.standard(8)


def _shoes(shoe, shoes, seed):
    """The simulator's shuffles, redone here: each shoe's card names in dealing order."""
    rng = np.random.Generator(np.random.PCG64(seed))
    base = _base_cards(shoe, Faults())
    return [[card_text(c) for c in rng.permutation(base).tolist()] for _ in range(shoes)]


def _coups_by_shoe(text):
    """Each shoe's coups as lists of card names in dealing order (P B P B, then third cards),
    and the seen cards."""
    out, seen = {}, {}
    for line in text.splitlines()[1:]:
        f = line.split(",")
        p, b = f[1].split(), f[2].split()
        cards = [p[0], b[0], p[1], b[1]] + p[2:] + b[2:]
        out.setdefault(f[0], []).append(cards)
        if len(f) > 4 and f[4]:
            seen.setdefault(f[0], []).extend(f[4].split())
    return out, seen


@pytest.mark.parametrize("burn", ["none", "standard", "3", "17"])
def test_burned_and_seen_cards_are_counted_exactly(burn):
    shoes, seed, cut = 20, 5, 14
    text, result = simulate_to_text(ONE, shoes, seed, cut_card=cut, burn=burn)
    coups, seen = _coups_by_shoe(text)
    decks = _shoes(ONE, shoes, seed)
    assert len(coups) == shoes and sum(map(len, coups.values())) == result.coups
    for s, deck in enumerate(decks, 1):
        shown = 1 if burn == "standard" else 0
        burned = {"none": 0, "standard": CARD_POINT[encode_card(deck[0])] or 10}.get(burn, None)
        burned = int(burn) if burned is None else burned
        first = shown + burned
        dealt = [c for coup in coups[str(s)] for c in coup]
        assert dealt == deck[first:first + len(dealt)]          # the cards after the burn, in order
        assert seen.get(str(s), []) == deck[:shown]               # the seen column: the turned card only
        # the cut card: the last coup started with at least cut cards left, then fewer were left
        starts = np.cumsum([first] + [len(c) for c in coups[str(s)]])
        assert 52 - starts[-2] >= cut > 52 - starts[-1]
    assert replay(read_hand_log("p.csv", text), ONE).ok


def test_the_coup_after_the_cut_card_is_counted_exactly():
    shoes, seed, cut = 30, 2, 12
    a, ra = simulate_to_text(ONE, shoes, seed, cut_card=cut)
    b, rb = simulate_to_text(ONE, shoes, seed, cut_card=cut, after_cut=1)
    ca, _ = _coups_by_shoe(a)
    cb, _ = _coups_by_shoe(b)
    assert rb.coups == ra.coups + shoes                      # exactly one more coup a shoe
    decks = _shoes(ONE, shoes, seed)
    for s in ca:
        assert cb[s][:-1] == ca[s]
        used = sum(map(len, ca[s]))
        assert 52 - used < cut                                # the cut card had come out
        assert cb[s][-1] == decks[int(s) - 1][used:used + len(cb[s][-1])]
    assert replay(read_hand_log("b.csv", b), ONE).ok
    # one coup per shoe, and one more after it: cut card at the shoe's end needs 12 cards behind it
    one, r1 = simulate_to_text(Shoe.standard(1), 4, 1, cut_card=52, after_cut=1)
    assert r1.coups == 8 and all(len(v) == 2 for v in _coups_by_shoe(one)[0].values())


def test_a_small_shoe_counts_the_cut_card_by_hand():
    # 20 cards of one point value each: every coup is the same, and the counts are by hand
    shoe = Shoe([0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 0, 0, 0])   # twenty tens: 0 + 0, both draw -> 6 cards a coup
    for cut, after, burn, coups in ((6, 0, "none", 3), (8, 0, "none", 3), (9, 0, "none", 2),
                                    (12, 1, "none", 2 + 1), (6, 0, "2", 3), (6, 0, "3", 2),
                                    (12, 1, "2", 3), (6, 0, "standard", 1), (9, 0, "standard", 1),
                                    (10, 0, "standard", 2)):
        r = simulate(shoe, 1, 0, cut_card=cut, burn=burn, after_cut=after)
        assert r.coups == coups, (cut, after, burn)
        assert r.cards == {4: 0, 5: 0, 6: coups}
    # standard: the first card is shown and a ten burns ten (19 - 10 = 9 cards are left, at least
    # the cut card's 6 or 9: one coup); when that reaches the cut card (9 < 10, 9 < 12), none is burnt
    text, r = simulate_to_text(shoe, 1, 0, cut_card=12, burn="standard")
    assert r.coups == 2 and text.splitlines()[1].endswith(",T")


@pytest.mark.parametrize("kw, message", [
    (dict(burn="39"), "--burn 39 is beyond the shoe: 52 cards with 14 behind the cut card leave at most 38"),
    (dict(burn="sometimes"), "unknown --burn 'sometimes'"),
    (dict(cut_card=53), "--cut-card 53 is deeper than the shoe (52 cards)"),
    (dict(cut_card=5), "--cut-card must be a whole number >= 6"),
    (dict(after_cut=2), "--after-cut must be 0 or 1, got 2"),
    (dict(cut_card=11, after_cut=1), "--after-cut 1 needs --cut-card at least 12"),
])
def test_procedures_beyond_the_shoe_are_refused(kw, message):
    with pytest.raises(SimulationError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        simulate(ONE, 1, 0, **kw)
    with pytest.raises(ProcedureError):
        Procedure.create(52, kw.get("burn", "none"), kw.get("cut_card", 14), kw.get("after_cut", 0))


@pytest.mark.parametrize("words, message", [
    (["--burn", "39"], "is beyond the shoe"),
    (["--cut-card", "60"], "deeper than the shoe"),
    (["--after-cut", "2"], "--after-cut must be 0 or 1"),
    (["--after-cut", "x"], "--after-cut"),
    (["--burn", "-1"], "burn '-1'"),
])
@pytest.mark.parametrize("command", ["simulate", "study"])
def test_bad_procedures_exit_2_with_one_line(command, words, message, cli):
    extra = ["--seed", "1"] if command == "simulate" else ["--no-state", "-q"]
    assert message in cli.error(command, "--decks", "1", "--shoes", "2", *extra, *words)


def test_simulate_summary_names_the_procedure(tmp_path, cli):
    log = tmp_path / "h.csv"
    for words, says in (([], "(seed 1, cut card 14); log"), (["--burn"], "(seed 1, cut card 14, burn); log"),
                        (["--burn", "standard"], "(seed 1, cut card 14, burn); log"),
                        (["--burn", "4", "--after-cut", "1"],
                         "(seed 1, cut card 14, burn 4 face down, 1 coup after the cut card); log")):
        r = cli("simulate", "--decks", "1", "--shoes", "3", "--seed", "1", "--log", log, "-q", *words)
        assert r.code == 0 and says in r.out
        header = log.read_text().splitlines()[0]
        assert header == "shoe,player,banker,outcome" + (",seen" if words[:1] == ["--burn"] and
                                                        words[1:2] in ([], ["standard"]) else "")
    # plain --burn is the standard burn: the same log as --burn standard
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    cli("simulate", "--decks", "1", "--shoes", "3", "--seed", "1", "--log", a, "--burn", "-q")
    cli("simulate", "--decks", "1", "--shoes", "3", "--seed", "1", "--log", b, "--burn", "standard", "-q")
    assert a.read_text() == b.read_text() == simulate_to_text(ONE, 3, 1, burn=True)[0]


def test_parse_burn_reads_every_form_and_refuses_bad_ones():
    assert [parse_burn(x) for x in ("none", "standard", "0", "7", True, False, 3)] == \
        ["none", "standard", "none", "7", "standard", "none", "3"]
    for bad in ("-1", "1.5", "", "x"):
        with pytest.raises(ProcedureError):
            parse_burn(bad)


# ------------------------------------------------------------------------------ studies
BASE = dict(shoe=EIGHT, shoes=10, seed=5, cut_card=14, bet_ids=("banker", "dragon7"))


def test_study_keys_of_the_default_procedure_are_fixed():
    # keys of the code before shoe procedures (commit 99b5971)
    assert StudyParams.create(**BASE).key() == "5c8e8950051060ff"
    assert StudyParams.create(**{**BASE, "burn": "standard"}).key() == "7abaf92d58b2dfd2"
    assert StudyParams.create(**{**BASE, "cut_card": 16, "bet_ids": ("dragon7", "tie")}).key() == "5a79c59123d0128e"
    assert StudyParams.create(**{**BASE, "burn": "0", "after_cut": 0}).key() == "5c8e8950051060ff"
    keys = {StudyParams.create(**{**BASE, **kw}).key()
            for kw in (dict(), dict(burn="standard"), dict(burn="5"), dict(burn="6"), dict(after_cut=1),
                       dict(burn="5", after_cut=1))}
    assert len(keys) == 6


def test_a_study_with_a_non_default_procedure():
    p = StudyParams.create(Shoe.standard(1), shoes=4, seed=7, cut_card=14, bet_ids=("banker", "tie"),
                           burn="5", after_cut=1)
    plain = StudyParams.create(Shoe.standard(1), shoes=4, seed=7, cut_card=14, bet_ids=("banker", "tie"))
    for i in range(4):
        d, d0 = deal_shoe(p, i), deal_shoe(plain, i)
        assert d.starts[0] == 5 and d.burnt == 5 and d.burn_from == 0
        assert 52 - d.starts[-2] >= 14 > 52 - d.starts[-1]      # one coup after the cut card came out
        coups = trace_shoe(p, i)
        assert coups[0].cards_dealt == 5 and coups[0].cards_left == 52   # burnt face down: unseen
        # every later coup sees the cards dealt since the first coup, not the burnt ones
        for c, start in zip(coups, d.starts):
            assert c.cards_left == 52 - (start - 5)
        assert list(np.asarray(d.ranks)) == list(np.asarray(d0.ranks))     # same shuffle
    res = run_study(p)
    assert res.coups == sum(len(deal_shoe(p, i).starts) for i in range(4))
    doc = study_dict(res)["study"]
    assert doc["burn"] == "5" and doc["after_cut"] == 1
    assert "cut card 14 cards from the end and 1 coup after it, burn: 5 cards face down;" in study_markdown(res)
    assert "study,,,,,after_cut,1,1" in study_csv(res) and "study,,,,,burn,,5" in study_csv(res)
    d0 = study_dict(run_study(plain))["study"]
    assert "after_cut" not in d0 and d0["burn"] == "none"
    assert "burn: none;" in study_markdown(run_study(plain))


def test_study_takes_the_procedure_and_names_it_in_its_json(cli):
    r = cli("study", "--decks", "1", "--shoes", "3", "--bets", "banker", "--no-state", "-q",
            "--burn", "2", "--after-cut", "1", "--format", "json")
    assert r.code == 0
    doc = json.loads(r.out)["study"]
    assert doc["burn"] == "2" and doc["after_cut"] == 1
    with pytest.raises(StudyError, match="after-cut 1 needs --cut-card at least 12"):
        StudyParams.create(Shoe.standard(1), shoes=1, seed=1, cut_card=10, bet_ids=("banker",), after_cut=1)
