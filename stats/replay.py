"""The replay viewer: one finished hand, step by step, with every card face
up (docs/rules.md: once a hand is over the whole deal may be shown to its players).

Only ever called for finished hands; the callers check that."""

from __future__ import annotations

from typing import Any

from games import engine
from games.presenters import SUIT_NAMES, card


def describe(action: dict[str, Any], names: dict[int, str], dealer: int) -> str:
    """An action in words, for the step list and the screen reader."""
    who = names[action["seat"]]
    kind = action["type"]
    if kind == "pass":
        return f"{who} passes."
    if kind == "order":
        return f"{who}: “{engine.call_name(dealer, action['seat'])}”."
    if kind == "name":
        return f"{who} names {SUIT_NAMES[action['suit']]} as trump."
    if kind == "joker_suit":
        return f"{who} names {SUIT_NAMES[action['suit']]} for the Joker."
    if kind == "pickup":
        return f"{who} picks up the up card and discards the {engine.card_name(action['discard'])}."
    if kind == "leave":
        return f"{who} leaves the up card."
    if kind == "dummy":
        return f"{who} uses the dummy."
    if kind == "alone":
        return f"{who} goes alone."
    if kind == "play":
        return f"{who} plays the {engine.card_name(action['card'])}."
    return f"{who}: {kind}."


def step_context(record: dict[str, Any], step: int, names: dict[int, str]) -> dict[str, Any]:
    """What the viewer shows after the first `step` actions of a finished hand."""
    actions = record["actions"]
    total = len(actions)
    step = max(0, min(step, total))
    state = engine.hand_from_record({**record, "actions": actions[:step]})
    dealer = record["dealer"]
    views = [engine.view(state, s) for s in range(3)]
    pub = engine.view(state, None)
    final = engine.replay_hand(record)
    deal = record["deal"]
    dummy_used = any(a["type"] == "dummy" for a in actions[:step])
    seats = []
    for s in range(3):
        seats.append(
            {
                "seat": s,
                "name": names[s],
                "dealer": s == dealer,
                "maker": pub["maker"] == s,
                "alone": s in pub["alone"],
                "sitting_out": pub["sitting_out"] == s,
                "tricks": pub["tricks_won"][s],
                "to_act": pub["to_act"] == s,
                "cards": [card(c) for c in views[s]["hand"] or []],
                "dealt": [card(c) for c in deal["hands"][s]],
            }
        )
    last_trick = pub["tricks"][-1] if pub["tricks"] else None
    return {
        "step": step,
        "total": total,
        "prev": step - 1 if step > 0 else None,
        "next": step + 1 if step < total else None,
        "seats": seats,
        "dummy": [card(c) for c in deal["dummy"]],
        "dummy_used": dummy_used,
        "kitty": [card(c) for c in deal["kitty"]],
        "up_card": card(deal["kitty"][0]),
        "trump": SUIT_NAMES.get(pub["trump"] or ""),
        "current_trick": [{"player": names[s], "card": card(c)} for s, c in pub["current_trick"]],
        "last_trick": None
        if last_trick is None
        else {
            "winner": names[last_trick["winner"]],
            "cards": [{"player": names[s], "card": card(c)} for s, c in last_trick["cards"]],
        },
        "just_done": describe(actions[step - 1], names, dealer) if step else "The deal.",
        "steps": [{"n": i + 1, "text": describe(a, names, dealer)} for i, a in enumerate(actions)],
        "result": final if step == total else None,
        "discards": [[card(c) for c in per] for per in (views[0]["deal"] or {}).get("discards", [])]
        if step == total
        else None,
    }
