"""A hand state from a deal someone imagined: the bots' door into the engine.

A search bot knows its own cards and what was played and said; it samples
the rest (the others' hands, the dummy, the kitty) consistently with what it
saw and wants to try its options on that deal. `state_from_deal` builds the
state the engine would be in had that deal been dealt and the same actions
taken, so the bot can then use `legal_actions`, `apply` and `result` on it
like any other state: the rules of the sample are the engine's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .actions import Action, ActionDict
from .cards import CARD_INDEX, DECK_MASKS
from .hand import HandState, _start
from .records import apply_recorded
from .rules import ErrorCode, MalformedAction, Rules

Cards = Iterable[int] | Iterable[str]


def _ints(cards: Cards) -> tuple[int, ...]:
    return tuple(c if isinstance(c, int) else CARD_INDEX[c] for c in cards)


def state_from_deal(
    rules: Rules,
    dealer: int,
    hands: Sequence[Cards],
    dummy: Cards,
    kitty: Cards,
    history: Iterable[Action | ActionDict] = (),
) -> HandState:
    """The state after `history` from this deal (cards as ints or notation).

    `hands` are the three hands as dealt, `dummy` its five cards and `kitty`
    the rest with the up card first. `history` is a seat's view's history
    with its hidden fields filled in by the sampler (a pickup's discard, a
    dummy's keep); as in a hand record, a `dummy` with `keep` is the maker's
    two steps at once, and a last `dummy` without `keep` is a maker choosing
    the five to keep. Raises MalformedAction for a deal that is not one deck
    dealt once, IllegalAction (as `apply`) if the history does not fit it.
    """
    hs = tuple(_ints(h) for h in hands)
    d = _ints(dummy)
    k = _ints(kitty)
    if len(hs) != 3 or any(len(h) != 5 for h in hs) or len(d) != 5:
        raise MalformedAction("five cards to each hand and the dummy", ErrorCode.BAD_DEAL)
    m = 0
    n = 0
    for c in (*hs[0], *hs[1], *hs[2], *d, *k):
        m |= 1 << c
        n += 1
    if m != DECK_MASKS[rules.deck] or n != m.bit_count() or len(k) != rules.kitty_size:
        raise MalformedAction(
            "the deal must hold the deck once, the rest in the kitty", ErrorCode.BAD_DEAL
        )
    state = _start(rules, dealer, hs, d, k, {})
    acts = [a if isinstance(a, Action) else Action.from_dict(a) for a in history]
    for idx, a in enumerate(acts):
        state = apply_recorded(state, a, pending_keep=idx == len(acts) - 1)
    return state
