"""``baccarat serve``: its answers are the command line's, byte for byte; a bad request is a
4xx JSON error with the command line's message; a real server serves eight clients at once
and stops on SIGTERM like any command (status 130)."""

from __future__ import annotations

import json
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from analyzer.bets.catalog import catalog  # noqa: E402
from analyzer.cli import serve as serve_module  # noqa: E402
from analyzer.cli.serve import create_app  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")            # Starlette's note on httpx versions
    from starlette.testclient import TestClient  # noqa: E402

#: Main bets, bets on point values and bets the card engine counts (ranks, suits, card 3).
BETS = ["banker", "player", "tie", "dragon7", "panda8", "lucky6", "player_pair", "perfect_pair", "big_tiger"]
RANKS = "A23456789TJQK"
SUITS = "shdc"


@pytest.fixture(scope="module")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app()) as c:
            yield c


def depleted(rng: random.Random, n: int) -> str:
    """``n`` distinct-ish cards of an 8-deck shoe, each with its suit (the shoe stays suited)."""
    return " ".join(rng.choice(RANKS) + rng.choice(SUITS) for _ in range(n))


def shoes(seed: int, count: int):
    rng = random.Random(seed)
    return [depleted(rng, rng.randrange(0, 120)) for _ in range(count)]


# ---------------------------------------------------------------------------------------------
# POST /odds: the document of `odds --format json`


@pytest.mark.parametrize("remove", shoes(24, 3))
def test_odds_is_the_cli_document(cli, client, remove):
    r = client.post("/odds", json={"remove": remove, "bets": BETS})
    status, out, err = cli("odds", "--format", "json", "--remove", remove, "--bets", ",".join(BETS))
    assert status == 0, err
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.text == out


@pytest.mark.parametrize("request_, argv", [
    ({"decks": 6}, ["--decks", "6"]),
    ({"shoe": "A=8,2=8,3=8,4=8,5=8,6=8,7=8,8=8,9=8,T=8,J=8,Q=8,K=8", "bets": ["tie_9to1"]},
     ["--shoe", "A=8,2=8,3=8,4=8,5=8,6=8,7=8,8=8,9=8,T=8,J=8,Q=8,K=8", "--bets", "tie_9to1"]),
    ({"decks": 2, "known": {"1": "9", "5": "Kh"}, "bets": ["banker", "dragon7"]},
     ["--decks", "2", "--known", "1=9", "--known", "5=Kh", "--bets", "banker,dragon7"]),
    ({"table": "ez"}, ["--table", "ez"]),
    ({"decks": 6, "rules": "gold", "player_option": "stand", "bets": ["tie_9to1"]},
     ["--decks", "6", "--rules", "gold", "--player-option", "stand", "--bets", "tie_9to1"]),
    ({"decks": 6, "remove": ["5", "5", "9h"], "rules": "gold", "player_option": "best"},
     ["--decks", "6", "--remove", "5 5 9h", "--rules", "gold", "--player-option", "best"]),
])
def test_odds_options_are_the_clis(cli, client, request_, argv):
    r = client.post("/odds", json=request_)
    status, out, err = cli("odds", "--format", "json", *argv)
    assert status == 0, err
    assert (r.status_code, r.text) == (200, out)


@pytest.mark.slow
@pytest.mark.parametrize("remove", shoes(2024, 3))
def test_every_catalog_bet_is_the_clis(cli, client, remove):
    """Every catalog bet on random depleted shoes (one compile of the whole catalog)."""
    r = client.post("/odds", json={"remove": remove, "bets": "all"})
    status, out, err = cli("odds", "--format", "json", "--remove", remove, "--bets", "all", "-q")
    assert status == 0, err
    doc = json.loads(r.text)
    assert r.status_code == 200 and r.text == out
    assert list(doc["bets"]) == list(catalog().bets)


def test_solvers_are_kept_across_requests(client):
    service = client.app.state.service
    client.post("/odds", json={"decks": 3, "bets": ["dragon7"]})
    before = service.solvers.compiled
    for decks in (4, 5, 6):
        assert client.post("/odds", json={"decks": decks, "bets": ["dragon7"]}).status_code == 200
    assert service.solvers.compiled == before
    assert service.solvers.cache_info().maxsize == serve_module.SERVER_SOLVERS


# ---------------------------------------------------------------------------------------------
# POST /eor: the document of `eor --format json` (the live-shoe page's effects of removal)


@pytest.mark.parametrize("request_, argv", [
    ({"remove": "5 5 K 9h", "bets": ["banker", "player", "tie"]},
     ["--remove", "5 5 K 9h", "--bets", "banker,player,tie"]),
    ({"decks": 6, "bets": ["dragon7", "player_pair", "tie"]}, ["--decks", "6", "--bets", "dragon7,player_pair,tie"]),
    ({"decks": 2, "remove": depleted(random.Random(5), 20).split(), "bets": ["perfect_pair", "banker"]},
     ["--decks", "2", "--remove", depleted(random.Random(5), 20), "--bets", "perfect_pair,banker"]),
    ({"shoe": {"A": 1, "5": 9, "K": 30}, "table": "ez"}, ["--shoe", "A=1,5=9,K=30", "--table", "ez"]),
    ({"decks": 1, "remove": ["9"] * 4, "bets": ["banker", "tie"]}, ["--decks", "1", "--remove", "9 9 9 9", "--bets", "banker,tie"]),
    ({"decks": 6, "remove": "5 5 4", "rules": "gold", "player_option": "best", "bets": ["banker", "tie"]},
     ["--decks", "6", "--remove", "5 5 4", "--rules", "gold", "--player-option", "best", "--bets", "banker,tie"]),
    ({"decks": 6, "rules": "gold", "player_option": "stand"}, ["--decks", "6", "--rules", "gold", "--player-option", "stand"]),
])
def test_eor_is_the_cli_document(cli, client, request_, argv):
    r = client.post("/eor", json=request_)
    status, out, err = cli("eor", "--format", "json", *argv)
    assert status == 0, err
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.text == out


def test_eor_uses_the_servers_solvers(client):
    service = client.app.state.service
    client.post("/odds", json={"decks": 5, "bets": ["panda8"]})
    before = service.solvers.compiled
    assert client.post("/eor", json={"decks": 5, "remove": "3 3", "bets": ["panda8"]}).status_code == 200
    assert service.solvers.compiled == before


@pytest.mark.parametrize("request_, argv", [
    ({"shoe": "A=6"}, ["--shoe", "A=6"]),                          # a coup needs 6 cards left after one
    ({"decks": 1, "remove": "5 5 5 5 5"}, ["--decks", "1", "--remove", "5 5 5 5 5"]),
    ({"bets": ["nope"]}, ["--bets", "nope"]),
    ({"remove": "5", "bets": ["perfect_pair"]}, ["--remove", "5", "--bets", "perfect_pair"]),   # rank-only
    ({"rules": "gold", "player_option": "sometimes"}, ["--rules", "gold", "--player-option", "sometimes"]),
])
def test_bad_eor_requests_are_the_clis_message(cli, client, request_, argv):
    assert error_of(client.post("/eor", json=request_)) == cli.error("eor", "--format", "json", *argv)


def test_eor_takes_no_known_cards_nor_query(client):
    assert error_of(client.post("/eor", json={"known": {"1": "9"}})) == (
        "unknown key 'known' (keys: decks, shoe, remove, bets, table, rules, player_option)")
    assert error_of(client.post("/eor?bets=tie", json={})).startswith("POST /eor takes no query parameters")
    assert error_of(client.post("/eor", content=b'{"decks": 6')).startswith("malformed JSON")
    assert error_of(client.get("/eor"), 405) == "Method Not Allowed"


@pytest.mark.parametrize("body", [
    {"decks": 10**30}, {"decks": -1}, {"decks": True}, {"shoe": {"A": -1}}, {"shoe": {"A": 10**40}},
    {"shoe": 5}, {"remove": [1]}, {"remove": {"5": 1}}, {"remove": "Z"}, {"remove": "5" * 100_000},
    {"bets": "nope"}, {"bets": [[]]}, {"table": 7}, {"rules": ["gold"]}, {"player_option": "best"},
    {"decks": 1, "remove": " ".join(["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"] * 4)},
    [], "eor", 7, None,
])
def test_odd_eor_requests_are_one_line_4xx(client, body):
    r = client.post("/eor", content=json.dumps(body).encode())
    assert 400 <= r.status_code < 500, r.text[:300]
    error_of(r, r.status_code)


# ---------------------------------------------------------------------------------------------
# GET /: the live-shoe page and its assets, all from the package


def test_the_page_and_its_assets_come_from_the_server(client):
    from html.parser import HTMLParser

    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in r.headers["content-security-policy"]

    class Assets(HTMLParser):
        def __init__(self):
            super().__init__()
            self.found: list = []

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "script" or (tag == "link" and a.get("rel") == "stylesheet"):
                self.found.append(a.get("src") or a.get("href"))

    parser = Assets()
    parser.feed(r.text)
    assert sorted(parser.found) == ["/static/app.js", "/static/style.css"]
    kinds = {"/static/app.js": "text/javascript", "/static/style.css": "text/css"}
    for path in parser.found:
        asset = client.get(path)
        assert asset.status_code == 200 and asset.headers["content-type"].startswith(kinds[path])
        assert not re.search(r"https?://", asset.text), path          # nothing from another origin
    assert error_of(client.get("/static/nothing.js"), 404) == "Not Found"
    assert error_of(client.get("/static/../cli/serve.py"), 404) == "Not Found"


# ---------------------------------------------------------------------------------------------
# POST /batch: the lines of `odds --batch`


BATCH = [{"decks": 6}, {"remove": "5 5 K 9h"}, {"known": {"1": "9", "3": "K"}},
         {"shoe": {"A": 20, "5": 9, "K": 30}}, {"decks": 1, "remove": ["As", "2h"]}] + \
        [{"remove": r} for r in shoes(7, 4)]


@pytest.mark.parametrize("query, argv", [
    ("", []),
    ("?bets=banker,player,tie,monkey6", ["--bets", "banker,player,tie,monkey6"]),
    ("?table=ez&bets=dragon7&rules=gold&player_option=best",
     ["--table", "ez", "--bets", "dragon7", "--rules", "gold", "--player-option", "best"]),
])
def test_batch_is_the_clis_byte_for_byte(cli, client, tmp_path, query, argv):
    text = "".join(json.dumps(line) + "\n" for line in BATCH)
    path = tmp_path / "shoes.jsonl"
    path.write_text(text)
    status, out, err = cli("odds", "--batch", str(path), *argv, "-q")
    assert status == 0, err
    r = client.post("/batch" + query, content=text.encode())
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    assert r.content == out.encode()
    assert cli("odds", "--batch", "-", *argv, "-q", stdin=text)[1] == out


def test_an_empty_batch_is_an_empty_answer(client):
    r = client.post("/batch", content=b"")
    assert (r.status_code, r.content) == (200, b"")


# ---------------------------------------------------------------------------------------------
# Bad requests: 4xx, {"error": the command line's message}


def error_of(response, status=400) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    doc = response.json()
    assert list(doc) == ["error"] and "\n" not in doc["error"] and "Traceback" not in doc["error"]
    return doc["error"]


@pytest.mark.parametrize("request_, argv", [
    ({"bets": ["nope"]}, ["--bets", "nope"]),
    ({"bets": []}, ["--bets", ""]),
    ({"table": "nope"}, ["--table", "nope"]),
    ({"shoe": "A=3"}, ["--shoe", "A=3"]),                              # fewer than 6 cards
    ({"shoe": "A=3,Z=2"}, ["--shoe", "A=3,Z=2"]),
    ({"decks": 1, "remove": "5 5 5 5 5"}, ["--decks", "1", "--remove", "5 5 5 5 5"]),
    ({"remove": "5", "bets": ["perfect_pair"]}, ["--remove", "5", "--bets", "perfect_pair"]),   # rank-only
    ({"rules": "gold", "player_option": "sometimes"}, ["--rules", "gold", "--player-option", "sometimes"]),
    ({"player_option": "stand"}, ["--player-option", "stand"]),
])
def test_bad_options_are_the_clis_message(cli, client, request_, argv):
    assert error_of(client.post("/odds", json=request_)) == cli.error("odds", "--format", "json", *argv)


@pytest.mark.parametrize("body", [
    b'{"decks": 6',                       # malformed
    b'{"decks": 6, "decks": 7}',
    b'{"decks": NaN}',
    b'{"decks": "8"}',
    b'{"decks": 0}',
    b'{"decks": 6, "shoe": "A=32"}',
    b'{"known": {"1": "Z"}}',
    b'{"decks": 1, "known": {"1": "As", "3": "As"}}',   # a card the shoe lacks
    b'',
])
def test_bad_shoes_are_the_batch_lines_message(cli, client, body):
    """A body that would be a bad ``--batch`` line: the message of that line (without
    ``standard input line 1:``); as a ``POST /batch``, with it."""
    line = cli.error("odds", "--batch", "-", stdin=body.decode() + "\n", partial=True)
    assert line.startswith("standard input line 1: ")
    assert error_of(client.post("/odds", content=body)) == line.removeprefix("standard input line 1: ")
    if body:
        assert error_of(client.post("/batch", content=body + b"\n")) == line


def test_unknown_keys_and_wrong_types_are_named(client):
    assert error_of(client.post("/odds", json={"decks": 6, "bet": ["tie"]})) == (
        "unknown key 'bet' (keys: decks, shoe, remove, known, bets, table, rules, player_option)")
    assert error_of(client.post("/odds", json=[1, 2])) == (
        "expected a JSON object with keys decks, shoe, remove, known, bets, table, rules, player_option, got a list")
    assert error_of(client.post("/odds", json={"bets": 5})) == (
        "'bets' must be a list of bet ids or \"all\", got a number")
    assert error_of(client.post("/odds", json={"bets": ["tie", 1]})).startswith("'bets' must be a list")
    assert error_of(client.post("/odds", json={"table": {"ez": 1}})).startswith("'table' must be")
    assert error_of(client.post("/odds", json={"rules": 1})) == "'rules' must be a string, got a number"
    assert error_of(client.post("/odds?bets=tie", json={})).startswith("POST /odds takes no query parameters")
    assert error_of(client.post("/odds", content=b'\xff{}')) == "request body: not UTF-8 text (byte 1)"


@pytest.mark.parametrize("rules", ["/etc/passwd", "rules.toml", "../gold.toml", "nope"])
def test_a_request_never_names_a_rules_file(client, rules, tmp_path):
    msg = error_of(client.post("/odds", json={"rules": rules}))
    assert msg == f"unknown rule set {rules!r} (built-in: punto_banco, gold; the server reads no rules files)"
    assert error_of(client.post("/batch", params={"rules": rules}, content=b"{}\n")) == msg


def test_batch_errors_are_the_clis_message(cli, client, monkeypatch):
    text = '{"decks": 6}\n{"decks": 6, "remove": "5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5 5"}\n'
    assert error_of(client.post("/batch", content=text.encode())) == cli.error("odds", "--batch", "-", stdin=text,
                                                                                 partial=True)
    text = '{"decks": 6}\n\n'
    assert error_of(client.post("/batch", content=text.encode())) == cli.error("odds", "--batch", "-", stdin=text,
                                                                                 partial=True)
    assert error_of(client.post("/batch?bets=nope", content=b"{}\n")) == cli.error(
        "odds", "--batch", "-", "--bets", "nope", stdin="{}\n", partial=True)
    assert error_of(client.post("/batch?bet=tie", content=b"{}\n")) == (
        "unknown query parameter 'bet' (parameters: bets, table, rules, player_option)")
    assert error_of(client.post("/batch?rules=gold&rules=gold", content=b"{}\n")) == (
        "query parameter 'rules' is given twice")
    # rank-only shoe under a suit bet: refused before any line is answered
    text = '{"decks": 6}\n{"remove": "5"}\n'
    assert error_of(client.post("/batch?bets=perfect_pair", content=text.encode())) == cli.error(
        "odds", "--batch", "-", "--bets", "perfect_pair", stdin=text, partial=True)
    monkeypatch.setattr(serve_module, "MAX_BATCH_LINES", 3)
    assert error_of(client.post("/batch", content=b"{}\n" * 4), 413) == (
        "more than 3 lines: the most one POST /batch takes (send them in several)")
    assert client.post("/batch", content=b"{}\n" * 3).status_code == 200


def test_a_failure_after_the_answer_began_is_its_last_line(cli, client, monkeypatch):
    """The first chunk of lines answered, a later one failing (not foreseeable from the
    lines): the stream ends with one line {"error": ...}."""
    monkeypatch.setattr(serve_module, "BATCH_CHUNK", 1)
    text = '{"decks": 6}\n{"remove": "5"}\n'          # the second line is rank-only
    r = client.post("/batch?bets=perfect_pair", content=text.encode())
    status, out, err = cli("odds", "--batch", "-", "--bets", "perfect_pair", stdin=text)
    assert r.status_code == 200 and status == 2
    first, last = r.text.splitlines()
    assert first + "\n" == out
    assert json.loads(last) == {"error": err.removeprefix("baccarat: error: ").rstrip("\n")}


def test_bodies_over_the_limit(cli, client, monkeypatch):
    monkeypatch.setattr(serve_module, "MAX_ODDS_BYTES", 100)
    assert error_of(client.post("/odds", content=b" " * 101 + b"{}"), 413) == (
        f"request body longer than {100 / 2**20:g} MiB, the most POST /odds takes")
    assert client.post("/odds", content=b" " * 90 + b"{}").status_code == 200
    big = b'{"decks": 6}' + b" " * (2**20)
    assert error_of(client.post("/batch", content=big + b"\n")) == cli.error(
        "odds", "--batch", "-", stdin=big.decode() + "\n", partial=True)


def test_work_over_the_card_budget_is_refused(cli):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app(card_budget="1000")) as c:
            msg = error_of(c.post("/odds", json={"bets": ["all_red"]}))
    assert msg == cli.error("odds", "--format", "json", "--bets", "all_red", "--card-budget", "1000", "-q")
    assert "more than the budget of 1,000" in msg


def test_unknown_paths_and_methods_are_json(client):
    assert error_of(client.get("/nothing"), 404) == "Not Found"
    assert error_of(client.get("/odds"), 405) == "Method Not Allowed"


# ---------------------------------------------------------------------------------------------
# GET /bets, GET /rules


def test_bets_and_rules_are_the_clis_json(cli, client):
    r = client.get("/bets")
    assert r.status_code == 200 and r.text == cli("bets", "--format", "json")[1]
    doc = client.get("/rules").json()
    assert list(doc["rules"]) == ["punto_banco", "gold"] and doc["player_options"] == ["draw", "stand", "best"]
    for name in ("punto_banco", "gold"):
        assert doc["rules"][name] == json.loads(cli("rules", "--rules", name, "--format", "json")[1])


# ---------------------------------------------------------------------------------------------
# The command


def test_odds_does_not_import_the_server():
    # main() in a fresh interpreter, not the cli fixture: this process has imported the server
    code = ("import sys, io, contextlib\nfrom analyzer.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['odds', '--decks', '1']) == 0\n"
            "print(sorted(m for m in ('starlette', 'uvicorn', 'httpx', 'anyio') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_bad_serve_options_and_a_taken_port_are_one_line(cli):
    assert cli.error("serve", "--port", "70000") == "--port must be at most 65,535, got 70,000"
    assert cli.error("serve", "--port", "x") == "--port must be a whole number, got 'x'"
    assert cli.error("serve", "--card-budget", "0").startswith("--card-budget must be at least 1")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert cli.error("serve", "--port", str(port)).startswith(f"cannot listen on 127.0.0.1:{port}: ")


def start_server(*argv):
    p = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0", *argv],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    m = re.search(r"listening on (http://127\.0\.0\.1:\d+) ", line)
    assert m, line + p.stderr.read()
    return p, m.group(1)


def raw_answer(s: socket.socket) -> bytes:
    """A whole HTTP answer read from ``s``: its head, then its body (content-length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"content-length: (\d+)", head, re.I).group(1))
    while len(body) < length:
        chunk = s.recv(4096)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def post(url, body: bytes, timeout=60):
    req = urllib.request.Request(url, data=body, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def run_the_readme_examples(url: str) -> None:
    """The curl commands of the server's page (docs/serve.md), against this server: each answers
    JSON, no error."""
    import shutil
    from pathlib import Path

    from markdown_examples import examples
    if shutil.which("curl") is None:
        return
    page = Path(__file__).resolve().parents[1] / "docs" / "serve.md"
    curls = [e.text for e in examples(page) if e.kind == "shell" and e.text.startswith("curl ")]
    assert len(curls) == 3
    for command in curls:
        r = subprocess.run(["bash", "-c", command.replace("http://127.0.0.1:8000", url)],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, (command, r.stderr)
        if "/batch" in command:
            docs = [json.loads(line) for line in r.stdout.splitlines()]
            assert len(docs) == 2 and all("error" not in d for d in docs), (command, r.stdout[:300])
        else:
            assert "error" not in json.loads(r.stdout), (command, r.stdout[:300])


def test_a_real_server_serves_eight_clients_and_stops_on_sigterm(cli):
    p, url = start_server()
    try:
        lines = [json.dumps({"decks": d}) for d in range(1, 9)]
        expected = {d: cli("odds", "--format", "json", "--decks", str(d), "--bets", "banker,dragon7")[1]
                    for d in range(1, 9)}
        results, failures = {}, []

        def client(d):
            try:
                for _ in range(3):
                    status, body = post(f"{url}/odds", json.dumps({"decks": d, "bets": ["banker", "dragon7"]}).encode())
                    assert status == 200 and body.decode() == expected[d], (status, body[:200])
                status, body = post(f"{url}/batch", "\n".join(lines).encode())
                assert status == 200 and len(body.decode().splitlines()) == 8
                results[d] = True
            except BaseException as e:          # noqa: BLE001 - reported below
                failures.append(repr(e))

        threads = [threading.Thread(target=client, args=(d,)) for d in range(1, 9)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert failures == [] and len(results) == 8
        # a huge body is refused at its announced length, and after the limit when not announced
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=30) as s:
            s.sendall(b"POST /odds HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000000\r\n\r\n{")
            answer = raw_answer(s)
        assert b" 413 " in answer.split(b"\r\n")[0] and b"the most POST /odds takes" in answer
        with socket.create_connection((host, int(port)), timeout=30) as s:
            s.sendall(b"POST /odds HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b" " * 65536
            try:
                for _ in range(64):                # 4 MiB offered; the server stops at 1 MiB
                    s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:
                pass
            answer = raw_answer(s)
        assert b" 413 " in answer.split(b"\r\n")[0]
        run_the_readme_examples(url)
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            status = p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
            raise
    assert status == 130
    assert p.stderr.read() == "baccarat: interrupted\n"
