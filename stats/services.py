"""Statistics: fill the fact tables from finished hands and games, compute
every figure with a few aggregate queries and store it, and keep the ratings;
and imported game records, checked and replayed once when they come in.

Called by the Celery tasks in stats.tasks after each hand and game (and by
the import view); the pages only read what is stored here.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Collection, Mapping
from typing import TypedDict

from django.db import IntegrityError, transaction
from django.db.models import Aggregate, Count, Max, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openskill.models import PlackettLuce

from accounts.models import User
from euchre_site.safe_json import JSONTooLarge, loads_limited
from games import engine
from games.models import Game, Hand, Seat

from .facts import (
    BOT_ONLY,
    DAILY,
    GUEST,
    HINTS,
    LEFT,
    SeatFacts,
    SeatPlay,
    rules_key,
    seat_facts,
    seat_play,
)
from .models import (
    POSITIONS,
    Agreement,
    Figures,
    GameFact,
    GamesBlock,
    GamesFigures,
    HandFact,
    HandFigures,
    ImportedGame,
    MakerBlock,
    PlayerStats,
    Rating,
    RatingEvent,
    RatingPoint,
    Review,
    ScopeFigures,
    StoredStats,
    established_q,
)

RECENT_DAYS = 30
AVERAGE_KEY = "all"
SUITS = "CDHS"
SERIES_GAMES = 50  # points-per-hand chart: the last games
SERIES_RATINGS = 100  # rating chart: the last rated games
MODEL = PlackettLuce()


# --------------------------------------------------------------------------- facts


def hand_facts_store(*, hand: Hand) -> list[int]:
    """Write the fact rows of a finished hand (idempotent); the people's user ids."""
    if hand.result is None or not hand.result.get("complete"):
        return []
    game = hand.game
    table = game.table
    people = {s.position: s.user_id for s in table.seats.all() if s.user_id is not None}
    if not people:
        return []
    # A hand whose every decision of a seat a bot made is not its person's.
    people = {
        seat: user_id
        for seat, user_id in people.items()
        if seat_play([hand.record], seat).note != BOT_ONLY
    }
    rows = hand_fact_rows(
        hand=hand,
        people=people,
        finished=hand.finished or timezone.now(),
        mode=table.mode,
        key=rules_key(table.rules),
    )
    HandFact.objects.bulk_create(rows, ignore_conflicts=True)
    return sorted(people.values())


def hand_fact_rows(
    *,
    hand: Hand,
    people: Mapping[int, int],
    finished: datetime.datetime,
    mode: str,
    key: str,
    facts: list[SeatFacts] | None = None,
) -> list[HandFact]:
    """The fact rows (unsaved) of a finished hand for the people by seat
    ({seat: user id}); `facts`, its seat_facts when the caller has them."""
    if facts is None:
        assert hand.result is not None  # a finished hand
        facts = seat_facts(hand.record, hand.result)
    return [
        HandFact(
            hand=hand,
            game_id=hand.game_id,
            user_id=people[f["seat"]],
            finished=finished,
            mode=mode,
            rules_key=key,
            **f,
        )
        for f in facts
        if f["seat"] in people
    ]


def game_facts_store(*, game: Game) -> list[int]:
    """Write the fact rows of a finished game and of all its hands (idempotent)."""
    if game.status != Game.Status.FINISHED:
        return []
    table = game.table
    for hand in game.hands.filter(result__isnull=False).select_related("game__table"):
        hand_facts_store(hand=hand)
    key = rules_key(table.rules)
    scores = list(game.scores or [0, 0, 0])
    plays = seat_plays(game)
    rows = []
    for s in table.seats.select_related("user"):
        if s.user is None or s.user_id is None:
            continue
        play = plays[s.position]
        rows.append(
            GameFact(
                game=game,
                user_id=s.user_id,
                seat=s.position,
                finished=game.finished or timezone.now(),
                mode=table.mode,
                rules_key=key,
                won=game.winner == s.position and not play.note,
                score=scores[s.position],
                counted=play.note != BOT_ONLY,
                rating_note=rating_note(game, play, guest=s.user.is_guest),
                decisions=play.decisions,
                bot_decisions=play.by_bot,
            )
        )
        if play.note == BOT_ONLY:  # not their game: none of its hands either
            HandFact.objects.filter(game=game, user_id=s.user_id).delete()
    GameFact.objects.bulk_create(rows, ignore_conflicts=True)
    return sorted(r.user_id for r in rows)


def seat_plays(game: Game) -> dict[int, SeatPlay]:
    """Who made each seat's decisions in the game (bots marked in the hand records)."""
    records = list(game.hands.order_by("number").values_list("record", flat=True))
    return {seat: seat_play(records, seat) for seat in range(3)}


def rating_note(game: Game, play: SeatPlay, *, guest: bool = False) -> str:
    """Why the game is not rated for the person who had this seat ("" when it is
    rated as played; LEFT when it is rated as their last place)."""
    if play.note == BOT_ONLY:
        return BOT_ONLY
    if guest:
        return GUEST
    if game.table.is_daily:
        return DAILY
    if game.table.hints:
        return HINTS
    return play.note


# --------------------------------------------------------------------------- figures

# Each figure counted over the fact rows: name -> the rows it counts.
_HAND_COUNTS: dict[str, Q] = {
    "hands": Q(),
    "thrown_in": Q(thrown_in=True),
    "calls": Q(maker=True),
    "calls_round1": Q(maker=True, call_round=1),
    "calls_round2": Q(maker=True, call_round=2),
    "made": Q(made=True),
    "marches": Q(march=True),
    "euchred": Q(euchred=True),
    "dummy_calls": Q(maker_dummy=True),
    "dummy_made": Q(maker_dummy=True, made=True),
    "dummy_marches": Q(maker_dummy=True, march=True),
    "dummy_euchred": Q(maker_dummy=True, euchred=True),
    "alone_calls": Q(maker_alone=True),
    "alone_made": Q(maker_alone=True, made=True),
    "alone_marches": Q(maker_alone=True, march=True),
    "alone_euchred": Q(maker_alone=True, euchred=True),
    "defended": Q(defender=True),
    "defender_euchres": Q(defender_euchre=True),
    "defended_alone": Q(defended_alone=True),
    "defended_alone_won": Q(defended_alone_won=True),
    "defended_alone_marches": Q(defended_alone_march=True),
    "dealer_chances": Q(dealer_chance=True),
    "dealer_pickups": Q(dealer_pickup=True),
    **{f"pos_{p}_hands": Q(position=p) for p in POSITIONS},
    **{f"pos_{p}_calls": Q(position=p, maker=True) for p in POSITIONS},
    **{f"pos_{p}_made": Q(position=p, made=True) for p in POSITIONS},
    **{f"trump_{s}_calls": Q(maker=True, trump=s) for s in SUITS},
    **{f"trump_{s}_made": Q(made=True, trump=s) for s in SUITS},
}


def _hand_aggregates(
    rows: QuerySet[HandFact], since: datetime.datetime
) -> dict[str, dict[str, float]]:
    """Every count and the points, lifetime and since `since`, in one query."""
    recent = Q(finished__gte=since)
    exprs: dict[str, Aggregate] = {}
    for name, cond in _HAND_COUNTS.items():
        exprs[f"l_{name}"] = Count("pk", filter=cond)
        exprs[f"r_{name}"] = Count("pk", filter=cond & recent)
    exprs["l_points"] = Sum("points")
    exprs["r_points"] = Sum("points", filter=recent)
    exprs["l_players"] = Count("user", distinct=True)
    exprs["r_players"] = Count("user", distinct=True, filter=recent)
    got = rows.aggregate(**exprs)
    out: dict[str, dict[str, float]] = {"lifetime": {}, "recent": {}}
    for k, v in got.items():
        out["lifetime" if k[0] == "l" else "recent"][k[2:]] = v or 0
    return out


class GameCounts(TypedDict):
    played: int
    won: int


class GameAggregates(GameCounts):
    players: int
    by_mode: dict[str, GameCounts]
    by_rules: dict[str, GameCounts]


def _game_aggregates(
    rows: QuerySet[GameFact], since: datetime.datetime
) -> dict[str, GameAggregates]:
    out: dict[str, GameAggregates] = {}
    for scope, qs in (("lifetime", rows), ("recent", rows.filter(finished__gte=since))):
        total = qs.aggregate(
            played=Count("pk"),
            won=Count("pk", filter=Q(won=True)),
            players=Count("user", distinct=True),
        )
        by: dict[str, dict[str, GameCounts]] = {"mode": {}, "rules": {}}
        for field, name in (("mode", "mode"), ("rules_key", "rules")):
            for r in (
                qs.values(field)
                .annotate(played=Count("pk"), won=Count("pk", filter=Q(won=True)))
                .order_by(field)
            ):
                by[name][r[field]] = {"played": r["played"], "won": r["won"]}
        out[scope] = {
            "played": total["played"],
            "won": total["won"],
            "players": total["players"],
            "by_mode": by["mode"],
            "by_rules": by["rules"],
        }
    return out


def _pct(part: float, whole: float) -> float | None:
    return round(100.0 * part / whole, 1) if whole else None


def _ratio(part: float, whole: float, digits: int = 2) -> float | None:
    return round(part / whole, digits) if whole else None


def _n(x: float) -> float:
    """A count: whole for a person, one decimal for the average player."""
    return int(x) if float(x).is_integer() else round(x, 1)


def _games_figures(g: GameAggregates, per: float) -> GamesFigures:
    def block(b: GameCounts) -> GamesBlock:
        return {
            "played": _n(b["played"] / per),
            "won": _n(b["won"] / per),
            "win_pct": _pct(b["won"], b["played"]),
        }

    return {
        **block(g),
        "by_mode": {k: block(v) for k, v in g["by_mode"].items()},
        "by_rules": {k: block(v) for k, v in g["by_rules"].items()},
    }


def _hand_figures(c: dict[str, float], per: float) -> HandFigures:
    """The figures of HandFact counts `c`; counts divided by `per` (1 for a
    person, the number of players for the average)."""

    def n(k: str) -> float:
        return _n(c[k] / per)

    def maker_block(prefix: str) -> MakerBlock:
        calls = c[f"{prefix}calls"]
        return {
            "calls": n(f"{prefix}calls"),
            "made": n(f"{prefix}made"),
            "make_pct": _pct(c[f"{prefix}made"], calls),
            "marches": n(f"{prefix}marches"),
            "euchred": n(f"{prefix}euchred"),
            "euchred_pct": _pct(c[f"{prefix}euchred"], calls),
        }

    hands = c["hands"]
    return {
        "hands": n("hands"),
        "points": n("points"),
        "points_per_hand": _ratio(c["points"], hands),
        "thrown_in": n("thrown_in"),
        "maker": {
            **maker_block(""),
            "calls_per_hand": _ratio(c["calls"], hands, 3),
            "round1": n("calls_round1"),
            "round2": n("calls_round2"),
            "by_position": {
                name: {
                    "hands": n(f"pos_{p}_hands"),
                    "calls": n(f"pos_{p}_calls"),
                    "calls_per_hand": _ratio(c[f"pos_{p}_calls"], c[f"pos_{p}_hands"], 3),
                    "make_pct": _pct(c[f"pos_{p}_made"], c[f"pos_{p}_calls"]),
                }
                for p, name in POSITIONS.items()
            },
            "dummy": maker_block("dummy_"),
            "alone": maker_block("alone_"),
        },
        "defender": {
            "hands": n("defended"),
            "euchres": n("defender_euchres"),
            "euchre_pct": _pct(c["defender_euchres"], c["defended"]),
            "alone": {
                "attempts": n("defended_alone"),
                "won": n("defended_alone_won"),
                "won_pct": _pct(c["defended_alone_won"], c["defended_alone"]),
                "marches": n("defended_alone_marches"),
                "lost": n_diff(c["defended_alone"], c["defended_alone_won"], per),
            },
        },
        "trump": {
            s: {
                "calls": n(f"trump_{s}_calls"),
                "made": n(f"trump_{s}_made"),
                "make_pct": _pct(c[f"trump_{s}_made"], c[f"trump_{s}_calls"]),
            }
            for s in SUITS
        },
        "dealer": {
            "chances": n("dealer_chances"),
            "pickups": n("dealer_pickups"),
            "pickup_pct": _pct(c["dealer_pickups"], c["dealer_chances"]),
        },
    }


def n_diff(a: float, b: float, per: float) -> float:
    return _n((a - b) / per)


def figures(
    hand_rows: QuerySet[HandFact],
    game_rows: QuerySet[GameFact],
    *,
    now: datetime.datetime,
    average: bool = False,
) -> Figures:
    """Lifetime and last-30-days figures of some fact rows (one person's, or
    everybody's for the average player)."""
    since = now - datetime.timedelta(days=RECENT_DAYS)
    h = _hand_aggregates(hand_rows, since)
    g = _game_aggregates(game_rows, since)
    out: dict[str, ScopeFigures] = {}
    for scope in ("lifetime", "recent"):
        per_h = max(1, h[scope]["players"]) if average else 1
        per_g = max(1, g[scope]["players"]) if average else 1
        out[scope] = {"games": _games_figures(g[scope], per_g), **_hand_figures(h[scope], per_h)}
    return {"lifetime": out["lifetime"], "recent": out["recent"]}


def player_stats_recompute(*, user_id: int, now: datetime.datetime | None = None) -> PlayerStats:
    """Recompute and store every figure of one person (a few aggregate queries)."""
    now = now or timezone.now()
    hand_rows = HandFact.objects.filter(user_id=user_id)
    games = GameFact.objects.filter(user_id=user_id, counted=True)
    data: StoredStats = {**figures(hand_rows, games, now=now)}
    per_game = list(
        hand_rows.values("game")
        .annotate(points=Sum("points"), hands=Count("pk"), at=Max("finished"))
        .order_by("-at")[:SERIES_GAMES]
    )
    data["series"] = {
        "points_per_hand": [
            {
                "at": r["at"].isoformat(),
                "game": r["game"],
                "value": round(r["points"] / r["hands"], 2),
            }
            for r in reversed(per_game)
        ],
        "rating": rating_series(user_id=user_id),
    }
    rating = Rating.objects.filter(user_id=user_id).first()
    data["rating"] = (
        None
        if rating is None
        else {
            "value": rating.display,
            "mu": round(rating.mu, 2),
            "sigma": round(rating.sigma, 2),
            "games": rating.games,
            "provisional": rating.provisional,
        }
    )
    data["agreement"] = agreement_of(user_id=user_id)
    return _store(f"user:{user_id}", user_id, data)


def average_stats_recompute(*, now: datetime.datetime | None = None) -> PlayerStats:
    """The average player's figures: rates over everybody's rows, counts per player."""
    now = now or timezone.now()
    data: StoredStats = {
        **figures(
            HandFact.objects.all(), GameFact.objects.filter(counted=True), now=now, average=True
        )
    }
    return _store(AVERAGE_KEY, None, data)


def _store(key: str, user_id: int | None, data: StoredStats) -> PlayerStats:
    for _attempt in range(3):
        try:
            with transaction.atomic():
                row, _created = PlayerStats.objects.update_or_create(
                    key=key, defaults={"user_id": user_id, "data": data}
                )
                return row
        except IntegrityError:  # created at the same moment by another worker
            continue
    raise RuntimeError(f"could not store the statistics {key}")


def agreement_of(*, user_id: int) -> Agreement | None:
    got = Review.objects.filter(user_id=user_id, status=Review.Status.DONE).aggregate(
        agreed=Sum("agreed"), total=Sum("total_steps"), hands=Count("pk")
    )
    if not got["total"]:
        return None
    return {
        "pct": _pct(got["agreed"], got["total"]),
        "decisions": got["total"],
        "hands": got["hands"],
    }


# --------------------------------------------------------------------------- ratings


def _rating_for(*, user_id: int | None, bot_level: str) -> Rating:
    fresh = MODEL.rating()
    defaults = {"mu": fresh.mu, "sigma": fresh.sigma, "ordinal": fresh.ordinal()}
    if user_id is not None:
        row, _ = Rating.objects.get_or_create(user_id=user_id, defaults=defaults)
    else:
        row, _ = Rating.objects.get_or_create(user=None, bot_level=bot_level, defaults=defaults)
    return row


def ranks_of(scores: list[int]) -> list[int]:
    """1 for the highest score; equal scores share a rank."""
    return [1 + sum(other > s for other in scores) for s in scores]


def rating_ranks(scores: list[int], winner: int | None, left: Collection[int] = ()) -> list[float]:
    """The places a game's seats are rated by: the winner first, whatever the
    scores say; who left (`left`, seats) last, whatever their stand-in scored;
    the others by score."""
    if winner is not None:
        scores = [s + (1000 if i == winner else 0) for i, s in enumerate(scores)]
    scores = [s - 10_000 if i in left else s for i, s in enumerate(scores)]
    return [float(r) for r in ranks_of(scores)]


def rate_seats[K](
    seats: list[tuple[K, float, float]], ranks: list[float]
) -> dict[K, tuple[float, float]]:
    """One game's new (mu, sigma) for each player, from each seat's (player,
    mu, sigma) and place. A player seated twice (a bot level, one
    pseudo-player) gets the mean of its seats' updates."""
    new = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma)] for _key, mu, sigma in seats], ranks=ranks)
    updates: dict[K, list[tuple[float, float]]] = {}
    for (key, _mu, _sigma), team in zip(seats, new, strict=True):
        updates.setdefault(key, []).append((team[0].mu, team[0].sigma))
    return {
        key: (sum(m for m, _s in got) / len(got), sum(s for _m, s in got) / len(got))
        for key, got in updates.items()
    }


def ratings_update(*, game: Game) -> bool:
    """Rate a finished game once. Bots are rated as one pseudo-player per level,
    so a person's game against two bots counts: a game is rated when it has at
    least one rated person and at least two rated players, no hints (a table
    option for learners) and not a daily deal (a game of five fixed deals,
    scored on its own page).

    A person is rated only for what they played (the hand records mark the
    moves bots made for them): a seat whose decisions a bot made all, or more
    than half of, is rated as that bot (its level now, else medium's); a person
    who played, then left for good and had a stand-in finish, is rated last.
    Returns whether it was rated now."""
    if game.status != Game.Status.FINISHED or game.table.hints or game.table.is_daily:
        return False
    seats = list(game.table.seats.select_related("user"))
    plays = seat_plays(game)
    # A guest (accounts.guests) is never rated: their seat counts as a medium bot.
    notes = {
        s.position: GUEST if s.user.is_guest else plays[s.position].note
        for s in seats
        if s.user is not None
    }
    rated = {p for p, note in notes.items() if note in ("", LEFT)}  # the people's seats

    def player(s: Seat) -> tuple[int | None, str]:
        if s.position in rated:
            return s.user_id, ""
        return None, s.bot_level or "medium"

    entrants = [player(s) for s in seats]
    if not rated or len(set(entrants)) < 2:
        return False
    ranks = rating_ranks(
        list(game.scores), game.winner, left={i for i, note in notes.items() if note == LEFT}
    )
    with transaction.atomic():
        if RatingEvent.objects.filter(game=game).exists():
            return False
        rows = [_rating_for(user_id=u, bot_level=level) for u, level in entrants]
        updates = rate_seats([(r.pk, r.mu, r.sigma) for r in rows], ranks)
        at = game.finished or timezone.now()
        for row in {r.pk: r for r in rows}.values():
            row.mu, row.sigma = updates[row.pk]
            row.ordinal = MODEL.rating(mu=row.mu, sigma=row.sigma).ordinal()
            row.games += 1
            row.save()
            RatingEvent.objects.create(
                rating=row, game=game, mu=row.mu, sigma=row.sigma, ordinal=row.ordinal, at=at
            )
    return True


def rating_series(*, user_id: int) -> list[RatingPoint]:
    events = list(
        RatingEvent.objects.filter(rating__user_id=user_id).order_by("-at", "-pk")[:SERIES_RATINGS]
    )
    return [
        {"at": e.at.isoformat(), "game": e.game_id, "value": e.display} for e in reversed(events)
    ]


def leaderboard() -> QuerySet[Rating]:
    """The established ratings (no provisional one), highest shown rating first
    (the page shows a slice of it)."""
    return Rating.objects.filter(established_q()).select_related("user").order_by("-mu", "pk")


# --------------------------------------------------------------------------- the tasks' work


def after_hand(*, hand_id: int) -> str:
    hand = Hand.objects.select_related("game__table").filter(pk=hand_id).first()
    if hand is None or hand.result is None:
        return "not over"
    for user_id in hand_facts_store(hand=hand):
        player_stats_recompute(user_id=user_id)
    return "done"


def after_game(*, game_id: int) -> str:
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.FINISHED:
        return "not over"
    users = game_facts_store(game=game)
    # Pages open at the game's end fetch their rating changes themselves
    # (games/table.html#standings): a frame of the same version would be a
    # move seen twice.
    ratings_update(game=game)
    for user_id in users:
        player_stats_recompute(user_id=user_id)
    average_stats_recompute()
    return "done"


# --------------------------------------------------------------------------- imported records

# A record's JSON text at most: some 2,000 thrown-in hands, or 500 played ones
# (a long game has 20 to 40), replayed in about 0.4 s.
MAX_IMPORT_BYTES = 1_000_000


class RecordTooLarge(ValueError):
    """The record is over MAX_IMPORT_BYTES (HTTP 413)."""


def _read_record(raw: str | bytes) -> object:
    """The record's JSON (any JSON value: the caller checks its shape), within the site's limits (size, depth, no NaN or
    Infinity: euchre_site.safe_json); ValueError with a sentence otherwise."""
    try:
        record = loads_limited(raw, max_bytes=MAX_IMPORT_BYTES)
    except JSONTooLarge:
        raise RecordTooLarge(
            # Translators: an imported game record (a file of a game's moves) is over the size limit; %(n)s is the limit in bytes ("1,000,000").
            _("That record is too large (at most %(n)s bytes).")
            % {"n": number_format(MAX_IMPORT_BYTES, force_grouping=True)}
        ) from None
    except ValueError as exc:
        # The parser's detail is English (euchre_site.safe_json).
        detail = str(exc).replace("The request body", "The record")
        raise ValueError(
            # Translators: an imported game record is not JSON; %(detail)s is what is wrong, in English.
            _("That is not JSON that can be imported. %(detail)s") % {"detail": detail}
        ) from None
    # PostgreSQL's jsonb holds neither a NUL character nor half of a surrogate
    # pair (json.loads accepts "\\u0000" and a lone "\\ud800"): no record has them.
    text = json.dumps(record, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(
            # Translators: an imported game record holds broken text ("half of a surrogate pair" is a technical term of Unicode).
            _("That record holds text that is not Unicode (half of a surrogate pair).")
        ) from None
    if "\\u0000" in text:
        raise ValueError(
            # Translators: an imported game record holds the character NUL (written \u0000 in JSON); keep "\u0000" as it is.
            _("That record holds a NUL character (\\u0000), which no record has.")
        )
    return record


def _record_fault(err: Mapping[str, object]) -> str:
    """A replay error of a game record (docs/hand-record.md) as a sentence."""
    # The engine's reasons are English (the record format's own words).
    reason = str(err["reason"])
    hand_error = err.get("detail")
    detail = hand_error.get("reason") if isinstance(hand_error, dict) else None
    if detail:
        # Translators: an imported game record's fault (%(fault)s) and its detail (%(detail)s), both in English.
        reason = pgettext("a record's fault and its detail", "%(fault)s: %(detail)s") % {
            "fault": reason,
            "detail": detail,
        }
    hand = err.get("hand")
    if not isinstance(hand, int):  # None: the game itself
        # Translators: an imported game record does not replay by the rules; %(reason)s says why, in English.
        return _("Not a valid game record (the game): %(reason)s") % {"reason": reason}
    # Translators: an imported game record does not replay by the rules; %(n)s is the number of the hand at fault, %(reason)s says why, in English.
    return _("Not a valid game record (hand %(n)s): %(reason)s") % {
        "n": hand + 1,
        "reason": reason,
    }


def import_game_record(*, owner: User, raw: str | bytes, name: str = "") -> ImportedGame:
    """Check a game record by replaying it, once, and keep it for its importer
    only, with the game's result and every hand's: its pages read those and
    never replay the record again.

    Raises ValueError (RecordTooLarge for the size) whose message is for the
    player; nothing is stored then. The caller limits how often (IMPORT_RATE)."""
    record = _read_record(raw)
    if not isinstance(record, dict) or record.get("format") != "euchre3-game/1":
        # Translators: what was imported is not a game record; keep "euchre3-game/1", the name of the file format.
        raise ValueError(_("Import a game record (format euchre3-game/1)."))
    try:
        game = engine.game_from_record(record)
    except engine.RecordError as exc:
        raise ValueError(_record_fault(dict(exc.error))) from None
    name = name.replace("\x00", "")[:80]
    return ImportedGame.objects.create(
        owner=owner,
        name=name,
        record=record,
        result=engine.game_result(game),
        hand_results=[engine.result(h) for h in game.hands],
    )
