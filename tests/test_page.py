"""The live-shoe page of ``baccarat serve`` (``GET /``), driven in a real headless Chromium.

A real server (``python -m analyzer serve --port 0``, uvicorn) and Debian's Chromium through
Playwright (its own browser never downloaded: ``executable_path``).  Every number the page
shows is checked against the document ``baccarat odds --format json`` (or ``baccarat eor
--format json``) prints for the same shoe, rounded from its exact fractions here.

Without a browser (no ``playwright`` package, no Chromium) the tests skip and say why,
unless ``BACCARAT_REQUIRE_BROWSER=1`` (CI), where that is a failure.  ``BACCARAT_CHROMIUM``
names another Chromium binary.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from helpers import baccarat

REQUIRED = os.environ.get("BACCARAT_REQUIRE_BROWSER") == "1"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Longest wait for the page to show an answer (ms): a first compile of a card bet included.
WAIT_MS = 60_000


def unavailable(reason: str):
    if REQUIRED:
        pytest.fail(f"{reason} (BACCARAT_REQUIRE_BROWSER=1: the browser tests must run)")
    pytest.skip(reason)


def chromium_path() -> str | None:
    given = os.environ.get("BACCARAT_CHROMIUM")
    if given:
        return given
    for name in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if name and os.path.exists(name):
            return name
    return None


# ---------------------------------------------------------------------------------------------
# The command line: what the page must show


def shoe_args(decks=8, dealt=(), known=None, rules="punto_banco", option=None) -> list[str]:
    """The ``odds``/``eor`` options of a page state (burn cards, ``x``, are not in the odds)."""
    argv = ["--decks", str(decks), "--rules", rules]
    cards = [c for c in dealt if c != "x"]
    if cards:
        argv += ["--remove", " ".join(cards)]
    if option:
        argv += ["--player-option", option]
    for pos, card in sorted((known or {}).items()):
        argv += ["--known", f"{pos}={card}"]
    return argv


def odds_of(bets, **state) -> dict:
    status, out, err = baccarat("odds", "--format", "json", "--bets", ",".join(bets), *shoe_args(**state))
    assert status == 0, err
    return json.loads(out)


def error_of(bets=("player", "banker", "tie"), **state) -> str:
    status, out, err = baccarat("odds", "--format", "json", "--bets", ",".join(bets), *shoe_args(**state))
    assert status == 2 and err.startswith("baccarat: error: "), err
    return err.removeprefix("baccarat: error: ").rstrip("\n")


def fixed(fraction: str, scale: int, places: int, plus: bool = False) -> str:
    """``fraction * scale`` to ``places`` decimals, half away from zero (the page's rounding)."""
    x = Fraction(fraction) * scale
    q = (abs(x) * 10**places * 2 + 1) // 2
    digits = str(q).rjust(places + 1, "0")
    text = digits[:-places] + "." + digits[-places:] if places else digits
    if q == 0:
        return text
    return ("-" if x < 0 else "+" if plus else "") + text


def expected_rows(doc: dict) -> dict:
    return {bet: [fixed(b["house_edge"], 100, 4) + "%", fixed(b["ev"], 1, 6, plus=True),
                  "+EV" if Fraction(b["ev"]) > 0 else "no"] for bet, b in doc["bets"].items()}


# ---------------------------------------------------------------------------------------------
# The server and the browser


@pytest.fixture(scope="module")
def server():
    p = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         cwd=Path(__file__).resolve().parents[1])
    line = p.stderr.readline()
    m = re.search(r"listening on (http://127\.0\.0\.1:\d+) ", line)
    try:
        assert m, line + p.stderr.read()
        yield m.group(1)
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the browser tests need Playwright for Python (pip install playwright; "
                    "no browser download: they drive Debian's chromium)")
    path = chromium_path()
    if path is None:
        unavailable("no Chromium found (apt-get install chromium, or set BACCARAT_CHROMIUM)")
    profile = tmp_path_factory.mktemp("chromium-profile")          # a fresh --user-data-dir
    with sync_playwright() as pw:
        try:
            context = pw.chromium.launch_persistent_context(
                str(profile), executable_path=path, headless=True, args=CHROMIUM_FLAGS,
                viewport={"width": 1200, "height": 1000})
        except Exception as e:                  # noqa: BLE001 - a browser that will not start
            unavailable(f"Chromium at {path} did not start: {str(e).splitlines()[0]}")
        context.set_default_timeout(WAIT_MS)
        yield context
        context.close()


@pytest.fixture
def page(browser, server):
    pg = browser.new_page()
    errors: list = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield Page(pg, server)
    pg.close()
    assert errors == [], errors


class Page:
    """The live-shoe page in a browser tab, read as a person reads it."""

    def __init__(self, pg, url: str):
        self.pg, self.url = pg, url

    def open(self, fragment: str = ""):
        self.pg.goto(self.url + "/" + fragment)
        return self.settled()

    def settled(self):
        """Wait until the page shows the answer to its current state (or the error)."""
        self.pg.wait_for_selector("body[data-status=ready], body[data-status=error]", state="attached")
        return self

    def click(self, selector: str):
        self.pg.click(selector)
        return self.settled()

    def deal(self, *ranks: str):
        for r in ranks:
            self.click(f"#cards button[data-rank='{r}']")
        return self

    def rows(self) -> dict:
        out = {}
        for tr in self.pg.locator("#results tbody tr").all():
            cells = tr.locator("td").all_inner_texts()
            out[tr.get_attribute("data-bet")] = [c.strip() for c in cells[1:]]
        return out

    def positive(self) -> set:
        return {tr.get_attribute("data-bet") for tr in self.pg.locator("#results tbody tr.positive").all()}

    def text(self, selector: str) -> str:
        return self.pg.inner_text(selector).strip()

    def fragment(self) -> str:
        return self.pg.url.partition("#")[2]


MAIN = ["player", "banker", "tie"]


def test_clicks_undo_and_burns_show_the_clis_odds(page):
    page.open()
    assert page.rows() == expected_rows(odds_of(MAIN))              # the main bets by default
    assert page.text("#counts") == "Cards dealt: 0 · cards left in the shoe: 416"
    page.deal("5", "K", "9").click("#burn").click("#undo").click("#burn").deal("3")
    dealt = ["5", "K", "9", "x", "3"]
    doc = odds_of(MAIN, dealt=dealt)
    assert page.rows() == expected_rows(doc)
    assert page.text("#counts") == "Cards dealt: 5 (1 burned face down) · cards left in the shoe: 411"
    assert page.text("#cards button[data-rank='5'] small") == f"{doc['shoe']['counts']['5']} left"
    assert page.pg.locator("#dealt li").all_inner_texts() == ["5", "K", "9", "burn", "3"]
    assert "dealt=5,K,9,x,3" in page.fragment()
    # a burn changes no odds: the same numbers as without it
    assert expected_rows(odds_of(MAIN, dealt=["5", "K", "9", "3"])) == page.rows()
    # the exact value stands beside the rounded one
    cell = page.pg.locator("#results tbody tr[data-bet='banker'] td").nth(1)
    assert cell.get_attribute("data-exact") == doc["bets"]["banker"]["house_edge"]
    page.click("#reset")
    assert page.rows() == expected_rows(odds_of(MAIN)) and page.fragment().find("dealt") == -1


def test_the_keyboard_deals_and_undoes_and_stale_answers_are_dropped(page):
    page.open()
    page.pg.locator("body").focus()
    for key in ["A", "0", "q", "Backspace", "x", "7"]:
        page.pg.keyboard.press(key)
        page.settled()
    assert page.rows() == expected_rows(odds_of(MAIN, dealt=["A", "T", "x", "7"]))
    # keys faster than answers: the page ends on the last state's answer
    keys = list("23456789JK2345")
    for key in keys:
        page.pg.keyboard.press(key)
    page.settled()
    dealt = ["A", "T", "x", "7"] + keys
    assert page.rows() == expected_rows(odds_of(MAIN, dealt=dealt))
    assert page.pg.locator("#dealt li").count() == len(dealt)
    # a card button from the keyboard: Tab to it, focus visible, Enter deals
    page.pg.locator("#cards button[data-rank='J']").focus()
    page.pg.keyboard.press("Tab")
    button = page.pg.locator("#cards button[data-rank='Q']")
    assert button.evaluate("e => e === document.activeElement && e.matches(':focus-visible')")
    assert button.get_attribute("aria-label").startswith("Deal Q (")
    page.pg.keyboard.press("Enter")
    page.settled()
    assert page.rows() == expected_rows(odds_of(MAIN, dealt=dealt + ["Q"]))
    # typing in a field types there: no card dealt
    page.pg.locator("#bet-filter").fill("pair")
    page.pg.locator("#bet-filter").press("K")
    assert page.pg.locator("#dealt li").count() == len(dealt) + 1
    # every control has a label
    unlabelled = [page.pg.locator(sel).nth(i).get_attribute("id")
                  for sel in ("select", "input[type=number]", "input[type=text]", "input[type=search]")
                  for i in range(page.pg.locator(sel).count())
                  if page.pg.locator(f"label[for='{page.pg.locator(sel).nth(i).get_attribute('id')}']").count() == 0]
    assert unlabelled == []


def test_entered_cards_known_cards_bets_and_rules(page):
    page.open()
    page.pg.locator("#enter").fill("9h k 0 x 5")
    page.pg.locator("#enter").press("Enter")
    page.settled()
    dealt = ["9h", "K", "T", "x", "5"]
    assert page.rows() == expected_rows(odds_of(MAIN, dealt=dealt))
    # bets: a table, then one more bet from the list
    page.pg.select_option("#table", "ez")
    page.settled()
    page.pg.check("#bet-dragon7")               # already in EZ: unchanged
    page.pg.check("#bet-big")
    page.settled()
    bets = ["ez_banker", "player", "tie", "dragon7", "panda8", "big"]
    assert sorted(page.rows()) == sorted(bets)
    assert page.rows() == expected_rows(odds_of(bets, dealt=dealt))
    # the Player's option of the gold rules
    page.pg.select_option("#rules", "gold")
    page.settled()
    page.pg.select_option("#option", "stand")
    page.settled()
    assert page.rows() == expected_rows(odds_of(bets, dealt=dealt, rules="gold", option="stand"))
    # a coup in progress: two known cards
    page.pg.select_option("#known-1", "9")
    page.settled()
    page.pg.select_option("#known-2", "K")
    page.settled()
    known = {1: "9", 2: "K"}
    assert page.rows() == expected_rows(odds_of(bets, dealt=dealt, known=known, rules="gold", option="stand"))
    assert "known=1:9,2:K" in page.fragment()
    # the coup is over: its cards join the cards dealt
    page.click("#known-deal")
    assert page.rows() == expected_rows(odds_of(bets, dealt=dealt + ["9", "K"], rules="gold", option="stand"))
    assert page.pg.locator("#known-1").input_value() == ""


def test_bets_on_suits_take_each_cards_suit(page):
    bets = ["perfect_pair", "banker"]
    page.open("#decks=8&bets=perfect_pair,banker")
    assert page.rows() == expected_rows(odds_of(bets))
    page.pg.locator("body").focus()
    page.pg.keyboard.press("Q")
    page.settled()
    assert page.text("#error") == error_of(bets, dealt=["Q"])      # a rank alone: its suit unknown
    page.pg.keyboard.press("d")
    page.settled()
    assert page.pg.locator("#error").is_hidden()
    assert page.rows() == expected_rows(odds_of(bets, dealt=["Qd"]))
    page.deal("7").click("#suits button[data-suit='c']")
    assert page.rows() == expected_rows(odds_of(bets, dealt=["Qd", "7c"]))
    assert "dealt=Qd,7c" in page.fragment()


def test_the_url_restores_the_shoe(page):
    fragment = "#decks=6&rules=punto_banco&bets=banker,tie,dragon7&dealt=5,x,K,2,2&known=1:9"
    state = {"decks": 6, "dealt": ["5", "x", "K", "2", "2"], "known": {1: "9"}}
    bets = ["banker", "tie", "dragon7"]
    page.open(fragment)
    assert page.rows() == expected_rows(odds_of(bets, **state))
    assert page.pg.locator("#decks").input_value() == "6"
    assert page.text("#counts").startswith("Cards dealt: 5 (1 burned face down)")
    page.deal("A")
    page.pg.reload()
    page.settled()
    state["dealt"].append("A")
    assert page.rows() == expected_rows(odds_of(bets, **state))
    assert page.pg.locator("#known-1").input_value() == "9"
    assert page.pg.is_checked("#bet-dragon7") and not page.pg.is_checked("#bet-player")


def test_a_card_the_shoe_lacks_is_the_clis_message(page):
    page.open()
    page.pg.fill("#decks", "1")
    page.pg.locator("#decks").dispatch_event("change")
    page.settled()
    assert page.rows() == expected_rows(odds_of(MAIN, decks=1))
    page.deal("5", "5", "5", "5", "5")
    assert page.pg.get_attribute("body", "data-status") == "error"
    assert page.text("#error") == error_of(decks=1, dealt=["5"] * 5)
    assert page.rows() == {None: []}           # no numbers for a shoe that cannot be
    page.click("#undo")
    assert page.pg.locator("#error").is_hidden()
    assert page.rows() == expected_rows(odds_of(MAIN, decks=1, dealt=["5"] * 4))


def test_a_positive_ev_stands_out(page):
    bets = ["player", "banker", "tie", "dragon7", "panda8"]
    dealt = [r for r in "TJQK" for _ in range(4)]
    page.open(f"#decks=1&bets={','.join(bets)}&dealt={','.join(dealt)}")
    doc = odds_of(bets, decks=1, dealt=dealt)
    ahead = {b for b, d in doc["bets"].items() if Fraction(d["ev"]) > 0}
    assert ahead and ahead != set(bets)            # this shoe has both kinds
    assert page.rows() == expected_rows(doc)
    assert page.positive() == ahead                 # a row marked, and the text "+EV" (not colour alone)
    assert {b for b, cells in page.rows().items() if cells[2] == "+EV"} == ahead


@pytest.mark.slow  # 7 s of CPU: in .ci/run's slow run, out of the default run's 5 minutes
def test_the_effects_of_removal_are_one_click_away(page):
    page.open("#decks=8&bets=banker,player,tie&dealt=5,K,9,x")
    page.click("#eor-panel summary")
    page.pg.wait_for_selector("#eor-panel[data-status=ready]", state="attached")
    status, out, err = baccarat("eor", "--format", "json", "--bets", "banker,player,tie",
                           *shoe_args(dealt=["5", "K", "9"]))
    assert status == 0, err
    doc = json.loads(out)
    assert page.pg.locator("#eor thead th").all_inner_texts()[1:] == list(doc["bets"])
    for tr in page.pg.locator("#eor tbody tr").all():
        rank = tr.get_attribute("data-rank")
        cells = [c.strip() for c in tr.locator("td").all_inner_texts()]
        assert cells == [fixed(doc["bets"][b]["effects"][rank], 100, 6, plus=True) for b in doc["bets"]]
    assert page.pg.locator("#eor tbody tr").count() == 13
    # the next card: the panel follows it
    page.deal("4")
    page.pg.wait_for_selector("#eor-panel[data-status=ready]", state="attached")
    status, out, _ = baccarat("eor", "--format", "json", "--bets", "banker,player,tie",
                         *shoe_args(dealt=["5", "K", "9", "4"]))
    four = json.loads(out)["bets"]["banker"]["effects"]["4"]
    cell = page.pg.locator("#eor tbody tr[data-rank='4'] td").first
    assert cell.get_attribute("data-exact") == four


@pytest.mark.slow
def test_the_screenshot_of_the_docs(page, tmp_path):
    """The picture of docs/live-shoe.md: written to a temporary folder, or to
    docs/img/live-shoe.png with BACCARAT_SCREENSHOT=1 (look at it before committing)."""
    dealt = ",".join(["5", "x"] + [r for r in "TJQK" for _ in range(4)] + ["9", "8"])
    page.open(f"#decks=1&rules=punto_banco&bets=player,banker,tie,dragon7,panda8&dealt={dealt}")
    assert page.positive()                          # the picture shows a bet with the edge
    page.click("#eor-panel summary")
    page.pg.wait_for_selector("#eor-panel[data-status=ready]", state="attached")
    docs = Path(__file__).resolve().parents[1] / "docs" / "img" / "live-shoe.png"
    out = docs if os.environ.get("BACCARAT_SCREENSHOT") == "1" else tmp_path / "live-shoe.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    page.pg.screenshot(path=str(out), full_page=True)
    assert out.stat().st_size > 10_000
