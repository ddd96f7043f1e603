"""The figures of one finished hand, per seat, read from its record and
replay result (docs/hand-record.md). Pure functions: no database."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from django.utils.translation import ngettext, pgettext

from games import engine

# A stored hand record (euchre3-hand/1, docs/hand-record.md) as the statistics
# read it: Hand.record, ImportedGame.record's hands. Wider than the engine's
# HandRecord (what the engine writes): a stored record's actions carry the
# site's `by`, and an imported record may leave out `rules`.


class RecordAction(TypedDict):
    """One action of a hand record; `auto` and `by` mark a move a bot made for
    the seat's person (games.services.game_act)."""

    seat: int
    type: str
    suit: NotRequired[str]
    card: NotRequired[str]
    discard: NotRequired[str]
    keep: NotRequired[list[str]]
    auto: NotRequired[bool]
    by: NotRequired[str]  # "autopilot" or "stand-in"


RecordDeal = engine.RecordDeal


class HandRecord(TypedDict):
    format: str
    rules: NotRequired[dict[str, object]]
    dealer: int
    deal: RecordDeal
    actions: list[RecordAction]


class SeatFacts(TypedDict):
    """One seat's fact-table fields of a finished hand (HandFact's columns)."""

    seat: int
    position: int
    thrown_in: bool
    maker: bool
    call_round: int | None
    maker_alone: bool
    maker_dummy: bool
    made: bool
    march: bool
    euchred: bool
    defender: bool
    defender_euchre: bool
    defended_alone: bool
    defended_alone_won: bool
    defended_alone_march: bool
    sat_out: bool
    trump: str
    dealer_chance: bool
    dealer_pickup: bool
    tricks: int
    points: int


def rules_key(rules: Mapping[str, object]) -> str:
    """A short stable name of a rule set: "24", "24 stick", "32 turned march4"."""
    parts = [str(rules.get("deck", "24"))]
    if rules.get("stick_the_dealer"):
        parts.append("stick")
    if rules.get("second_round_turned_suit"):
        parts.append("turned")
    march = rules.get("lone_maker_march", 3)
    if isinstance(march, (int, float, str)) and int(march) == 4:
        parts.append("march4")
    return " ".join(parts)


def rules_label(key: str) -> str:
    """A rule set in words, in the reader's language: "24-card deck, stick the dealer"."""
    deck, *rest = key.split(" ")
    if deck.isdigit():
        n = int(deck)
        # Translators: a rule set in the statistics (games by rules): the deck played with; %(n)s is its number of cards (24, 25 or 32).
        parts = [ngettext("%(n)s-card deck", "%(n)s-card deck", n) % {"n": n}]
    else:
        parts = [deck]
    said = {
        # Translators: a rule set in the statistics, after the deck ("24-card deck, stick the dealer"): the rule "stick the dealer" (when all three players pass twice, the dealer must choose trump).
        "stick": pgettext("rule set", "stick the dealer"),
        # Translators: a rule set in the statistics, after the deck ("24-card deck, turned suit"): in the second round of bidding the suit of the turned-down up card may be named trump.
        "turned": pgettext("rule set", "turned suit"),
        # Translators: a rule set in the statistics, after the deck ("24-card deck, lone march 4"): a maker who plays alone and takes all five tricks (a march) scores 4 points.
        "march4": pgettext("rule set", "lone march 4"),
    }
    parts += [said.get(r, r) for r in rest]
    # Translators: the separator between the parts of a rule set ("24-card deck, stick the dealer"): a comma and a space in English.
    return pgettext("list separator", ", ").join(parts)


def seat_facts(record: HandRecord, result: engine.HandResult) -> list[SeatFacts]:
    """For each seat 0-2, the fact-table fields of a finished hand. Its
    outcome (made, march, euchred, thrown in; alone or with the dummy; the
    call's round) is the engine's (engine.outcome_of), not worked out here."""
    dealer = record["dealer"]
    actions = record["actions"]
    said = engine.outcome_of(dict(record), dict(result))
    outcome = said["outcome"]
    call_round = said["call_round"]
    maker = result.get("maker")
    alone = set(result.get("alone") or [])
    tricks = result.get("tricks") or [0, 0, 0]
    points = result.get("points") or [0, 0, 0]
    picked_up = any(a.get("type") == "pickup" for a in actions)
    euchred = outcome == engine.Outcome.EUCHRED
    maker_tricks = tricks[maker] if maker is not None else 0
    out: list[SeatFacts] = []
    for seat in range(3):
        is_maker = maker is not None and seat == maker
        is_defender = maker is not None and seat != maker
        defended_alone = is_defender and seat in alone
        out.append(
            {
                "seat": seat,
                "position": (seat - dealer) % 3,
                "thrown_in": outcome == engine.Outcome.THROWN_IN,
                "maker": is_maker,
                "call_round": call_round if is_maker else None,
                "maker_alone": is_maker and said["maker_play"] == engine.MakerPlay.ALONE,
                "maker_dummy": is_maker and said["maker_play"] == engine.MakerPlay.DUMMY,
                "made": is_maker and outcome in (engine.Outcome.MADE, engine.Outcome.MARCH),
                "march": is_maker and outcome == engine.Outcome.MARCH,
                "euchred": is_maker and euchred,
                "defender": is_defender,
                "defender_euchre": is_defender and euchred,
                "defended_alone": defended_alone,
                "defended_alone_won": defended_alone and euchred,
                # The defenders took all five: the maker took none.
                "defended_alone_march": defended_alone and maker_tricks == 0,
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


# --------------------------------------------------------------------------- who played a seat

# Why a game is not rated for a person, or rated otherwise (GameFact.rating_note).
BOT_ONLY = "bot_only"  # a bot made every decision of their seat: not their game at all
MOSTLY_BOT = "mostly_bot"  # a bot made more than half of them: unrated, never a win
LEFT = "left"  # they played, left, and a stand-in finished the game: rated last
HINTS = "hints"  # a table with hints: nobody is rated
DAILY = "daily"  # the daily deal: scored on its own page
GUEST = "guest"  # played as a guest (accounts.guests), before signing up: never rated


def bot_made(action: RecordAction) -> bool:
    """Whether a bot made this action for its seat's person: a time-out's move
    (`"auto": true`), their autopilot or a stand-in (`"by"`, games.services.game_act)."""
    return bool(action.get("auto")) or action.get("by") in ("autopilot", "stand-in")


@dataclass(frozen=True, slots=True)
class SeatPlay:
    """Who made one seat's decisions in a game (or a hand)."""

    decisions: int = 0
    by_bot: int = 0
    left: bool = False  # the seat's last decision was a stand-in's

    @property
    def note(self) -> str:
        """ "" when the person played the seat, else BOT_ONLY, LEFT or MOSTLY_BOT."""
        if self.decisions and self.by_bot == self.decisions:
            return BOT_ONLY
        if self.left:
            return LEFT
        if 2 * self.by_bot > self.decisions:
            return MOSTLY_BOT
        return ""


def seat_play(records: Iterable[HandRecord], seat: int) -> SeatPlay:
    """Count `seat`'s decisions in these hand records, in order, and the bots' among them."""
    decisions = by_bot = 0
    last: RecordAction | None = None
    for record in records:
        for action in record.get("actions") or []:
            if action.get("seat") != seat:
                continue
            decisions += 1
            by_bot += bot_made(action)
            last = action
    left = last is not None and last.get("by") == "stand-in"
    return SeatPlay(decisions=decisions, by_bot=by_bot, left=left)
