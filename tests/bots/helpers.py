"""Building views for the bot tests: from hand records, through the engine, as the site does."""

from __future__ import annotations

from typing import Any

from games.engine import HandView, hand_from_record, view


def record(
    dealer: int,
    hands: list[str],
    dummy: str,
    kitty: str,
    actions: list[tuple[int, str, Any]],
    **rules: Any,
) -> dict[str, Any]:
    """A hand record from compact text: hands as "9C TC JC QC KC", actions as (seat, type, field)."""
    acts = []
    for seat, t, arg in actions:
        a: dict[str, Any] = {"seat": seat, "type": t}
        if t == "play":
            a["card"] = arg
        elif t == "pickup":
            a["discard"] = arg
        elif t in ("name", "joker_suit"):
            a["suit"] = arg
        elif t == "dummy":
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


def seat_view(rec: dict[str, Any], seat: int) -> HandView:
    """The view of `seat` after the record's actions."""
    return view(hand_from_record(rec), seat)


def plays(*tricks: str) -> list[tuple[int, str, Any]]:
    """Play actions from "1:QD 2:TC 0:KD" strings."""
    out: list[tuple[int, str, Any]] = []
    for t in tricks:
        for item in t.split():
            s, c = item.split(":")
            out.append((int(s), "play", c))
    return out
