"""Cards as small ints and bitmasks, and the one place where cards are ranked.

A card is an int: ``suit * 8 + rank`` with suits ``C D H S`` = 0..3 and ranks
``7 8 9 T J Q K A`` = 0..7; the Joker is 32. A set of cards is an int with
bit ``1 << card`` set for each card, so a hand is one int and "cards of the
led suit in my hand" is one ``&``.

Everything that depends on trump (the bowers, the Joker, which suit a card
follows, how cards compare) is computed once per trump suit into the tables
below, from :func:`_effective_suit` and :func:`_trump_order` only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SUITS = "CDHS"
RANKS = "789TJQKA"
JOKER = 32
N_CARDS = 33

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("7", "8", "9", "10", "Jack", "Queen", "King", "Ace")

CARD_STRS: tuple[str, ...] = (*tuple(r + s for s in SUITS for r in RANKS), "JK")
CARD_INDEX: dict[str, int] = {c: i for i, c in enumerate(CARD_STRS)}
SUIT_INDEX: dict[str, int] = {s: i for i, s in enumerate(SUITS)}

JACK = 4
NINE = 2


def card_from_str(text: str) -> int:
    """Card notation ("9C", "JK") to the card's int; raises ValueError."""
    try:
        return CARD_INDEX[text]
    except (KeyError, TypeError):
        raise ValueError(f"not a card: {text!r}") from None


def card_str(card: int) -> str:
    """The card's notation ("9C", "JK")."""
    return CARD_STRS[card]


def suit_of(card: int) -> int:
    """Printed suit (0..3) of a card; the Joker has none (-1)."""
    return -1 if card == JOKER else card >> 3


def rank_of(card: int) -> int:
    """Printed rank (0..7, 7 = ace) of a card; -1 for the Joker."""
    return -1 if card == JOKER else card & 7


def bit(card: int) -> int:
    """The one-card mask."""
    return 1 << card


def mask_of(cards: Iterable[int]) -> int:
    """The mask holding the given cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# _BYTE_CARDS[p][b]: the cards of bits b (a byte) at byte position p of a mask.
_BYTE_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * p + k for k in range(8) if b >> k & 1) for b in range(256)) for p in range(5)
)
_B0, _B1, _B2, _B3, _B4 = _BYTE_CARDS


def cards_tuple(mask: int) -> tuple[int, ...]:
    """The cards of a mask, lowest int first, as a tuple (a byte at a time: fast)."""
    return (
        _B0[mask & 255]
        + _B1[mask >> 8 & 255]
        + _B2[mask >> 16 & 255]
        + _B3[mask >> 24 & 255]
        + _B4[mask >> 32]
    )


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest int first."""
    return list(cards_tuple(mask))


def count(mask: int) -> int:
    """How many cards a mask holds."""
    return mask.bit_count()


def mask_to_strs(mask: int) -> list[str]:
    """Notation of every card in a mask."""
    return [CARD_STRS[c] for c in cards_of(mask)]


def strs_to_mask(cards: Iterable[str]) -> int:
    """Mask of cards given in notation; raises ValueError on a bad card."""
    return mask_of(card_from_str(c) for c in cards)


def deck_cards(deck: str) -> list[int]:
    """The cards of a deck option ("24", "32", "25"), as ints."""
    low = 0 if deck == "32" else NINE
    cards = [s * 8 + r for s in range(4) for r in range(low, 8)]
    if deck == "25":
        cards.append(JOKER)
    return cards


DECK_MASKS: dict[str, int] = {d: mask_of(deck_cards(d)) for d in ("24", "32", "25")}


# --- ranking: the only code that knows about bowers and the Joker ----------


def _left_bower_suit(trump: int) -> int:
    # Clubs/spades (0, 3) and diamonds/hearts (1, 2) are the same colour.
    return 3 - trump


def _effective_suit(card: int, trump: int) -> int:
    if card == JOKER:
        return trump
    s, r = card >> 3, card & 7
    if r == JACK and s == _left_bower_suit(trump):
        return trump
    return s


def _trump_order(card: int, trump: int) -> int:
    """Order among trumps, higher wins: Joker, right, left, then A..7."""
    if card == JOKER:
        return 10
    if card & 7 == JACK:
        return 9 if card >> 3 == trump else 8
    return card & 7


# EFF_SUIT[trump][card]: the suit a card belongs to under that trump.
EFF_SUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_effective_suit(c, t) for c in range(N_CARDS)) for t in range(4)
)
# SUIT_MASK[trump][suit]: every card that follows `suit` under `trump`.
SUIT_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(mask_of(c for c in range(N_CARDS) if EFF_SUIT[t][c] == s) for s in range(4))
    for t in range(4)
)
# POWER[trump][led][card]: compare cards of one trick; the highest wins.
# Trumps beat the led suit, which beats everything else (0: cannot win).
POWER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            100 + _trump_order(c, t)
            if EFF_SUIT[t][c] == t
            else (50 + (c & 7) if EFF_SUIT[t][c] == led else 0)
            for c in range(N_CARDS)
        )
        for led in range(4)
    )
    for t in range(4)
)


def effective_suit(card: int | str, trump: int | str | None) -> int:
    """The suit (0..3) a card follows: trump for the bowers and the Joker (-1: Joker, no trump).

    Accepts ints or notation ("JD", "H"); bots on a hot path use EFF_SUIT directly.
    """
    c = card_from_str(card) if isinstance(card, str) else card
    t = SUIT_INDEX[trump] if isinstance(trump, str) else trump
    if t is None:
        return suit_of(c)
    return EFF_SUIT[t][c]


def winner_of(trick: Sequence[tuple[int, int]], power: Sequence[int]) -> int:
    """The seat that wins `trick`, its (seat, card) pairs in the order played,
    ranked by `power` (POWER[trump][led]): the highest card wins, the first
    of equals (none are). `apply` ranks a trick the same way a card at a
    time, keeping the best so far (tests/engine/test_rules.py holds them equal)."""
    best = -1
    w = trick[0][0]
    for s, c in trick:
        p = power[c]
        if p > best:
            best = p
            w = s
    return w


def trick_winner(cards_in_order: Sequence[int], led_by_first: int | None, trump: int) -> int:
    """Position in `cards_in_order` of the winning card (`winner_of`, by position).

    `led_by_first` is the suit led (the effective suit of the first card);
    pass None to have it derived from the first card.
    """
    led = EFF_SUIT[trump][cards_in_order[0]] if led_by_first is None else led_by_first
    return winner_of(tuple(enumerate(cards_in_order)), POWER[trump][led])


def sort_key(card: int, trump: int | None) -> tuple[int, int]:
    """Display order: trump first, then C D H S; high cards first within a suit."""
    if trump is None:
        if card == JOKER:
            return (-1, 0)
        return (card >> 3, -(card & 7))
    s = EFF_SUIT[trump][card]
    if s == trump:
        return (-1, -_trump_order(card, trump))
    return (s, -(card & 7))


def card_name(card: str | int) -> str:
    """Readable name: "Jack of hearts", "10 of clubs", "Joker"."""
    c = card_from_str(card) if isinstance(card, str) else card
    if c == JOKER:
        return "Joker"
    return f"{RANK_NAMES[c & 7]} of {SUIT_NAMES[c >> 3]}"


def suit_name(suit: str | int) -> str:
    """Readable suit name: "hearts"."""
    s = SUIT_INDEX[suit] if isinstance(suit, str) else suit
    return SUIT_NAMES[s]
