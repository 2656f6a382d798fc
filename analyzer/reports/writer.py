"""``baccarat report``: regenerate the ``reports/`` folder, deterministically.

The folder is written beside its name and renamed into place at the end
(:func:`analyzer.io.files.staged_folder`), so an interrupted run leaves it as
it was: absent, empty, or the previous complete reports.  Charts need the
optional matplotlib extra; without it the reports are still written and say
the charts are missing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..bets.catalog import catalog
from ..core.cards import RANKS
from ..core.rules import PUNTO_BANCO
from ..core.shoe import Shoe
from ..core.solver import Solver, forget_tabulations
from ..io.files import MANIFEST, atomic_write, staged_folder, write_manifest
from . import analysis_tables as reportfmt, odds_tables as formatting
from .distributions import distributions
from .eor import effects_of_removal

DEFAULT_DECKS = (1, 2, 4, 6, 8)
REPORT_COMMAND = "baccarat report --out reports/"


def generate(
    out: Path,
    decks: tuple[int, ...] = DEFAULT_DECKS,
    plots: bool | None = None,
    progress: Callable[[str], object] | None = None,
    rules=None,
    player_option: str | None = None,
    words: str | None = None,
) -> list[Path]:
    """Write every report into ``out``; returns the files written.

    ``out`` must be new, empty or a reports folder written before (it holds
    the manifest :data:`analyzer.io.files.MANIFEST`); see
    :func:`analyzer.io.files.check_folder`; it is written whole or not at all
    (:func:`analyzer.io.files.staged_folder`).  ``progress(step)`` is called
    after each step.

    ``rules``: the drawing rules of every report (Punto Banco by default);
    ``player_option``: ``draw``, ``stand`` or ``best`` where ``rules`` lets the
    Player choose (``best``: the exact best play for each shoe,
    :func:`analyzer.reports.parsheet.rules_at`).  The Gold report plays the
    option of ``rules`` every way (Baccarat Gold's if ``rules`` offers none).
    ``words``: the ``--rules``/``--player-option`` words of the command lines
    (by default from the rule set's name).
    """
    from . import charts as plotting
    from .parsheet import rules_at

    base = None if rules is None or rules.is_default else rules
    best = player_option == "best"
    if player_option is not None:  # checked before any file: with_player_option raises
        (base or PUNTO_BANCO).with_player_option("draw" if best else player_option)
    rules = base
    if player_option in ("draw", "stand"):
        assert base is not None  # Punto Banco offers no option: raised just above
        rules = base.with_player_option(player_option)
    rules = None if rules is None or (rules.is_default and not best) else rules
    if words is None:
        words = (
            ""
            if base is None
            else f" --rules {base.name}" + (f" --player-option {player_option}" if player_option else "")
        )
    option = base if base is not None and base.player_option else None  # None: Baccarat Gold
    described = None if rules is None else _described(rules, best)
    gold_words = re.sub(r" --player-option \S+", "", words) if option is not None else ""
    if plots is None:
        plots = plotting.available()
    final = Path(out)
    with staged_folder(final, "reports") as out:  # written beside, renamed into place at the end
        cat = catalog()
        bets = tuple(cat.bets.values())
        bet_ids = [b.id for b in bets]
        solvers: dict = {}

        def played(shoe: Shoe):
            return rules_at(rules, shoe, best)

        def solver_for(shoe: Shoe) -> Solver:
            r = played(shoe)
            if r not in solvers:
                solvers[r] = Solver(bets, rules=r)
            return solvers[r]

        def strategy_of(shoe: Shoe):
            if not best:
                return None
            from ..core.choice import best_rules

            return best_rules(rules, shoe.value_counts)[1]

        written: list[Path] = []
        steps: list[tuple[str | None, Callable[[], None]]] = []  # None: a step without a name

        def write(name: str, text: str) -> None:
            path = out / name
            atomic_write(path, text)
            written.append(path)

        # -- full odds for 8 and 6 decks
        for d in (8, 6):

            def odds_step(d=d):
                shoe = Shoe.standard(d)
                a = solver_for(shoe).solve(shoe)
                cmd = f"baccarat odds --decks {d} --bets all" + words
                write(
                    f"odds_{d}_decks.md",
                    _with_strategy(
                        formatting.odds_markdown(a, title="Exact odds of every catalog bet", command=cmd),
                        strategy_of(shoe),
                        "md",
                    ),
                )
                write(f"odds_{d}_decks.csv", formatting.odds_csv(a))
                write(f"odds_{d}_decks.json", _with_strategy(formatting.odds_json(a), strategy_of(shoe), "json"))

            steps.append((f"odds_{d}_decks", odds_step))

        # -- house edge by number of decks
        def decks_step():
            results = {d: solver_for(Shoe.standard(d)).solve(Shoe.standard(d)) for d in decks}
            charts = None
            if plots:
                charts = {}
                for t in cat.tables.values():
                    rel = f"charts/house_edge_{t.id}.png"
                    plotting.decks_chart(
                        f"House edge by number of decks: {t.name}",
                        list(decks),
                        {b: [float(results[d].bet(b).house_edge) * 100 for d in decks] for b in t.bets},
                        out / rel,
                    )
                    written.append(out / rel)
                    charts[t.id] = rel
            cmd = f"baccarat decks --decks-list {','.join(map(str, decks))}" + words
            write("odds_by_decks.md", reportfmt.by_decks_markdown(results, list(cat.tables.values()), cmd, charts))
            write("odds_by_decks.csv", reportfmt.by_decks_csv(results, bet_ids))
            write("odds_by_decks.json", json_with_rules(reportfmt.by_decks_json(results, bet_ids), described))

        steps.append(("odds_by_decks", decks_step))

        # -- distributions
        for d in (8, 6):

            def dist_step(d=d):
                r = played(Shoe.standard(d))
                dist = distributions(Shoe.standard(d)) if r is None else distributions(Shoe.standard(d), r)
                cmd = f"baccarat distributions --decks {d}" + words
                write(f"distributions_{d}_decks.md", reportfmt.distributions_markdown(dist, cmd))
                write(f"distributions_{d}_decks.csv", reportfmt.distributions_csv(dist))
                write(
                    f"distributions_{d}_decks.json",
                    json_with_rules(reportfmt.distributions_json(dist), r and r.describe()),
                )

            steps.append((f"distributions_{d}_decks", dist_step))

        # -- effects of removal (8 decks, every bet: the par sheets read them too)
        @functools.cache
        def effects_8():
            return effects_of_removal(Shoe.standard(8), bets, solver=solver_for(Shoe.standard(8)))

        def eor_step():
            e = effects_8()
            charts = None
            if plots:
                charts = {}
                for b in e.bets.values():
                    if b.vanishes:
                        continue
                    rel = f"charts/eor_{b.bet.id}.png"
                    plotting.eor_chart(
                        b.bet.name,
                        list(RANKS),
                        [None if b.effect(r) is None else float(b.effect(r)) * 100 for r in RANKS],
                        out / rel,
                        "8 decks, one card of each rank removed",
                    )
                    written.append(out / rel)
                    charts[b.bet.id] = rel
            cmd = "baccarat eor --decks 8 --bets all" + words
            write("eor_8_decks.md", reportfmt.eor_markdown(e, cmd, charts))
            write("eor_8_decks.csv", reportfmt.eor_csv(e))
            write("eor_8_decks.json", json_with_rules(reportfmt.eor_json(e), e.rules and e.rules.describe()))

        steps.append(("eor_8_decks", eor_step))

        # -- EV as a polynomial in the payouts
        def payouts_step():
            a = solver_for(Shoe.standard(8)).solve(Shoe.standard(8))
            cmd = "baccarat payouts --decks 8 --bets all" + words
            write("payouts_8_decks.md", reportfmt.payouts_markdown(a, cmd))
            write("payouts_8_decks.csv", reportfmt.payouts_csv(a))

        steps.append(("payouts_8_decks", payouts_step))

        # -- par sheets of every named table, 8 decks
        def parsheets_step():
            from . import parsheet_tables as sheetfmt
            from .parsheet import parsheet

            (out / "parsheets").mkdir(exist_ok=True)
            for t in cat.tables.values():
                sheet = [
                    parsheet(
                        Shoe.standard(8),
                        cat.select(list(t.bets)),
                        decks,
                        title=t.name,
                        solver=solver_for(Shoe.standard(8)),
                        rules=rules,
                        best=best,
                        effects=effects_8(),
                    )
                ]
                write(
                    f"parsheets/{t.id}.md",
                    sheetfmt.parsheet_markdown(sheet, f"baccarat parsheet --table {t.id}" + words),
                )
                write(f"parsheets/{t.id}.json", sheetfmt.parsheet_json(sheet))

        steps.append(("parsheets", parsheets_step))
        # the hold bands' joint bets are compiled once: their cached tabulations go before the next step
        steps.append((None, forget_tabulations))

        # -- mid-coup: insurance odds, known-card edges, Baccarat Gold
        def midcoup_step():
            from . import midcoup, midcoup_tables as mc

            shoe = Shoe.standard(8)
            shoe_doc = formatting.shoe_json(solver_for(shoe).solve(shoe))
            r8 = played(shoe)
            # each table's builder and writers (Any: each pair reads the data its builder gives)
            tables: tuple[tuple[str, Callable[[], Any], Callable[..., str], Callable[..., str], Any, str], ...] = (
                (
                    "insurance",
                    lambda: midcoup.insurance_table(shoe, r8),
                    mc.insurance_markdown,
                    mc.insurance_json,
                    r8,
                    words,
                ),
                (
                    "known_card_edges",
                    lambda: midcoup.known_card_report(shoe, r8),
                    mc.known_edges_markdown,
                    mc.known_edges_json,
                    r8,
                    words,
                ),
                (
                    "gold",
                    lambda: midcoup.gold_table(shoe, bets, option),
                    mc.gold_markdown,
                    mc.gold_json,
                    option,
                    gold_words,
                ),
            )
            for name, build, md, js, r, w in tables:
                data = build()
                cmd = f"baccarat midcoup --table {name.replace('_', '-')} --decks 8" + w
                write(f"{name}_8_decks.md", md(data, shoe.describe(), cmd, r))
                write(f"{name}_8_decks.json", js(data, shoe_doc, r))

        steps.append(("midcoup", midcoup_step))

        for name, fn in steps:
            fn()
            if progress and name:
                progress(name)
        write("README.md", index_markdown(written, out, plots, rules, words, best))
        write_manifest(out, "reports", written)
        if rules is not None or best:  # the manifest names the rule set too
            import json

            doc = json.loads((out / MANIFEST).read_text())
            doc["rules"] = {"options": words.strip(), "description": described}
            atomic_write(out / MANIFEST, json.dumps(doc, indent=1) + "\n")
        written.append(out / MANIFEST)
    return [final / p.relative_to(out) for p in written]


def json_with_rules(text: str, description: str | None) -> str:
    """A JSON document with ``"rules": description`` after its ``"shoe"`` (first if it has none), as
    ``baccarat odds`` writes it; unchanged for ``None`` (Punto Banco)."""
    if description is None:
        return text
    import json

    from ..io.tables import json_text

    doc = json.loads(text)
    out = {} if "shoe" in doc else {"rules": description}
    for k, v in doc.items():
        out[k] = v
        if k == "shoe":
            out["rules"] = description
    return json_text(out)


def _described(rules, best: bool) -> str:
    return rules.describe() + ("; the Player's option played best for each shoe" if best else "")


def _with_strategy(text: str, strategy, fmt: str) -> str:
    """The odds document with the Player's best play (as ``baccarat odds --player-option best``)."""
    if strategy is None:
        return text
    from .rules_tables import strategy_dict, strategy_markdown

    if fmt == "md":
        return text.rstrip("\n") + "\n\n" + "\n".join(strategy_markdown(strategy)) + "\n"
    import json

    from ..io.tables import json_text

    doc = json.loads(text)
    doc["player_strategy"] = strategy_dict(strategy)
    return json_text(doc)


#: Steps of :func:`generate` (for a progress bar's total).
STEPS = 9


_DESCRIPTIONS = {
    "odds_8_decks": "Every catalog bet on 8 decks: each payout event's exact ways and probability, EV, house edge, "
    "variance",
    "odds_6_decks": "The same for 6 decks",
    "odds_by_decks": "House edge of every bet for 1, 2, 4, 6 and 8 decks, one table per rule set, with charts",
    "distributions_8_decks": "8 decks: final totals grid, totals by cards, winner by total, margin, cards dealt, "
    "naturals, conditional odds after 2, 3 and 4 cards",
    "distributions_6_decks": "The same for 6 decks",
    "eor_8_decks": "Effects of removal of one card of each rank for every bet, ideal count tags and their "
    "correlation, with charts",
    "insurance_8_decks": "Insurance: P(Player, Banker, tie) once both two-card totals are known, for every pair "
    "without a natural",
    "known_card_edges_8_decks": "Known-card edges: the value of seeing the card at each dealing position (Player "
    "or Banker, Dragon 7, Panda 8)",
    "gold_8_decks": "Baccarat Gold: house edge of every bet with the Player drawing, standing or playing best on 5",
    "payouts_8_decks": "EV of every bet as an exact polynomial in its payouts, and the break-even payout",
    "parsheets": "Par sheets of every named table, 8 decks: pay and return tables, house edge, RTP, element of "
    "risk, volatility, house edge by decks, break-even pay, effects of removal, confidence and hold bands",
}


def index_markdown(written: list[Path], out: Path, plots: bool, rules=None, words: str = "", best: bool = False) -> str:
    lines = [
        "# Reports",
        "",
        "Exact odds of Punto Banco baccarat, generated by baccarat-analyzer; never typed by hand.",
        f"Regenerate the whole folder with `{REPORT_COMMAND}{words}`; a test fails when these files differ "
        "from a fresh run.",
        "",
    ]
    if rules is not None:
        lines[2] = (
            f"Exact odds of baccarat under the rule set {rules.name}, generated by baccarat-analyzer; "
            "never typed by hand."
        )
        lines[-1:-1] = ["", f"Rules: {_described(rules, best)}."]
    lines += ["| report | files | what |", "|---|---|---|"]
    stems = []
    for p in written:
        rel = p.relative_to(out)
        if rel.parts[0] == "charts" or rel.name == "README.md":
            continue
        if rel.parts[0] == "parsheets":
            if "parsheets" not in stems:
                stems.append("parsheets")
            continue
        if rel.stem not in stems:
            stems.append(rel.stem)
    for stem in stems:
        if stem == "parsheets":
            sheets = sorted(
                {p.relative_to(out).with_suffix("") for p in written if p.relative_to(out).parts[0] == "parsheets"}
            )
            links = ", ".join(f"[{q.name}]({q.as_posix()}.md) ([json]({q.as_posix()}.json))" for q in sheets)
            lines.append(f"| parsheets | {links} | {_DESCRIPTIONS['parsheets']} |")
            continue
        files = sorted(
            (p.relative_to(out) for p in written if p.stem == stem and p.parent == out),
            key=lambda q: (q.suffix != ".md", q.suffix),
        )
        links = " ".join(f"[{f.suffix[1:]}]({f.as_posix()})" for f in files)
        lines.append(f"| {stem} | {links} | {_DESCRIPTIONS.get(stem, '')} |")
    lines.append("")
    if not plots:
        lines += [reportfmt.PLOTS_MISSING, ""]
    return "\n".join(lines)
