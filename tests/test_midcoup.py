"""Mid-coup reports: insurance odds, known-card edges, Baccarat Gold."""

from __future__ import annotations


import pytest

from analyzer import Shoe
from analyzer.reports.midcoup import insurance_table, known_card_report

# Wizard of Odds, "Baccarat Insurance" (Asia Gaming and Marina Bay Sands pages, "Player Win after Four
# Cards", 8 decks): Player total, Banker total, P(Player win), P(Banker win), P(tie), six decimals.
WOO_AFTER_FOUR = [
    (0, 5, 0.319950, 0.638715, 0.041335), (1, 5, 0.283814, 0.674655, 0.041531),
    (2, 5, 0.248356, 0.650906, 0.100738), (3, 5, 0.271182, 0.628151, 0.100667),
    (4, 5, 0.294993, 0.604412, 0.100595), (0, 6, 0.248749, 0.721860, 0.029391),
    (1, 6, 0.200798, 0.710369, 0.088833), (2, 6, 0.212631, 0.698539, 0.088830),
    (3, 6, 0.224458, 0.687609, 0.087932), (4, 6, 0.236160, 0.675002, 0.088838),
    (5, 6, 0.248909, 0.662332, 0.088759), (0, 7, 0.154340, 0.769393, 0.076268),
    (1, 7, 0.153216, 0.769718, 0.077066), (2, 7, 0.153224, 0.769708, 0.077068),
    (3, 7, 0.154128, 0.768806, 0.077066), (4, 7, 0.153211, 0.769725, 0.077065),
    (5, 7, 0.154124, 0.768810, 0.077066),
]


def test_insurance_cells_against_wizard_of_odds():
    cells = {(c.player_total, c.banker_total): c for c in insurance_table(Shoe.standard(8))}
    assert len(cells) == 64 and all(c.player + c.banker + c.tie == 1 for c in cells.values())
    for p, b, pw, bw, t in WOO_AFTER_FOUR:
        c = cells[(p, b)]
        assert (round(float(c.player), 6), round(float(c.banker), 6), round(float(c.tie), 6)) == (pw, bw, t), (p, b)


def test_insurance_cells_weight_back_to_the_outcomes():
    """Weighted by their deals, the cells give the outcomes of the coups without a natural."""
    from analyzer import analyze
    from analyzer.reports.distributions import distributions
    shoe = Shoe.standard(1)
    cells = insurance_table(shoe)
    nat = distributions(shoe).conditionals["after_four"]
    natural_ways = [sum(ws[i] for (p, b), ws in nat.ways.items() if p >= 8 or b >= 8) for i in range(3)]
    a = analyze(shoe)
    for i, o in enumerate(("player", "banker", "tie")):
        assert sum(getattr(c, o) * c.ways for c in cells) + natural_ways[i] == a.ways(o)


def test_known_card_report_prices_the_groups_together():
    """The report solves every group in one solver per pinned value: the same figures as each
    group alone (Jacobson's for Player or Banker; tests/test_known.py pins the side bets')."""
    report = known_card_report(Shoe.standard(8))
    assert {p: round(float(e) * 100, 3) for p, e in report["Player or Banker"].items()} == {
        1: 6.765, 2: 6.406, 3: 6.765, 4: 6.406, 5: 8.973, 6: 9.098}
    assert [round(float(report["Dragon 7"][p]) * 100, 3) for p in range(1, 7)] == [
        1.136, 4.712, 1.136, 4.712, 5.530, 39.202]
    assert [round(float(report["Panda 8"][p]) * 100, 3) for p in range(1, 7)] == [
        0.473, 0.0, 0.473, 0.0, 43.659, 0.309]


@pytest.mark.slow  # 5 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_midcoup_gold_table_counts_the_wizard_of_odds_outcomes(cli):
    doc = cli.json("midcoup", "--table", "gold", "--format", "json")
    # Wizard of Odds, "Baccarat Gold", 8 decks, the Player drawing on 5 (as in tests/test_gold.py)
    assert doc["choices"]["draws on 5"]["outcomes"] == {
        "player": 2232878486302976, "banker": 2290212297375744, "tie": 475307491824640}
    assert doc["choices"]["best play"]["outcomes"] == doc["choices"]["draws on 5"]["outcomes"]


@pytest.mark.parametrize("argv", [["midcoup", "--table", "nope"], ["midcoup", "--table", "gold", "--format", "csv"],
                                  ["midcoup"]])
def test_bad_midcoup_input_is_one_line_and_exit_2(argv, cli):
    cli.error(*argv)
