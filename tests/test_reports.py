"""Distributions, effects of removal and the reports folder."""

from fractions import Fraction
from pathlib import Path

import pytest

from analyzer import Shoe, analyze, catalog
from analyzer.reports.distributions import WINNERS, distributions
from analyzer.reports.eor import effects_of_removal, removal
from analyzer.reports.writer import generate

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def dist8():
    return distributions(Shoe.standard(8))


# -- distributions ------------------------------------------------------------------

@pytest.mark.parametrize("shoe", [Shoe.standard(8), Shoe.standard(1), Shoe.parse("A=3,5=2,9=1,K=4"),
                                  Shoe.standard(6).remove("9 9 9 K 5")])
def test_every_distribution_sums_to_the_denominator(shoe):
    d = distributions(shoe)
    for t in d.tables.values():
        assert sum(t.ways.values()) == d.deals, t.name
        assert all(w >= 0 for w in t.ways.values())
    for c in d.conditionals.values():
        assert sum(sum(w) for w in c.ways.values()) == d.deals, c.name
        for key in c.ways:
            if c.total(key):
                assert sum(c.probability(key, o) for o in WINNERS) == 1


def test_cross_checks_with_the_main_bets(dist8):
    a = analyze(Shoe.standard(8))
    grid = dist8.tables["totals"].ways
    assert sum(w for (p, b), w in grid.items() if b > p) == a.ways("banker")
    assert sum(w for (p, b), w in grid.items() if p > b) == a.ways("player")
    assert sum(w for (p, b), w in grid.items() if p == b) == a.ways("tie")
    by_winner = dist8.tables["winner_by_total"].ways
    for o in WINNERS:
        assert sum(w for (win, _), w in by_winner.items() if win == o) == a.ways(o)
    assert sum(dist8.tables["cards"].ways.values()) == a.deals


# Wizard of Odds, "Exact Winning Side and Total in Baccarat"
# (wizardofodds.com/games/exact-winning-side-and-total-in-baccarat), 8 decks; totals 9..1 (0: ties only).
WINNING_SIDE_AND_TOTAL = {
    9: (613_074_020_540_416, 586_850_279_002_112, 55_146_054_060_032),
    8: (555_823_197_134_848, 529_914_458_673_152, 54_879_416_675_072),
    7: (408_043_979_470_848, 384_279_324_919_808, 101_717_538_899_968),
    6: (312_658_895_192_064, 269_232_304_455_680, 96_170_001_308_416),
    5: (122_838_277_197_824, 216_715_928_915_968, 39_684_046_743_808),
    4: (86_165_771_096_064, 163_359_790_133_248, 36_294_133_463_040),
    3: (62_946_423_310_336, 72_927_778_568_192, 22_250_510_129_408),
    2: (44_328_525_111_296, 44_681_581_871_104, 20_006_606_104_576),
    1: (24_639_193_538_560, 24_291_119_898_624, 20_499_217_668_352),
    0: (0, 0, 28_979_901_420_544),
}

# Wizard of Odds, "Side Total Side Bets in Baccarat"
# (wizardofodds.com/games/baccarat/side-bets/side-totals/), 8 decks: final Player total.
PLAYER_TOTALS = {9: 668_220_074_600_448, 8: 665_982_456_134_400, 7: 668_117_541_187_584,
                 6: 665_920_136_276_736, 5: 372_435_601_541_376, 4: 371_426_030_979_072,
                 3: 372_517_215_488_256, 2: 371_465_655_324_672, 1: 372_517_055_559_936,
                 0: 469_796_508_410_880}
# Same page, final Banker total (totals 9..3 retrieved).
BANKER_TOTALS = {9: 641_996_333_062_144, 8: 639_959_843_756_800, 7: 641_950_993_608_704,
                 6: 605_184_530_090_752, 5: 503_359_177_443_584, 4: 466_997_733_545_984,
                 3: 363_761_246_869_760}


def test_published_winning_side_by_total(dist8):
    ways = dist8.tables["winner_by_total"].ways
    for total, counts in WINNING_SIDE_AND_TOTAL.items():
        assert tuple(ways[(o, total)] for o in WINNERS) == counts, total


def test_published_final_totals(dist8):
    grid = dist8.tables["totals"].ways
    for t, w in PLAYER_TOTALS.items():
        assert sum(grid[(t, b)] for b in range(10)) == w
    for t, w in BANKER_TOTALS.items():
        assert sum(grid[(p, t)] for p in range(10)) == w
    # Totals by number of cards add up to the same margins.
    by_cards = dist8.tables["player_totals_by_cards"].ways
    for t, w in PLAYER_TOTALS.items():
        assert by_cards[(2, t)] + by_cards[(3, t)] == w


# Wizard of Odds, Baccarat appendix 3 (wizardofodds.com/games/baccarat/appendix/3/), 8 decks:
# probability of Player / Banker / Tie given the Player's two-card total (6 decimals as printed).
AFTER_PLAYER_TWO = {
    0: (0.278792, 0.654627, 0.066581), 1: (0.282833, 0.647252, 0.069915),
    2: (0.290303, 0.634207, 0.07549), 3: (0.303386, 0.615539, 0.081075),
    4: (0.322084, 0.579983, 0.097933), 5: (0.358488, 0.537849, 0.103663),
    6: (0.430362, 0.427801, 0.141838), 7: (0.572657, 0.285046, 0.142297),
    8: (0.810911, 0.094938, 0.094151), 9: (0.905475, 0.0, 0.094525),
}
# Same appendix, "Probabilities of Player Win after Three Cards": rows = Banker's first card 0-3,
# columns = Player two-card total 0-9.
PLAYER_WIN_AFTER_THREE = {
    0: (0.306893, 0.322192, 0.33142, 0.345345, 0.36393, 0.397013, 0.478841, 0.609314, 0.846542, 0.923724),
    1: (0.303056, 0.307637, 0.327876, 0.341492, 0.359810, 0.392935, 0.479214, 0.609687, 0.846552, 0.922813),
    2: (0.29888, 0.303544, 0.313111, 0.337875, 0.356007, 0.388382, 0.4794, 0.60969, 0.845637, 0.922813),
    3: (0.297826, 0.301239, 0.309319, 0.321807, 0.349428, 0.381111, 0.481816, 0.608594, 0.845637, 0.922813),
}


def test_published_conditional_tables(dist8):
    c = dist8.conditionals["after_player_two"]
    for t, probs in AFTER_PLAYER_TWO.items():
        got = tuple(round(float(c.probability((t,), o)), 6) for o in WINNERS)
        assert got == pytest.approx(probs, abs=1.5e-6), t
    c3 = dist8.conditionals["after_three"]
    for b, row in PLAYER_WIN_AFTER_THREE.items():
        got = tuple(round(float(c3.probability((t, b), "player")), 6) for t in range(10))
        assert got == pytest.approx(row, abs=1.5e-6), b


# Wizard of Odds, Baccarat appendix 5, "4-5-6" side bet: probability of 4, 5, 6 cards dealt.
CARDS_DEALT = {8: (0.378868, 0.303444, 0.317687), 6: (0.378925, 0.303540, 0.317535)}


@pytest.mark.parametrize("decks", [8, 6])
def test_published_cards_dealt(decks):
    d = distributions(Shoe.standard(decks))
    t = d.tables["cards"]
    got = tuple(round(float(t.probability((n,))), 6) for n in (4, 5, 6))
    assert got == CARDS_DEALT[decks]


def test_naturals_are_symmetric_and_consistent(dist8):
    nat = dist8.tables["naturals"].ways
    # The first four positions are exchangeable: Player and Banker naturals are alike.
    for a in ("none", "8", "9"):
        for b in ("none", "8", "9"):
            assert nat[(a, b)] == nat[(b, a)]
    cards4 = dist8.tables["cards"].ways[(4,)]
    # Four-card coups are the naturals plus the coups where both stand on 6-7.
    both_stand = sum(w for (p, b), w in distributions(Shoe.standard(8)).conditionals["after_four"].ways.items()
                     if p in (6, 7) and b in (6, 7) for w in [sum(w)])
    assert cards4 == dist8.deals - nat[("none", "none")] + both_stand


# -- effects of removal -------------------------------------------------------------

@pytest.fixture(scope="module")
def eor8():
    return effects_of_removal(Shoe.standard(8), list(catalog().bets))


def test_effect_equals_engine_difference(eor8):
    # Independently: analyze the smaller shoe (built with Shoe.remove by rank) and subtract.
    full = analyze(Shoe.standard(8), ("banker", "dragon7", "tie"))
    for rank in ("A", "4", "6", "8", "K"):
        smaller = analyze(Shoe.standard(8).remove(rank), ("banker", "dragon7", "tie"))
        for bet in ("banker", "dragon7", "tie"):
            assert eor8.bets[bet].effect(rank) == smaller.bet(bet).ev - full.bet(bet).ev


def test_single_card_effects_balance_exactly(eor8):
    # Removing a card at random does not change the EV: sum_r n_r * effect_r == 0 exactly.
    for b in eor8.bets.values():
        assert b.weighted_sum == 0, b.bet.id


def test_rank_symmetric_bets_say_so(eor8, cli):
    for bet in ("player_pair", "banker_pair", "either_pair", "perfect_pair", "perfect_pair_v2"):
        assert eor8.bets[bet].vanishes
    assert not eor8.bets["dragon7"].vanishes
    # Two cards of one rank do move a pair bet, the same for every rank: the shoe
    # gets more uneven, and P(pair) = sum n_r (n_r - 1) / (N (N - 1)) rises.
    two = effects_of_removal(Shoe.standard(8), ["player_pair"], cards=2).bets["player_pair"]
    expected = 12 * (Fraction(12 * 32 * 31 + 30 * 29, 414 * 413) - Fraction(13 * 32 * 31, 416 * 415))
    assert set(two.effects.values()) == {expected} and expected > 0
    out = cli.ok("eor", "--bets", "player_pair,dragon7")
    assert "exactly 0" in out and "no linear count" in out


def test_tags_follow_the_effects(eor8):
    d7 = eor8.bets["dragon7"]
    tags = d7.tags()
    # Jacobson's Dragon 7 count (888casino blog, "Card Counting the Dragon and Panda Side Bets"):
    # small cards 4-7 count against the bet, 8 and 9 for it; the ideal tags agree in sign.
    assert all(tags[r] < 0 for r in "4567") and tags["8"] > 0 and tags["9"] > 0
    assert d7.correlation(tags) > 0.98
    assert max(abs(t) for t in tags.values()) <= 9


def test_removal_keeps_suits_when_it_can():
    s = removal(Shoe.standard(8), "K", 5)
    assert s.suited and s.rank_counts["K"] == 27
    assert removal(Shoe.parse("A=3,K=9"), "K", 2).rank_counts["K"] == 7


# -- the reports folder -------------------------------------------------------------



@pytest.mark.skipif(not (REPO / "reports").is_dir(), reason="no committed reports folder")
def test_committed_reports_match_a_fresh_run(full_reports):
    """reports/ is what `baccarat report --out reports/` writes today: the same files, each
    byte for byte."""
    pytest.importorskip("matplotlib")
    out, written = full_reports
    fresh = {p.relative_to(out).as_posix() for p in written}
    committed = {p.relative_to(REPO / "reports").as_posix() for p in (REPO / "reports").rglob("*") if p.is_file()}
    assert fresh == committed, "files differ: run `baccarat report --out reports/`"
    stale = [name for name in sorted(fresh) if (out / name).read_bytes() != (REPO / "reports" / name).read_bytes()]
    assert not stale, f"reports/ is stale, run `baccarat report --out reports/`: {stale}"


def test_every_report_is_linked_from_the_index(full_reports):
    out, written = full_reports
    index = (out / "README.md").read_text()
    for p in written:
        if p.name not in ("README.md", ".baccarat-manifest.json") and p.suffix != ".png":
            assert f"({p.relative_to(out).as_posix()})" in index


def test_reports_without_matplotlib(tmp_path, monkeypatch, small_reports):
    monkeypatch.setenv("BACCARAT_NO_PLOTS", "1")
    written = generate(tmp_path, decks=(1, 8))
    assert not any(p.suffix == ".png" for p in written)
    assert "matplotlib is not installed" in (tmp_path / "eor_8_decks.md").read_text()
    assert "matplotlib is not installed" in (tmp_path / "README.md").read_text()
    # Every report is linked from the index.
    index = (tmp_path / "README.md").read_text()
    for p in written:
        if p.name not in ("README.md", ".baccarat-manifest.json"):
            assert f"({p.relative_to(tmp_path).as_posix()})" in index


def test_interrupted_report_leaves_no_partial_files(tmp_path, monkeypatch, small_reports):
    monkeypatch.setenv("BACCARAT_NO_PLOTS", "1")
    import analyzer.reports.writer as report

    def boom(shoe):
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "distributions", boom)
    with pytest.raises(KeyboardInterrupt):
        generate(tmp_path, decks=(8,))
    # the folder is written beside its name and renamed into place at the end: it stays as it was
    assert list(tmp_path.iterdir()) == []
    assert not list(tmp_path.parent.glob(f".{tmp_path.name}.*"))


@pytest.mark.parametrize("argv", [
    ["eor", "--cards", "0"], ["eor", "--bets", "nope"], ["decks", "--decks-list", "1,x"],
    ["decks", "--decks-list", "0"], ["distributions", "--decks", "0"], ["payouts", "--format", "json"],
])
def test_report_commands_reject_bad_input_with_one_line_and_exit_2(argv, cli):
    cli.error(*argv)


def test_report_commands_write_their_tables(cli):
    r = cli("decks", "--decks-list", "1,8", "--bets", "tie", "--format", "csv")
    assert r.code == 0 and r.out.splitlines()[0].startswith("bet,decks,deals")
    r = cli("distributions", "--decks", "2", "--format", "json")
    assert r.code == 0 and '"conditionals"' in r.out
    r = cli("payouts", "--bets", "tie")
    assert r.code == 0 and "Break-even payout for `tie`" in r.out


@pytest.mark.slow  # about 1 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_report_folder_must_be_new_empty_or_ours(tmp_path, monkeypatch, cli, small_reports):
    """--out . must not overwrite a README.md of the project; --out '' and --out x.md are refused."""
    monkeypatch.setenv("BACCARAT_NO_PLOTS", "1")
    project = tmp_path / "project"
    project.mkdir()
    (project / "README.md").write_text("mine")
    r = cli("report", "--out", project, "--decks-list", "8")
    assert r.code == 2 and "not empty" in r.err
    assert (project / "README.md").read_text() == "mine"
    runs = [cli("report", "--out", "", "--decks-list", "8"), cli("report", "--out", tmp_path / "x.md", "--decks-list", "8")]
    assert not (tmp_path / "x.md").exists()
    (tmp_path / "afile").write_text("x")
    runs += [cli("report", "--out", tmp_path / "afile", "--decks-list", "8"),
             cli("report", "--out", tmp_path / "afile" / "sub", "--decks-list", "8")]
    assert [r.code for r in runs] == [2] * 4
    err = "".join(r.err for r in runs)
    assert err.count("baccarat: error:") == 4 and "Traceback" not in err
    # a folder it wrote may be written again
    out = tmp_path / "reports"
    assert cli("report", "--out", out, "--decks-list", "8", "--quiet").code == 0
    (out / "odds_8_decks.md").write_text("stale")
    assert cli("report", "--out", out, "--decks-list", "8", "--quiet").code == 0
    assert (out / "odds_8_decks.md").read_text() != "stale"
