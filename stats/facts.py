"""The figures of one finished hand, per seat, read from its record and
replay result (docs/hand-record.md). Pure functions: no database."""

from __future__ import annotations

from typing import Any


def rules_key(rules: dict[str, Any]) -> str:
    """A short stable name of a rule set: "24", "24 stick", "32 turned march4"."""
    parts = [str(rules.get("deck", "24"))]
    if rules.get("stick_the_dealer"):
        parts.append("stick")
    if rules.get("second_round_turned_suit"):
        parts.append("turned")
    if int(rules.get("lone_maker_march", 3)) == 4:
        parts.append("march4")
    return " ".join(parts)


def rules_label(key: str) -> str:
    words = {"stick": "stick the dealer", "turned": "turned suit", "march4": "lone march 4"}
    deck, *rest = key.split(" ")
    return ", ".join([f"{deck}-card deck", *(words.get(r, r) for r in rest)])


def seat_facts(record: dict[str, Any], result: dict[str, Any]) -> list[dict[str, Any]]:
    """For each seat 0-2, the fact-table fields of a finished hand."""
    dealer = record["dealer"]
    actions = record["actions"]
    maker = result.get("maker")
    alone = set(result.get("alone") or [])
    tricks = result.get("tricks") or [0, 0, 0]
    points = result.get("points") or [0, 0, 0]
    thrown_in = bool(result.get("thrown_in"))
    call = next((a for a in actions if a.get("type") in ("order", "name")), None)
    call_round = None if call is None else (1 if call["type"] == "order" else 2)
    dummy_used = any(a.get("type") == "dummy" for a in actions)
    picked_up = any(a.get("type") == "pickup" for a in actions)
    maker_tricks = tricks[maker] if maker is not None else 0
    defenders_tricks = 5 - maker_tricks
    out = []
    for seat in range(3):
        is_maker = maker is not None and seat == maker
        is_defender = maker is not None and seat != maker
        defended_alone = is_defender and seat in alone
        out.append(
            {
                "seat": seat,
                "position": (seat - dealer) % 3,
                "thrown_in": thrown_in,
                "maker": is_maker,
                "call_round": call_round if is_maker else None,
                "maker_alone": is_maker and seat in alone,
                "maker_dummy": is_maker and dummy_used,
                "made": is_maker and maker_tricks >= 3,
                "march": is_maker and maker_tricks == 5,
                "euchred": is_maker and maker_tricks < 3,
                "defender": is_defender,
                "defender_euchre": is_defender and maker_tricks < 3,
                "defended_alone": defended_alone,
                "defended_alone_won": defended_alone and defenders_tricks >= 3,
                "defended_alone_march": defended_alone and defenders_tricks == 5,
                "sat_out": result.get("sitting_out") == seat,
                "trump": (result.get("trump") or "") if maker is not None else "",
                "dealer_chance": seat == dealer and call_round == 1 and maker != dealer,
                "dealer_pickup": seat == dealer
                and call_round == 1
                and maker != dealer
                and picked_up,
                "tricks": tricks[seat],
                "points": points[seat],
            }
        )
    return out
