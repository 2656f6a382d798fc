"""The command line is parsed once (issue 25 item 6).

Every option whose text stands for a value is read by one converter while argparse reads the
command line, so the parsed arguments hold values, a bad value is one line (exit 2) before
any work, and the same option means the same everywhere.  The rules the commands applied
(the odds plan, the choice of a check's path by input kind, verify's refusals) live in the
layers that own them, so the Python API refuses what the command line refuses, in the same
words.
"""

from fractions import Fraction

import pytest

from analyzer.bets import catalog
from analyzer.cli import build_parser
from analyzer.cli.options import Given
from analyzer.core.errors import BaccaratError
from analyzer.core.known import Known, parse_known
from analyzer.core.rules import BUILTIN_RULES
from analyzer.core.shoe import Shoe
from analyzer.reports.odds_plan import OddsPlan
from analyzer.reports.overlay_games import GAMES
from analyzer.reports.peek import Reveal
from analyzer.simcheck import verify
from analyzer.simcheck.check import check_input, check_stream
from analyzer.simcheck.stream import open_log


def parse(*argv):
    return build_parser().parse_args([str(a) for a in argv])


def value(x):
    """What an option holds: a :class:`Given` keeps its text for Reproduce lines, its value beside it."""
    return x.value if isinstance(x, Given) else x


# -- parsed arguments hold values -------------------------------------------------------------

VALUES = [
    (["odds", "--bets", "banker, tie"], "bets", [("banker", "tie")]),
    (["odds", "--breakeven", "banker:banker_wins_6"], "breakeven", ("banker", "banker_wins_6")),
    (["odds", "--breakeven", "tie"], "breakeven", ("tie", None)),
    (["odds", "--rules", "gold"], "rules", BUILTIN_RULES["gold"]),
    (["odds", "--known", "1=9", "--known", "5=Kh"], "known", parse_known(["1=9", "5=Kh"])),
    (["peek", "--fee", "10%"], "fee", Fraction(1, 10)),
    (["peek"], "fee", Fraction(1, 5)),
    (["peek", "--bet", "Banker, player,banker"], "bet", ["banker", "player"]),
    (["peek"], "raises", (1, 2, 3)),
    (["peek", "--raises", "3,1"], "raises", (1, 3)),
    (["overlay", "--fee", "0.1"], "fee", Fraction(1, 10)),
    (["overlay", "--bet", "tie,player"], "bet", ["tie", "player"]),
    (["overlay", "--match", "player"], "match", ["player"]),
    (["overlay", "--game", "golden_wealth"], "game", GAMES["golden_wealth"]),
    (["overlay"], "game", GAMES["lightning"]),
    (["overlay", "--multipliers", "2=1/2,3=50%"], "multipliers", {Fraction(2): Fraction(1, 2), Fraction(3): Fraction(1, 2)}),
    (["overlay", "--lightning-cards", "3"], "lightning_cards", {3: Fraction(1)}),
    (["overlay", "--cap", "10"], "cap", Fraction(10)),
    (["bankroll", "--bet", " tie "], "bet", "tie"),
    (["bankroll", "--system", "paroli"], "system", "paroli"),
    (["bankroll", "--rules", "gold"], "rules", BUILTIN_RULES["gold"]),
    (["programs", "--bet", " player"], "bet", "player"),
    (["programs", "--budget", "5"], "budget", 5),
    (["design", "--bet", "tie ", "--edge", "5%"], "bet", "tie"),
    (["study", "--count", "dragon7, panda8,"], "count", ("dragon7", "panda8")),
    (["study", "--count", "none"], "count", ()),
    (["study", "--cluster", "local"], "cluster", "local"),
    (["study", "--bets", "dragon7"], "bets", [("dragon7",)]),
    (["check", "log.csv", "--cluster", "local"], "cluster", "local"),
    (["check", "log.csv", "--bets", "all"], "bets", [("all",)]),
    (["check", "log.csv", "--rules", "gold"], "rules", BUILTIN_RULES["gold"]),
    (["verify", "log.csv", "--rules", "gold"], "rules", BUILTIN_RULES["gold"]),
    (["simulate", "--shoes", "1", "--seed", "1", "--rules", "gold"], "rules", BUILTIN_RULES["gold"]),
    (["decks", "--decks-list", "8, 1,8"], "decks_list", (8, 1)),
    (["decks"], "decks_list", (1, 2, 4, 6, 8)),
    (["report", "--decks-list", "6,8"], "decks_list", (6, 8)),
    (["parsheet", "--decks", "6,8"], "decks", (6, 8)),
    (["parsheet", "--by-decks", "8, 1,8"], "by_decks", (8, 1)),
    (["midcoup", "--table", "gold"], "table", "gold"),
    (["parsheet", "--bets", "banker,tie"], "bets", [("banker", "tie")]),
]


@pytest.mark.parametrize("argv, dest, expected", VALUES, ids=[" ".join(a) + " " + d for a, d, _ in VALUES])
def test_parsed_arguments_hold_values(argv, dest, expected):
    got = getattr(parse(*argv), dest)
    if isinstance(got, list):
        got = [value(g) for g in got]
    assert value(got) == expected


def test_options_that_reproduce_lines_repeat_keep_their_text():
    args = parse("odds", "--bets", "banker, tie", "--rules", "gold")
    assert str(args.bets[0]) == "banker, tie" and str(args.rules) == "gold"
    assert str(parse("decks", "--decks-list", "8, 1").decks_list) == "8, 1"


def test_peek_reveal_is_a_reveal():
    assert isinstance(parse("peek", "--reveal", "P1,B1").reveal, Reveal)
    assert parse("peek").reveal is None


def test_known_cards_are_one_known():
    args = parse("odds", "--known", "5=Kh", "--known", "1=9")
    assert isinstance(args.known, Known) and args.known == parse_known({"1": "9", "5": "Kh"})
    assert parse("odds").known is None


# -- a bad value is one line, while the command line is read ---------------------------------

BAD = [
    (["peek", "--fee", "abc", "--reveal", "2"], "--fee must be a number such as 0.01, 1e-3 or 1%, got 'abc'"),
    (["peek", "--fee", "1", "--reveal", "2"], "--fee must be a fraction in [0, 1) such as 20%, got '1'"),
    (["peek", "--fee=-5%", "--reveal", "2"], "--fee must be a fraction in [0, 1) such as 20%, got '-5%'"),
    (["overlay", "--fee=-5%", "--multipliers", "2=1"], "--fee must be a fraction in [0, 1) such as 20%, got '-5%'"),
    (["peek", "--bet", "nope", "--reveal", "2"], "--bet: unknown bet 'nope' (choose from player, banker)"),
    (["peek", "--raises", "x", "--reveal", "2"], "--raises: 'x' is not a whole multiple of the stake such as 2"),
    (["peek", "--reveal", "P7"], "--reveal: 'P7' is not a position"),
    (["overlay", "--bet", "nope"], "--bet: unknown bet 'nope'"),
    (["overlay", "--game", "nope"], "--game: unknown game 'nope'"),
    (["study", "--cluster", "remote"],
     "--cluster must be 'local' (for a running cluster use --scheduler ADDRESS), got 'remote'"),
    (["check", "log.csv", "--cluster", "remote"], "--cluster must be 'local'"),
    (["bankroll", "--system", "nope"], "unknown system 'nope' (choose from flat, martingale, paroli, dalembert)"),
    (["decks", "--decks-list", "1,,8"], "--decks-list must be whole numbers >= 1 separated by commas, got '1,,8'"),
    (["report", "--decks-list", "1,,8"], "--decks-list must be whole numbers >= 1 separated by commas, got '1,,8'"),
    (["parsheet", "--by-decks", "1,,8"], "--by-decks must be whole numbers >= 1 separated by commas, got '1,,8'"),
    (["parsheet", "--decks", "6,,8"], "--decks must be whole numbers >= 1 separated by commas, got '6,,8'"),
    (["odds", "--known", "1=9", "--known", "1=K"], "--known position 1 is given twice (9 and K)"),
    (["odds", "--bets", "banker,,tie"], "--bets 'banker,,tie' has an empty item (two commas?)"),
    (["odds", "--bets", " "], "--bets is empty"),
    (["odds", "--rules", "nope"], "unknown rule set 'nope'"),
    (["midcoup", "--table", "nope"], "unknown --table 'nope' (choose from insurance, known-card-edges, gold)"),
]


@pytest.mark.parametrize("argv, message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_bad_value_is_one_line_exit_2(cli, argv, message):
    assert cli.error(*argv).startswith(message)
    with pytest.raises(BaccaratError) as e:  # refused by the parser, before the command runs
        parse(*argv)
    assert str(e.value).startswith(message)


def test_one_reader_of_deck_lists():
    assert parse("decks", "--decks-list", "8,1,8").decks_list.value == parse("parsheet", "--by-decks", "8,1,8").by_decks.value
    for bad in ("1,,8", "0", "8,x", ""):
        a = str(pytest.raises(BaccaratError, parse, "decks", "--decks-list", bad).value)
        b = str(pytest.raises(BaccaratError, parse, "parsheet", "--by-decks", bad).value)
        assert a.replace("--decks-list", "--by-decks") == b


# -- the Python API refuses what the command line refuses -------------------------------------

def api_error(fn, *args, **kw) -> str:
    with pytest.raises(BaccaratError) as e:
        fn(*args, **kw)
    return str(e.value)


def test_odds_plan_refuses_series_bets_with_known_cards(cli):
    message = cli.error("odds", "--bets", "banker_streak", "--known", "1=9")
    assert api_error(OddsPlan, (), series=[catalog().series["banker_streak"]], known=True) == message


def test_odds_plan_refuses_an_unknown_breakeven_event(cli):
    message = cli.error("odds", "--breakeven", "banker:nope")
    assert api_error(OddsPlan, catalog().select(["player", "banker", "tie"]), breakeven=("banker", "nope")) == message
    message = cli.error("odds", "--breakeven", "banker_streak")
    assert api_error(OddsPlan, (), breakeven=("banker_streak", None)) == message


def test_odds_plan_refuses_best_play_without_a_players_option(cli):
    message = cli.error("odds", "--player-option", "best")
    assert api_error(OddsPlan, catalog().select(["banker"]), best=True) == message


def test_odds_plan_batch_lines_equal_one_by_one():
    plan = OddsPlan(catalog().select(["banker", "tie"]), breakeven=("tie", None))
    items = [(Shoe.standard(1), None), (Shoe.standard(2), parse_known(["1=9"])), (Shoe.standard(1), None)]
    assert plan.lines(items) == [plan.line(shoe, known) for shoe, known in items]
    assert plan.lines([(Shoe.standard(1), None)] * 2) == [plan.line(Shoe.standard(1))] * 2


@pytest.fixture
def tallies(cli, tmp_path):
    path = tmp_path / "t.csv"
    cli("simulate", "--decks", "1", "--shoes", "2", "--seed", "1", "--tallies", path)
    return str(path)


@pytest.fixture
def outcomes(tmp_path):
    path = tmp_path / "o.csv"
    path.write_text("shoe,outcome\n1,P\n1,B\n1,T\n2,B\n")
    return str(path)


def test_check_input_refuses_what_check_refuses(cli, tallies, outcomes):
    shoe = Shoe.standard(1)
    message = cli.error("check", tallies, "--decks", "1", "--reference", "shoe-aware")
    assert api_error(check_input, tallies, shoe, reference="shoe-aware") == message
    message = cli.error("check", tallies, "--decks", "1", "--rules", "gold")
    assert api_error(check_input, tallies, shoe, rules=BUILTIN_RULES["gold"]) == message
    message = cli.error("check", outcomes, "--decks", "1", "--card-order")
    assert api_error(check_input, outcomes, shoe, order=True) == message
    assert api_error(check_stream, open_log(outcomes), shoe, order=True) == message
    message = cli.error("check", outcomes, "--decks", "1", "--reference", "shoe-aware")
    assert api_error(check_stream, open_log(outcomes), shoe, "shoe-aware") == message


def test_check_input_takes_each_kind_as_check_does(cli, tallies, outcomes):
    from analyzer.simcheck.check import report_json
    shoe = Shoe.standard(1)
    for path in (tallies, outcomes):
        assert report_json(check_input(path, shoe)) == cli("check", path, "--decks", "1", "--format", "json").out
    # an outcome-only stream given to check_stream is checked as check does it
    assert report_json(check_stream(open_log(outcomes), shoe)) == report_json(check_input(outcomes, shoe))


def test_verify_api_refuses_what_verify_refuses(cli, tallies, outcomes):
    shoe = Shoe.standard(1)
    assert api_error(verify.open_hand_log, tallies) == cli.error("verify", tallies, "--decks", "1")
    message = cli.error("verify", outcomes, "--decks", "1")
    assert api_error(verify.open_hand_log, outcomes) == message
    assert api_error(verify.replay_stream, open_log(outcomes), shoe) == message
