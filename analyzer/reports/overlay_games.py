"""The games of ``baccarat overlay``: each multiplier-overlay game as its sources state it,
as data (:class:`OverlayGame`), in one registry (:data:`GAMES`).

A game is its shoe (decks), the number of marked identities (``cards``, when a source
states it) or the families the inverse tries (``families``), the multiplier values (their
weights are published by no source: the inverse's business), the fee and its reading,
the bets (base pays, the ``M`` reading of each, which cards count: :class:`OverlayBet`),
the published RTPs with the decimals they are given to, and the sources.  What a
source leaves open is a :class:`Reading`; the stated one is ``readings[0]``, and the
inverse tries the others too (:func:`analyzer.reports.overlay_inverse.game_inverse`).

>>> sorted(GAMES)
['golden_wealth', 'lightning']
>>> g = GAMES["golden_wealth"]
>>> g.decks, g.cards, g.multiplier_values, g.fee, g.fee_mode
(8, {5: Fraction(1, 1)}, (2, 3, 5, 8), Fraction(1, 5), 'stake')
>>> [r.name for r in g.readings][:2]
['as stated', 'fee of the outlay']
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction

from .overlay import LIGHTNING_BETS, OverlayBet

PCT = 10000  # published RTPs in hundredths of a percent


@dataclass(frozen=True)
class Reading:
    """One reading of what a game's sources leave open: ``fee_mode`` (``stake``: the fee
    paid on top; ``total``: a share of the outlay), ``per`` (``card`` or ``identity``),
    ``banker`` (``stake``: the 5% commission taken on the stake, ``M - 0.05`` to 1;
    ``win``: on the multiplied win, ``0.95 M`` to 1; ``unlit``: on a win without a
    marked card only, 0.95:1 then and ``M`` to 1 otherwise), ``tie`` (``all``: a Tie's
    multipliers read every card dealt; ``player`` or ``banker``: that hand's;
    ``none``: the Tie is not multiplied)."""

    name: str
    fee_mode: str = "stake"
    per: str = "card"
    banker: str = "stake"
    tie: str = "all"

    def bets(self, bets: dict[str, OverlayBet]) -> dict[str, OverlayBet]:
        """``bets`` as this reading pays them (the Banker's commission, the Tie's cards)."""
        out = dict(bets)
        if self.banker == "win" and "banker" in out:
            b = out["banker"]
            out["banker"] = replace(b, pays=b.pays + b.offset, offset=Fraction(0))
        elif self.banker == "unlit" and "banker" in out:
            b = out["banker"]
            out["banker"] = replace(b, offset=Fraction(0), unlit=b.offset)
        if self.tie == "none" and "tie" in out:
            t = out["tie"]
            out["tie"] = replace(t, pays=Fraction(0), offset=t.offset + t.pays)
        return out

    @property
    def tie_cards(self) -> str:
        """The cards a Tie's ways are counted on (:func:`analyzer.reports.overlay.pattern_ways`)."""
        return "all" if self.tie == "none" else self.tie


@dataclass(frozen=True)
class OverlayGame:
    """A multiplier-overlay game as its sources state it (see the module)."""

    key: str
    name: str
    short: str
    decks: int
    cards: dict[int, Fraction] | None
    families: dict[str, dict[int, Fraction]]
    multiplier_values: tuple[int, ...]
    fee: Fraction
    fee_mode: str
    bets: dict[str, OverlayBet]
    published: dict[str, Fraction]
    digits: dict[str, int]
    match: tuple[str, ...]
    sources: tuple[str, ...]
    summary: str
    per: str = "card"
    card_name: str = "lightning cards"
    default_cards: int = 3
    readings: tuple[Reading, ...] = (Reading("as stated"),)
    published_other: dict[str, Fraction] = field(default_factory=dict)


#: Evolution's Lightning Baccarat, as its sources state it.  Rules: 8 decks; 1 to 5
#: Lightning cards drawn from a virtual 52-card deck, each with a multiplier of x2, x3,
#: x4, x5 or x8 (ltccasino.com's copy of the game's rules; boomcasino.com: "between one
#: and five random Lightning Cards are drawn from a virtual 52-card deck"); a 20%
#: Lightning fee "added on top of your total bet" (boomcasino.com; reallivedealer.ag:
#: "$10 on the Banker ... in total, you pay $12"), so ``fee_mode="stake"``; Player 1:1,
#: Banker 0.95:1 and Tie 5:1, each times the product of the winning hand's Lightning
#: multipliers (livedealer.org forum thread 8871 quoting the game help, with a Banker
#: 8x win observed to return 8.95 on 1: ``M - 0.05`` to 1).  Published RTPs: Player
#: 98.76% (ltccasino.com, boomcasino.com, livecasinodata.com), Banker 98.59% and Tie
#: 94.51% (reallivedealer.ag's house edges 1.41% and 5.49%; its Player edge 1.33% is
#: not the 98.76% every other source gives: ``published_other``); the pairs' 94.95%
#: (livecasinodata.com/games/lightning-baccarat/how-to-play, a page with other errors:
#: it gives the Banker 1:1 and 98.76%), so not matched by default.  Neither the
#: distribution of the number of Lightning cards nor the multipliers' weights is
#: published: hence the inverse, over k fixed 1-5 or uniform on 1-5.
LIGHTNING = OverlayGame(
    key="lightning",
    name="Lightning Baccarat (Evolution)",
    short="Lightning",
    decks=8,
    cards=None,
    families={
        **{f"k={k}": {k: Fraction(1)} for k in range(1, 6)},
        "k uniform 1-5": {k: Fraction(1, 5) for k in range(1, 6)},
    },
    multiplier_values=(2, 3, 4, 5, 8),
    fee=Fraction(1, 5),
    fee_mode="stake",
    bets=LIGHTNING_BETS,
    published={
        "player": Fraction(9876, PCT),
        "banker": Fraction(9859, PCT),
        "tie": Fraction(9451, PCT),
        "player_pair": Fraction(9495, PCT),
        "banker_pair": Fraction(9495, PCT),
    },
    digits=dict.fromkeys(LIGHTNING_BETS, 2),
    match=("player", "banker", "tie"),
    sources=(
        "https://livecasinodata.com/games/lightning-baccarat/how-to-play",
        "https://www.ltccasino.com/cryptocasino/lightning-baccarat/",
        "http://expert.boomcasino.com/en/lightning-baccarat/",
        "https://reallivedealer.ag/baccarat/2020/07/15/working-on-the-multipliers-with-lightning-baccarat/",
        "https://www.livedealer.org/forums/showthread.php?8871-Lightning-Baccarat/page2",
    ),
    summary="1-5 Lightning cards of 52 (not stated which), x2 x3 x4 x5 x8; 20% fee on top",
    published_other={"player": Fraction(9867, PCT)},
)

#: Golden Wealth Baccarat's bets: the same pays as Lightning's (Player M:1, Banker
#: (M - 0.05):1 as stated, Tie 5M:1, the pairs 9M:1 on the pair's two cards).
GOLDEN_WEALTH_BETS = dict(LIGHTNING_BETS)

#: Evolution's (First Person) Golden Wealth Baccarat, as win2day.at states it
#: (https://www.win2day.at/fairplay/spielbedingungen/firstpersongoldenwealthbaccarat-spielbedingungen,
#: "Ergänzungsspielbedingungen ... First Person Golden Wealth Baccarat"): "Bei jedem
#: getätigten Einsatz wird eine Goldgebühr von 20 % verrechnet" (a 20% gold fee on every
#: bet; the maximum stakes are given "plus 20 % Goldgebühr": the fee on top,
#: ``fee_mode="stake"``); "Es werden aus einem 52 Karten umfassenden (virtuellen)
#: Kartendeck 5 zufällige Goldkarten gezogen" (5 gold cards from a virtual 52-card
#: deck: k = 5); "Die Multiplikatoren der Goldkarten betragen nach dem Zufallsprinzip das
#: 2-Fache, 3-Fache, 5-Fache oder 8-Fache" (x2, x3, x5 or x8, weights not stated);
#: "Gewinnt der zuvor getätigte Einsatz und enthält dieser dazu Karten aus der
#: ausgewählten Goldrunde, wird die Auszahlung mit den entsprechenden
#: Goldmultiplikatoren vervielfacht" (a winning bet holding gold cards is paid times
#: their multipliers).  Pay table ("Einsatz bleibt bei Gewinn erhalten": the stake is
#: returned on a win): Player 1-512:1; Banker 1-512:1 "(Gewinnt Banker, erhält man 95 %
#: des getätigten Einsatzes auf Banker zurück)"; Tie 5:1 "(bis zu 500.000 €)"; P Pair and
#: B Pair 9-576:1, "wenn die ersten beiden Karten ... ein Paar sind".  512 = 8**3 (a
#: three-card hand of x8 cards) and 576 = 9 x 8**2 (the pair's two cards).  The Banker's
#: note is read as Lightning's: of the Banker's stake 95% comes back beside the
#: multiplied win, so ``M - 0.05`` to 1 (the 5% commission taken on the stake); the
#: inverse also tries ``0.95 M`` to 1 (the commission on the multiplied win) and 0.95:1
#: only when no gold card is in the Banker's hand (``M`` to 1 otherwise).  The Tie's
#: "5:1" carries no range: read as 5M:1 on every card dealt (Lightning's reading); the
#: inverse also tries one hand's cards and no multiplier.  "Durchschnittliche
#: Ausschüttung": Player ca. 98,9 %, Banker ca. 98,7%, P Pair and B Pair ca. 86%, Tie
#: ca. 93,4%.  The "max 500,000 EUR per round" is a payout limit on the round (at the
#: Tie's maximum stake of 50 EUR, 10,000 to 1), not modelled.  The same mechanism is
#: described for Fortune God Baccarat (https://docs.pkg333.app/en/introduction/rich_baccarat:
#: "randomly selects 5 cards from the 52-card virtual deck", "2x, 3x, 5x, or 8x", "the
#: multipliers will be multiplied together ... with a maximum cap of 576x"), not added.
GOLDEN_WEALTH = OverlayGame(
    key="golden_wealth",
    name="Golden Wealth Baccarat (Evolution)",
    short="Golden Wealth",
    decks=8,
    cards={5: Fraction(1)},
    families={"k=5": {5: Fraction(1)}},
    multiplier_values=(2, 3, 5, 8),
    fee=Fraction(1, 5),
    fee_mode="stake",
    bets=GOLDEN_WEALTH_BETS,
    published={
        "player": Fraction(989, 1000),
        "banker": Fraction(987, 1000),
        "tie": Fraction(934, 1000),
        "player_pair": Fraction(86, 100),
        "banker_pair": Fraction(86, 100),
    },
    digits={"player": 1, "banker": 1, "tie": 1, "player_pair": 0, "banker_pair": 0},
    match=("player", "banker", "tie", "player_pair", "banker_pair"),
    sources=(
        "https://www.win2day.at/fairplay/spielbedingungen/firstpersongoldenwealthbaccarat-spielbedingungen",
        "https://docs.pkg333.app/en/introduction/rich_baccarat",
    ),
    summary="5 gold cards of 52, x2 x3 x5 x8; 20% gold fee on top",
    card_name="gold cards",
    default_cards=5,
    readings=(
        Reading("as stated"),
        Reading("fee of the outlay", fee_mode="total"),
        Reading("per identity", per="identity"),
        Reading("Banker 0.95 M", banker="win"),
        Reading("Banker 0.95:1 only unmultiplied", banker="unlit"),
        Reading("fee of the outlay, per identity", fee_mode="total", per="identity"),
        Reading("fee of the outlay, Banker 0.95 M", fee_mode="total", banker="win"),
        Reading("per identity, Banker 0.95 M", per="identity", banker="win"),
        Reading("fee of the outlay, per identity, Banker 0.95 M", fee_mode="total", per="identity", banker="win"),
        Reading("Tie on the Player's cards", tie="player"),
        Reading("Tie on the Banker's cards", tie="banker"),
        Reading("Tie not multiplied", tie="none"),
    ),
)

#: The registry: ``baccarat overlay --game KEY``.
GAMES: dict[str, OverlayGame] = {g.key: g for g in (LIGHTNING, GOLDEN_WEALTH)}
