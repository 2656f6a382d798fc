"""``baccarat serve``: the exact odds over HTTP, for programs on this machine.

A Starlette application under uvicorn (the ``serve`` extra; both imported only
when the server starts, so other commands do not load them), bound to
127.0.0.1 unless ``--host`` says otherwise:

* ``POST /odds``: one JSON object with the keys of an ``odds --batch`` line
  (``decks``, ``shoe``, ``remove``, ``known``) and ``bets`` (a list of bet ids, or
  ``"all"``), ``table`` (a name or a list of names), ``rules`` (a built-in rule set's
  name: a request never names a file) and ``player_option``; the answer is exactly
  what ``baccarat odds --format json`` prints for the same options.
* ``POST /batch``: JSON Lines, each line a batch line; the bet and rules options are
  query parameters (``?bets=banker,tie&table=ez&rules=gold&player_option=best``,
  ``bets`` and ``table`` repeatable, as ``--bets`` and ``--table``).  The answer
  streams back exactly the lines ``baccarat odds --batch -`` writes.
* ``POST /eor``: the effects of removal of the next card: one JSON object with the keys of
  ``POST /odds`` less ``known`` (``decks``, ``shoe``, ``remove``, ``bets``, ``table``,
  ``rules``, ``player_option``); the answer is exactly what ``baccarat eor --format json``
  prints for the same options (one card removed: for each rank the shoe still holds, the
  exact change of each bet's EV; ``null`` for a rank it lacks).  Computed by
  :func:`analyzer.reports.eor.effects_of_removal` through the server's compiled solvers.
* ``GET /bets`` and ``GET /rules``: what may be asked for (``baccarat bets --format
  json``; the built-in rule sets as ``baccarat rules --format json`` prints each).
* ``GET /``: the live-shoe page (``docs/live-shoe.md``), a page of plain HTML, CSS and
  JavaScript served from the package's ``analyzer/cli/static`` (``GET /static/...``): no
  asset comes from elsewhere.  It asks ``POST /odds`` after each card, ``POST /eor`` when
  its effects-of-removal panel is open, one request at a time (a newer state replaces a
  request not yet sent; an answer to an older state is dropped).

Every document is built by :class:`analyzer.reports.odds_plan.OddsPlan`, the code of ``odds``
and ``odds --batch``; compiled solvers are kept across requests (a bounded
:class:`analyzer.core.solver.SolverCache`).  A bad request is a 4xx answer
``{"error": "..."}`` holding the line the command line prints for the same input.
The work runs on a bounded pool of threads, one computation at a time (the engines
are not shared between threads), so the event loop keeps answering.  For the page's
latency this means one client's click waits behind any other client's computation (a
batch of thousands of shoes, a first compile of a card bet): the main bets answer in a
few milliseconds warm, but not while the server works for someone else.
"""

from __future__ import annotations

import argparse
import io
import socket
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ..core.errors import BaccaratError
from ..io.batch import (
    KEYS,
    MAX_LINE_BYTES,
    BatchError,
    answer_lines,
    batch_text,
    json_kind,
    json_line,
    lines_of,
    load_object,
    parse_line,
    shoe_of,
)
from .odds import card_budget
from .options import UsageError, bets_value, converter, whole
from .rules import player_option, rules_value

#: Keys of a ``POST /odds`` object: a batch line's, then the bet and rules options.
OPTION_KEYS = ("bets", "table", "rules", "player_option")
REQUEST_KEYS = KEYS + OPTION_KEYS
#: Keys of a ``POST /eor`` object (``baccarat eor`` takes no ``--known``).
EOR_KEYS = tuple(k for k in REQUEST_KEYS if k != "known")
#: The live-shoe page's files (``GET /``, ``GET /static/...``), package data.
STATIC_DIR = Path(__file__).resolve().parent / "static"
#: Largest ``POST /odds`` body (as a batch line) and ``POST /batch`` body, in bytes.
MAX_ODDS_BYTES = MAX_LINE_BYTES
MAX_BATCH_BYTES = 16 * 2**20
#: Most lines of one ``POST /batch``.
MAX_BATCH_LINES = 10_000
#: Lines of a ``POST /batch`` solved together (one step of the stream).
BATCH_CHUNK = 64
#: Compiled solvers kept across requests (one per bet set, known cards and rule set).
SERVER_SOLVERS = 32
#: Threads that run the work; requests waiting for one beyond this many are refused (503).
WORKERS = 4
MAX_WAITING = 64
#: The page's Content-Security-Policy: every script, style and request to this server only.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
#: The name of a request's body in messages: it is what ``odds --batch -`` reads.
BODY_NAME = "standard input"


class RequestError(BaccaratError):
    """A request the server cannot take; ``status`` is its HTTP status (4xx)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def register(sub) -> None:
    p = sub.add_parser(
        "serve",
        help="a local HTTP server answering odds requests (needs the serve extra)",
        description="An HTTP server for programs on this machine: POST /odds (one shoe), "
        "POST /batch (JSON Lines), POST /eor, GET /bets, GET /rules; the documents of "
        "'baccarat odds --format json' and 'baccarat eor --format json'; "
        "and at GET / a live-shoe page for a browser.  Binds to 127.0.0.1 "
        "by default.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument(
        "--port",
        default="8000",
        metavar="N",
        type=whole("--port", 0, 65535),
        help="port (default 8000; 0: a free one; the address is printed on standard error)",
    )
    p.add_argument(
        "--card-budget",
        metavar="N",
        default=None,
        type=converter(card_budget),
        help="as for 'odds': most card-class sequences one bet may enumerate (default 40,000,000)",
    )
    p.set_defaults(func=cmd_serve)


def server_args(card_budget=None) -> argparse.Namespace:
    """The options of the server's card engine (``--card-budget``, no progress bar)."""
    return argparse.Namespace(card_budget=card_budget, quiet=True)


def request_options(obj: dict, where: str = "") -> argparse.Namespace:
    """The ``odds`` options (``--table``, ``--bets``, ``--rules``, ``--player-option``) of a
    request's ``bets``, ``table``, ``rules`` and ``player_option``; one line if malformed.
    ``rules`` is a built-in rule set's name only (a request never names a file)."""
    from ..core.rules import BUILTIN_RULES

    bets, tables, rules, option = (obj.get(k) for k in OPTION_KEYS)
    if bets is None:
        groups = []
    elif isinstance(bets, str):
        groups = [bets]
    elif isinstance(bets, list) and all(isinstance(b, str) for b in bets):
        groups = [",".join(bets)]
    else:
        raise BatchError(f"'bets'{where} must be a list of bet ids or \"all\", got {json_kind(bets)}")
    if tables is None:
        tables = []
    elif isinstance(tables, str):
        tables = [tables]
    elif not (isinstance(tables, list) and all(isinstance(t, str) for t in tables)):
        raise BatchError(f"'table'{where} must be a table name or a list of them, got {json_kind(tables)}")
    for key, value in (("rules", rules), ("player_option", option)):
        if value is not None and not isinstance(value, str):
            raise BatchError(f"'{key}'{where} must be a string, got {json_kind(value)}")
    if option is not None:
        option = player_option(option)  # what --player-option's converter gives
    if rules is not None and rules.strip() not in BUILTIN_RULES:
        raise UsageError(
            f"unknown rule set {rules!r} (built-in: {', '.join(BUILTIN_RULES)}; the server reads no rules files)"
        )
    return argparse.Namespace(
        table=list(tables),
        bets=[bets_value(group) for group in groups],  # what --bets's converter gives
        bets_file=None,
        rules=None if rules is None else rules_value(rules),
        player_option=option,
        breakeven=None,
        card_budget=None,
        quiet=True,
    )


def query_options(items) -> argparse.Namespace:
    """The ``odds`` options of ``POST /batch``'s query parameters (``(name, value)`` pairs)."""
    obj: dict = {}
    for name, value in items:
        if name not in OPTION_KEYS:
            raise RequestError(f"unknown query parameter {name!r} (parameters: {', '.join(OPTION_KEYS)})")
        if name in ("bets", "table"):
            obj.setdefault(name, []).append(value)
        elif name in obj:
            raise RequestError(f"query parameter {name!r} is given twice")
        else:
            obj[name] = value
    if "bets" in obj:
        obj["bets"] = ",".join(obj["bets"]) if all(obj["bets"]) else ""
    return request_options(obj, " (query parameter)")


def body_text(body: bytes) -> str:
    """A request body as text (UTF-8, a byte-order mark dropped), or one line."""
    try:
        return body.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise RequestError(f"request body: not UTF-8 text (byte {e.start + 1})") from None


class Service:
    """The server's state: compiled solvers shared by every request, the threads that do
    the work and the lock that lets one computation run at a time."""

    def __init__(self, card_budget=None, workers: int = WORKERS, size: int = SERVER_SOLVERS):
        from ..core.solver import SolverCache
        from .odds import card_engine_options

        self.solvers = SolverCache(size=size, options=card_engine_options(server_args(card_budget)))
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="baccarat-serve")
        self.work_lock = threading.Lock()
        self.waiting = 0

    def plan(self, options):
        from .odds import plan_from_args

        return plan_from_args(options, solvers=self.solvers)

    async def run(self, fn, *args):
        """``fn(*args)`` on a worker thread, one computation at a time; 503 when too many wait."""
        if self.waiting >= MAX_WAITING:
            raise RequestError(f"the server is busy ({MAX_WAITING} requests waiting): try again", 503)
        self.waiting += 1

        def locked():
            with self.work_lock:
                return fn(*args)

        try:
            import asyncio  # here: every command imports this module to register `serve`

            return await asyncio.get_running_loop().run_in_executor(self.pool, locked)
        finally:
            self.waiting -= 1

    def odds_text(self, body: bytes) -> str:
        """The answer of ``POST /odds``: ``odds --format json``'s text."""
        from ..io.tables import json_text

        obj = load_object(body_text(body), REQUEST_KEYS)
        shoe, known = shoe_of(obj)
        return json_text(self.plan(request_options(obj)).document(shoe, known))

    def eor_text(self, body: bytes) -> str:
        """The answer of ``POST /eor``: ``eor --format json``'s text (one card removed)."""
        from ..reports.eor import effects_of_removal
        from .reports import eor_json_text

        obj = load_object(body_text(body), EOR_KEYS)
        shoe, _ = shoe_of(obj)
        plan = self.plan(request_options(obj))
        solver, _ = plan.solver_of(shoe, None)
        return eor_json_text(effects_of_removal(shoe, plan.bets, 1, solver=solver))

    def batch_answers(self, body: bytes, options):
        """The lists of documents answering ``POST /batch``, in order (a generator); every line
        is read and checked first, so that a bad one is refused before any answer."""
        plan = self.plan(options)
        for number, text in lines_of(io.BytesIO(body), BODY_NAME):
            if number > MAX_BATCH_LINES:  # lines_of numbers every line from 1
                raise RequestError(
                    f"more than {MAX_BATCH_LINES:,} lines: the most one POST /batch takes (send them in several)", 413
                )
            try:
                parse_line(text)
            except BaccaratError as e:
                raise BatchError(f"{BODY_NAME} line {number}: {e}") from None
        return answer_lines(lines_of(io.BytesIO(body), BODY_NAME), BODY_NAME, plan.line, plan.lines, BATCH_CHUNK)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def take(answers, n: int):
    """``(documents, error or None)``: the next documents of ``answers`` (a generator of
    lists), at least ``n`` unless it ends first, and the error that stopped it, if one did."""
    docs: list = []
    while len(docs) < n:
        try:
            more = next(answers, None)
        except BaccaratError as e:
            return docs, e
        if more is None:
            break
        docs.extend(more)
    return docs, None


def create_app(card_budget=None, workers: int = WORKERS):
    """The Starlette application of ``baccarat serve``."""
    from contextlib import asynccontextmanager

    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    service = Service(card_budget, workers)

    def error(message: str, status: int = 400):
        return JSONResponse({"error": message}, status_code=status)

    async def read_body(request, limit: int, what: str) -> bytes:
        """The body, refused (413) past ``limit`` bytes: read no further than that."""
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > limit:
            raise RequestError(f"request body longer than {limit / 2**20:g} MiB, the most {what} takes", 413)
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise RequestError(f"request body longer than {limit / 2**20:g} MiB, the most {what} takes", 413)
            chunks.append(chunk)
        return b"".join(chunks)

    def json_answer(text: str):
        return Response(text, media_type="application/json")

    async def odds(request):
        if request.query_params:
            raise RequestError(
                "POST /odds takes no query parameters: the options are keys of the JSON "
                f"object ({', '.join(REQUEST_KEYS)})"
            )
        body = await read_body(request, MAX_ODDS_BYTES, "POST /odds")
        return json_answer(await service.run(service.odds_text, body))

    async def eor(request):
        if request.query_params:
            raise RequestError(
                f"POST /eor takes no query parameters: the options are keys of the JSON object ({', '.join(EOR_KEYS)})"
            )
        body = await read_body(request, MAX_ODDS_BYTES, "POST /eor")
        return json_answer(await service.run(service.eor_text, body))

    async def page(request):
        # the page and its assets only from this server (no inline script, no other origin)
        return FileResponse(
            STATIC_DIR / "index.html",
            media_type="text/html",
            headers={"Content-Security-Policy": PAGE_POLICY, "Cache-Control": "no-cache"},
        )

    async def batch(request):
        options = query_options(request.query_params.multi_items())
        body = await read_body(request, MAX_BATCH_BYTES, "POST /batch")
        answers = await service.run(service.batch_answers, body, options)
        first, failure = await service.run(take, answers, BATCH_CHUNK)
        if failure is not None:  # within the first lines: nothing answered yet
            raise failure

        async def stream():
            docs, fault = first, failure
            while docs or fault is not None:
                if docs:
                    yield batch_text(docs)
                if fault is not None:
                    # the answer has begun (status 200): the error is its last line
                    yield batch_text([json_line({"error": str(fault)})])
                    return
                docs, fault = await service.run(take, answers, BATCH_CHUNK)

        return StreamingResponse(stream(), media_type="application/x-ndjson")

    async def bets(request):
        from ..bets.catalog import catalog
        from ..reports.odds_tables import catalog_json

        return json_answer(catalog_json(catalog()))

    async def rules(request):
        from ..core.rules import BUILTIN_RULES
        from ..io.tables import json_text
        from ..reports.rules_tables import rules_dict
        from .rules import PLAYER_OPTIONS

        return json_answer(
            json_text(
                {"rules": {n: rules_dict(r) for n, r in BUILTIN_RULES.items()}, "player_options": list(PLAYER_OPTIONS)}
            )
        )

    async def baccarat_error(request, exc):
        return error(str(exc), getattr(exc, "status", 400))

    async def http_error(request, exc):
        return error(exc.detail if isinstance(exc.detail, str) else str(exc.status_code), exc.status_code)

    async def internal_error(request, exc):
        return error(f"internal error: {type(exc).__name__}", 500)

    @asynccontextmanager
    async def lifespan(app):
        yield
        service.close()

    app = Starlette(
        routes=[
            Route("/odds", odds, methods=["POST"]),
            Route("/batch", batch, methods=["POST"]),
            Route("/eor", eor, methods=["POST"]),
            Route("/bets", bets, methods=["GET"]),
            Route("/rules", rules, methods=["GET"]),
            Route("/", page, methods=["GET"]),
            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        ],
        exception_handlers={BaccaratError: baccarat_error, HTTPException: http_error, Exception: internal_error},
        lifespan=lifespan,
    )
    app.state.service = service
    return app


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (port 0: a free one), or one line."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, _, _, _, address = infos[0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            # inherited by each connection: an answer's head and body are two writes, which
            # Nagle's algorithm would hold for the client's delayed ACK (40 ms) on a kept-alive one
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.bind(address)
            sock.listen(128)
        except OSError:
            sock.close()
            raise
    except OSError as e:
        raise UsageError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def cmd_serve(args) -> int:
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise UsageError(
            "baccarat serve needs Starlette and uvicorn: python -m pip install 'baccarat-analyzer[serve]'"
        ) from None
    app = create_app(args.card_budget)
    sock = listening_socket(args.host, args.port)
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=5, lifespan="on")
    print(
        f"baccarat serve: listening on {url_of(sock)} (the live-shoe page: {url_of(sock)}/; Ctrl-C stops it)",
        file=sys.stderr,
        flush=True,
    )
    with sock:
        uvicorn.Server(config).run(sockets=[sock])
    # uvicorn stops on SIGINT / SIGTERM and then raises that signal again: the command line's
    # handler ends the run as any interrupted command (status 130)
    return 0


__all__ = [
    "register",
    "create_app",
    "cmd_serve",
    "Service",
    "request_options",
    "query_options",
    "RequestError",
    "REQUEST_KEYS",
    "EOR_KEYS",
    "MAX_ODDS_BYTES",
    "MAX_BATCH_BYTES",
    "MAX_BATCH_LINES",
]
