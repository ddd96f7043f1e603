"""Building views for the bot tests: from hand records, through the engine, as the site does."""

from __future__ import annotations

from collections.abc import Mapping

from games.engine import ActionDict, HandView, hand_from_record, view

# An action in compact form: (seat, type, its field: a card, a suit or the five kept).
Compact = tuple[int, str, str | None]


def record(
    dealer: int,
    hands: list[str],
    dummy: str,
    kitty: str,
    actions: list[Compact],
    **rules: str | bool | int,
) -> dict[str, object]:
    """A hand record from compact text: hands as "9C TC JC QC KC", actions as (seat, type, field)."""
    acts = []
    for seat, t, arg in actions:
        a: ActionDict = {"seat": seat, "type": t}
        if arg is not None and t == "play":
            a["card"] = arg
        elif arg is not None and t == "pickup":
            a["discard"] = arg
        elif arg is not None and t in ("name", "joker_suit"):
            a["suit"] = arg
        elif arg is not None and t == "dummy":
            a["keep"] = arg.split()
        acts.append(a)
    return {
        "format": "euchre3-hand/1",
        "rules": rules,
        "dealer": dealer,
        "deal": {
            "hands": [h.split() for h in hands],
            "dummy": dummy.split(),
            "kitty": kitty.split(),
        },
        "actions": acts,
    }


def seat_view(rec: Mapping[str, object], seat: int) -> HandView:
    """The view of `seat` after the record's actions."""
    return view(hand_from_record(rec), seat)


def plays(*tricks: str) -> list[Compact]:
    """Play actions from "1:QD 2:TC 0:KD" strings."""
    out: list[Compact] = []
    for t in tricks:
        for item in t.split():
            s, c = item.split(":")
            out.append((int(s), "play", c))
    return out
