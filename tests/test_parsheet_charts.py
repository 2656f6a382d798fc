"""Par-sheet charts: written per wager, deterministic, in a folder of their own."""

from __future__ import annotations

import pytest


pytest.importorskip("matplotlib")


@pytest.mark.slow  # 2 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_charts_per_wager_are_deterministic(tmp_path, cli):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert cli("parsheet", "--bets", "banker,tie", "--by-decks", "1,8", "--charts", out,
                   "-o", tmp_path / "sheet.md").code == 0
    names = sorted(p.name for p in a.iterdir())
    assert names == [".baccarat-manifest.json"] + sorted(
        f"{bet}_{kind}.png" for bet in ("banker", "tie") for kind in ("bands", "decks", "returns"))
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert (a / "tie_returns.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the folder is the tool's own: it may be written again
    assert cli("parsheet", "--bets", "banker", "--charts", a, "-o", tmp_path / "s2.md").code == 0


def test_a_charts_folder_not_ours_or_several_decks_are_refused(tmp_path, cli):
    (tmp_path / "notes.txt").write_text("mine")
    runs = [cli("parsheet", "--bets", "banker", "--charts", tmp_path),
            cli("parsheet", "--bets", "banker", "--decks", "6,8", "--charts", tmp_path / "c")]
    assert [r.code for r in runs] == [2, 2]
    err = "".join(r.err for r in runs)
    assert err.count("baccarat: error:") == 2 and "not empty" in err and "one --decks" in err
