"""What a bot knows, read from one seat's view (never from the full state).

`Knowledge.from_view` turns the JSON-ready view dict of `games.engine.view`
(or `game_view`, which adds `scores` and `target`) into bitmask cards and the
facts a player can infer: who showed out of which suit, which cards are gone,
where the dealer's up card is. Every bot starts here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from games.engine.actions import Action, ActionDict
from games.engine.cards import (
    CARD_INDEX,
    CARD_STRS,
    DECK_MASKS,
    EFF_SUIT,
    JOKER,
    POWER,
    SUIT_INDEX,
    SUIT_MASK,
    SUITS,
    cards_of,
)
from games.engine.rules import TARGET_DEFAULT, next_seat
from games.engine.views import HandView, TrickDict


def _by_strength(t: int, s: int) -> tuple[int, ...]:
    cs = [c for c in range(33) if EFF_SUIT[t][c] == s]
    cs.sort(key=lambda c: -POWER[t][s][c])
    return tuple(cs)


# ORDER[trump][suit]: the cards that follow `suit` under `trump`, strongest first.
ORDER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_by_strength(t, s) for s in range(4)) for t in range(4)
)


_ALL = (1 << 33) - 1


def card(text: str) -> int:
    """Card notation to int."""
    return CARD_INDEX[text]


def mask(cards: Iterable[str] | None) -> int:
    """Mask of cards given in notation (None: no cards)."""
    m = 0
    for c in cards or ():
        m |= 1 << CARD_INDEX[c]
    return m


def lowest(cards_mask: int, trump: int, led: int) -> int:
    """The weakest card of a mask in a trick where `led` was led (ties: lowest rank)."""
    power = POWER[trump][led]
    return min(cards_of(cards_mask), key=lambda c: (power[c], _rank_value(c, trump)))


def highest(cards_mask: int, trump: int, led: int) -> int:
    """The strongest card of a mask in a trick where `led` was led."""
    power = POWER[trump][led]
    return max(cards_of(cards_mask), key=lambda c: (power[c], _rank_value(c, trump)))


def _rank_value(c: int, trump: int) -> int:
    # Tie-break among cards that cannot win: keep trumps and high ranks.
    if EFF_SUIT[trump][c] == trump:
        return 100 + POWER[trump][trump][c]
    return c & 7


def is_boss(c: int, trump: int, gone: int) -> bool:
    """True if no card still out (not in `gone`) beats `c` within its own suit."""
    s = EFF_SUIT[trump][c]
    for x in ORDER[trump][s]:
        if x == c:
            return True
        if not gone >> x & 1:
            return False
    return True


@dataclass(slots=True)
class Knowledge:
    """One seat's knowledge of a hand, from its view."""

    seat: int
    phase: str
    dealer: int
    to_act: int | None
    deck: str
    deck_mask: int
    stick: bool
    turned_ok: bool
    lone_march: int
    hand: int
    up_card: int | None
    up_suit: int | None
    up_taken: bool | None
    trump: int | None
    maker: int | None
    alone: tuple[int, ...]
    sitting_out: int | None
    dummy: int
    discards: int
    played: int
    tricks: list[tuple[int, list[tuple[int, int]], int]]
    trick: list[tuple[int, int]]
    leader: int | None
    tricks_won: list[int]
    hand_counts: list[int]
    history: list[ActionDict]  # the view's public actions (hidden fields left out)
    legal: list[Action]
    scores: list[int]
    target: int
    exchange: int = 0
    joker_suit: int | None = None
    turned_down: int | None = None  # the up card turned down: everyone saw it
    voids: list[int] = field(default_factory=lambda: [0, 0, 0])

    @classmethod
    def from_view(cls, view: HandView) -> Knowledge:
        """Read a seat's view: the engine's typed hand view, or its game view
        (a GameView is a HandView with the game's facts added). The score
        and target are read from a game view; a hand view alone has none, and
        the score is then taken as 0-0-0 to TARGET_DEFAULT."""
        seat = view["seat"]
        if seat is None:
            raise ValueError("a bot reads one seat's view, not a spectator's")
        rules = view["rules"]
        deck = rules["deck"]
        trump_s = view["trump"]
        trump = SUIT_INDEX[trump_s] if trump_s else None
        up = view["up_card"]
        up_suit = view["up_suit"]
        tricks = [
            (_trick_leader(t), [(s, CARD_INDEX[c]) for s, c in t["cards"]], t["winner"])
            for t in view["tricks"]
        ]
        trick = [(s, CARD_INDEX[c]) for s, c in view["current_trick"]]
        played = 0
        for _, cs, _ in tricks:
            for _, c in cs:
                played |= 1 << c
        for _, c in trick:
            played |= 1 << c
        # A game view's own fields (HandView does not have them: read as optional).
        scores = view.get("scores")
        target = view.get("target")
        joker_suit = view["joker_suit"]
        turned_down = view["turned_down"]
        k = cls(
            seat=seat,
            phase=str(view["phase"]),
            dealer=view["dealer"] or 0,
            to_act=view["to_act"],
            deck=deck,
            deck_mask=DECK_MASKS[deck],
            stick=rules["stick_the_dealer"],
            turned_ok=rules["second_round_turned_suit"],
            lone_march=rules["lone_maker_march"],
            hand=mask(view["hand"]),
            up_card=CARD_INDEX[up] if up else None,
            up_suit=SUIT_INDEX[up_suit] if up_suit else None,
            up_taken=view["up_card_taken"],
            trump=trump,
            maker=view["maker"],
            alone=tuple(view["alone"]),
            sitting_out=view["sitting_out"],
            dummy=mask(view["dummy"]),
            discards=mask(view["my_discards"]),
            played=played,
            tricks=tricks,
            trick=trick,
            leader=view["leader"],
            tricks_won=list(view["tricks_won"]),
            hand_counts=list(view["hand_counts"]),
            history=list(view["history"]),
            legal=[Action.from_dict(a) for a in view["legal_actions"]],
            scores=_scores(scores),
            target=target if type(target) is int else TARGET_DEFAULT,
            exchange=mask(view["exchange"]),
            joker_suit=SUIT_INDEX[joker_suit] if joker_suit else None,
            turned_down=CARD_INDEX[turned_down] if turned_down else None,
        )
        if trump is not None:
            k._infer_voids()
        return k

    def _infer_voids(self) -> None:
        assert self.trump is not None
        eff = EFF_SUIT[self.trump]
        for _, cs, _ in self.tricks:
            self._voids_in(cs, eff)
        if self.trick:
            self._voids_in(self.trick, eff)

    def _voids_in(self, cs: list[tuple[int, int]], eff: tuple[int, ...]) -> None:
        led = eff[cs[0][1]]
        for s, c in cs[1:]:
            if eff[c] != led:
                self.voids[s] |= 1 << led

    # --- derived facts -------------------------------------------------------

    @property
    def active(self) -> list[int]:
        """Seats that play cards this hand."""
        return [s for s in range(3) if s != self.sitting_out]

    def next_seat(self, s: int) -> int:
        """The next active seat clockwise."""
        return next_seat(s, self.sitting_out)

    def is_defender(self, s: int) -> bool:
        return self.maker is not None and s != self.maker

    def partner(self) -> int | None:
        """The other defender when this seat defends and both defenders play."""
        if self.maker is None or self.seat == self.maker or self.sitting_out is not None:
            return None
        return 3 - self.seat - self.maker

    def up_in_dealer_hand(self) -> int | None:
        """The up card, when everyone knows the dealer holds it."""
        if self.up_taken and self.up_card is not None and not self.played >> self.up_card & 1:
            return self.up_card
        return None

    def unseen(self) -> int:
        """Cards whose place this seat does not know (other hands, dummy, kitty, discards)."""
        known = self.hand | self.played | self.discards | self.dummy
        up = self.up_in_dealer_hand()
        if up is not None:
            known |= 1 << up
        if self.phase in ("bid1", "dealer_pickup", "joker_suit") and self.up_card is not None:
            known |= 1 << self.up_card
        if self.turned_down is not None:
            known |= 1 << self.turned_down
        return self.deck_mask & ~known

    def led_suit(self) -> int | None:
        if not self.trick or self.trump is None:
            return None
        return EFF_SUIT[self.trump][self.trick[0][1]]

    def current_winner(self) -> tuple[int, int] | None:
        """(seat, card) winning the trick in progress."""
        if not self.trick or self.trump is None:
            return None
        led = EFF_SUIT[self.trump][self.trick[0][1]]
        power = POWER[self.trump][led]
        best = max(self.trick, key=lambda sc: power[sc[1]])
        return best

    def gone(self) -> int:
        """Cards this seat knows cannot be played by anyone else: played, own, own discards."""
        return self.played | self.hand | self.discards | (_ALL & ~self.deck_mask)


def _trick_leader(t: TrickDict) -> int:
    """Who led a completed trick (a view's trick always names its leader)."""
    leader = t["leader"]
    return t["cards"][0][0] if leader is None else leader


def _scores(scores: object) -> list[int]:
    """A game view's scores, or 0-0-0 (a hand view has none)."""
    if isinstance(scores, list) and len(scores) == 3 and all(type(x) is int for x in scores):
        return list(scores)
    return [0, 0, 0]


def play_action(seat: int, c: int) -> Action:
    return Action(seat, "play", card=CARD_STRS[c])


def keep_action(seat: int, keep: int) -> Action:
    """The maker's five cards to keep, from a mask."""
    return Action(seat, "dummy", keep=tuple(CARD_STRS[c] for c in cards_of(keep)))


def legal_cards(k: Knowledge) -> int:
    """Mask of the cards among the legal plays."""
    m = 0
    for a in k.legal:
        if a.type == "play" and a.card is not None:
            m |= 1 << CARD_INDEX[a.card]
    return m


def find(legal: list[Action], type_: str, **fields: str | None) -> Action | None:
    """The legal action of this type (and fields), if any."""
    for a in legal:
        if a.type == type_ and all(getattr(a, f) == v for f, v in fields.items()):
            return a
    return None


def trump_count(hand: int, trump: int) -> int:
    return (hand & SUIT_MASK[trump][trump]).bit_count()


__all__ = [
    "CARD_STRS",
    "JOKER",
    "ORDER",
    "SUITS",
    "Action",
    "Knowledge",
    "card",
    "find",
    "highest",
    "is_boss",
    "keep_action",
    "legal_cards",
    "lowest",
    "mask",
    "play_action",
    "trump_count",
]
