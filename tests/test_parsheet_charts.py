"""Par-sheet charts (issue 15, item 4): written per wager, deterministic, in a folder of their own."""

from __future__ import annotations

import pytest

from analyzer.cli import main

pytest.importorskip("matplotlib")


def test_charts_per_wager_are_deterministic(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert main(["parsheet", "--bets", "banker,tie", "--by-decks", "1,8", "--charts", str(out),
                     "-o", str(tmp_path / "sheet.md")]) == 0
    names = sorted(p.name for p in a.iterdir())
    assert names == [".baccarat-manifest.json"] + sorted(
        f"{bet}_{kind}.png" for bet in ("banker", "tie") for kind in ("bands", "decks", "returns"))
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert (a / "tie_returns.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the folder is the tool's own: it may be written again
    assert main(["parsheet", "--bets", "banker", "--charts", str(a), "-o", str(tmp_path / "s2.md")]) == 0


def test_chart_inputs_are_checked(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["parsheet", "--bets", "banker", "--charts", str(tmp_path)]) == 2
    assert main(["parsheet", "--bets", "banker", "--decks", "6,8", "--charts", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert err.count("baccarat: error:") == 2 and "not empty" in err and "one --decks" in err
