"""Fill a throw-away database with a made-up year of history: players, games
of engine-played hands with their fact rows and ratings, tables in play,
friends, notifications and a year of daily deals with their entries.

    python manage.py fill_history [--players 10000] [--games 100000] [--hands-per-game 10]

For measuring pages as the data grows (python -m benchmarks.pages,
docs/data-growth.md). It refuses a database that has users already, unless
--force. Everything is written with bulk_create in batches; the hands are a
pool of engine-played games (--pool), each stored game one of them given to
other players at another time: every stored record replays.

It lives in `daily`, the highest app that may import both games and stats;
the friends and notifications rows are made through the app registry.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime
import itertools
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from allauth.account.models import EmailAddress
from django.apps import apps
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from daily import services as daily_services
from daily.models import HANDS, SEAT, DailyDeal, Entry
from games import engine
from games.models import Game, Hand, Seat, Table
from games.services.turns import set_turn
from stats import services as stats_services
from stats.bench import play_game
from stats.facts import DAILY, SeatFacts, rules_key, seat_facts, seat_play
from stats.models import GameFact, HandFact, Rating, RatingEvent

DAY = datetime.timedelta(days=1)
MINUTE = datetime.timedelta(minutes=1)
# The times the site stamps itself (auto_now, auto_now_add): the fill writes them.
STAMPS = [
    (Table, "created"),
    (Table, "updated"),
    (Game, "created"),
    (Hand, "started"),
    (Entry, "started"),
]


@contextlib.contextmanager
def own_stamps() -> Iterator[None]:
    """Within: the fill's times are stored as given (a year of history), not now."""
    fields = [m._meta.get_field(name) for m, name in STAMPS]
    saved = [(f.auto_now, f.auto_now_add) for f in fields]  # type: ignore[union-attr]
    for f in fields:
        f.auto_now = f.auto_now_add = False  # type: ignore[union-attr]
    try:
        yield
    finally:
        for f, (now, add) in zip(fields, saved, strict=True):
            f.auto_now, f.auto_now_add = now, add  # type: ignore[union-attr]


@dataclass(frozen=True, slots=True)
class PoolGame:
    """An engine-played game, ready to be stored for any three players."""

    first_dealer: int
    scores: list[int]
    winner: int | None
    records: list[engine.HandRecord]
    results: list[engine.HandResult]
    facts: list[list[SeatFacts]]  # each hand's seat_facts
    decisions: list[int]  # each seat's, in the whole game


def pool_game(state: engine.GameState) -> PoolGame:
    records = [engine.hand_to_record(h) for h in state.hands]
    results = [engine.result(h) for h in state.hands]
    return PoolGame(
        first_dealer=state.first_dealer,
        scores=list(state.scores),
        winner=state.winner,
        records=records,
        results=results,
        facts=[seat_facts(r, res) for r, res in zip(records, results, strict=True)],  # type: ignore[arg-type]
        decisions=[seat_play(records, s).decisions for s in range(3)],  # type: ignore[arg-type]
    )


def batched[T](items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


class Command(BaseCommand):
    help = "Fill a throw-away database with a made-up history (players, games, hands, daily deals)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=10_000)
        parser.add_argument("--games", type=int, default=100_000)
        parser.add_argument("--hands-per-game", type=int, default=10, help="about, on average")
        parser.add_argument("--pool", type=int, default=3000, help="engine-played games reused")
        parser.add_argument("--live", type=int, default=50, help="games in progress")
        parser.add_argument("--open", type=int, default=30, help="tables waiting for players")
        parser.add_argument("--days", type=int, default=365, help="days of daily deals")
        parser.add_argument("--daily-entries", type=int, default=30, help="players a day")
        parser.add_argument("--friends", type=int, default=5, help="per player")
        parser.add_argument("--notifications", type=int, default=20, help="per player")
        parser.add_argument("--batch", type=int, default=2000, help="games per bulk insert")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--force", action="store_true", help="fill even if there are users")

    # ------------------------------------------------------------------ helpers

    def say(self, text: str) -> None:
        self.stderr.write(f"[{time.perf_counter() - self.t0:7.1f} s] {text}")
        self.stderr.flush()

    def players(self, k: int) -> list[int]:
        """k distinct players, the busy ones more often (weights ~ 1/rank)."""
        got: list[int] = []
        while len(got) < k:
            i = bisect.bisect(self.cum, self.rng.random() * self.cum[-1])
            u = self.user_ids[min(i, len(self.user_ids) - 1)]
            if u not in got:
                got.append(u)
        return got

    # ------------------------------------------------------------------ the steps

    def handle(self, *args: Any, **o: Any) -> None:
        users = User.objects.count()
        if users and not o["force"]:
            raise CommandError(
                f"This database has {users} users already. fill_history writes a made-up "
                "history and is meant for a throw-away database (see docs/data-growth.md). "
                "Run it again with --force to add to this one anyway."
            )
        if o["players"] < 3:
            raise CommandError("--players: at least 3 (a game has three).")
        self.t0 = time.perf_counter()
        self.rng = random.Random(o["seed"])
        self.now = timezone.now()
        self.start = self.now - o["days"] * DAY if o["days"] else self.now - 365 * DAY
        self.o = o
        self.fill_users()
        with own_stamps():
            self.fill_games()
            self.fill_daily()
        self.fill_live()
        self.fill_open()
        self.fill_social()
        self.fill_stats()
        with connection.cursor() as cursor:  # the planner's statistics, as a live database has
            cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
        self.say(
            f"done: {User.objects.count()} players, {Game.objects.count()} games, "
            f"{Hand.objects.count()} hands, {HandFact.objects.count()} hand facts"
        )

    def fill_users(self) -> None:
        n = self.o["players"]
        first = User.objects.count() + 1  # after --force, names of its own
        password = make_password("history")  # one hash for all: hashing is slow on purpose
        rows = [
            User(
                username=f"player{i:05d}",
                email=f"player{i:05d}@example.com",
                password=password,
                date_joined=self.start - DAY - self.rng.random() * 30 * DAY,
            )
            for i in range(first, first + n)
        ]
        made: list[User] = []
        for chunk in batched(rows, 5000):
            made += User.objects.bulk_create(chunk)
        self.user_ids = [u.pk for u in made]
        EmailAddress.objects.bulk_create(
            [EmailAddress(user_id=u.pk, email=u.email, verified=True, primary=True) for u in made],
            batch_size=5000,
        )
        self.cum = list(itertools.accumulate(1.0 / (r + 10) for r in range(len(self.user_ids))))
        self.say(f"{n} players")

    def calibrated_target(self) -> int:
        """The target whose random games last --hands-per-game hands or so."""
        want = self.o["hands_per_game"]
        rng = random.Random(self.o["seed"])
        best, best_gap = 10, float("inf")
        for target in range(engine.TARGET_MIN, engine.TARGET_MAX + 1):
            mean = sum(len(play_game(rng, target).hands) for _ in range(40)) / 40
            if abs(mean - want) < best_gap:
                best, best_gap = target, abs(mean - want)
            if mean > want:
                break
        return best

    def fill_games(self) -> None:
        target = self.calibrated_target()
        n_pool = min(self.o["pool"], max(1, self.o["games"]))
        pool = [pool_game(play_game(self.rng, target)) for _ in range(n_pool)]
        mean = sum(len(p.records) for p in pool) / len(pool)
        self.say(f"{n_pool} engine-played games to {target} points ({mean:.1f} hands each)")
        rules = engine.Rules().to_dict()
        key = rules_key(rules)
        span = (self.now - self.start).total_seconds()
        n = self.o["games"]
        # The games in the order they ended: the ratings follow it.
        ends = sorted(
            self.start + datetime.timedelta(seconds=self.rng.random() * span) for _ in range(n)
        )
        ratings = {
            u: stats_services.MODEL.rating() for u in self.user_ids
        }  # updated in memory, in order
        counts = dict.fromkeys(self.user_ids, 0)
        rating_rows = {
            r.user_id: r.pk
            for r in Rating.objects.bulk_create(
                [
                    Rating(user_id=u, mu=ratings[u].mu, sigma=ratings[u].sigma, ordinal=0.0)
                    for u in self.user_ids
                ],
                batch_size=5000,
            )
        }
        done_hands = 0
        for start in range(0, n, self.o["batch"]):
            picks = [
                (self.rng.choice(pool), self.players(3), ends[i])
                for i in range(start, min(n, start + self.o["batch"]))
            ]
            with transaction.atomic():
                tables = Table.objects.bulk_create(
                    [
                        Table(
                            name=f"Table {start + i + 1}",
                            owner_id=people[0],
                            rules=rules,
                            target=target,
                            status=Table.Status.FINISHED,
                            created=at - 40 * MINUTE,
                            updated=at,
                        )
                        for i, (_, people, at) in enumerate(picks)
                    ]
                )
                Seat.objects.bulk_create(
                    [
                        Seat(table=t, position=s, user_id=u)
                        for t, (_, people, _) in zip(tables, picks, strict=True)
                        for s, u in enumerate(people)
                    ]
                )
                games = Game.objects.bulk_create(
                    [
                        Game(
                            table=t,
                            number=1,
                            status=Game.Status.FINISHED,
                            version=sum(len(r["actions"]) for r in p.records) + 1,
                            first_dealer=p.first_dealer,
                            scores=p.scores,
                            winner=p.winner,
                            created=at - 40 * MINUTE,
                            finished=at,
                        )
                        for t, (p, _, at) in zip(tables, picks, strict=True)
                    ]
                )
                hands = Hand.objects.bulk_create(
                    [
                        Hand(
                            game=g,
                            number=h,
                            record=p.records[h],
                            result=p.results[h],
                            started=at - (len(p.records) - h + 1) * 3 * MINUTE,
                            finished=at - (len(p.records) - h) * 3 * MINUTE,
                        )
                        for g, (p, _, at) in zip(games, picks, strict=True)
                        for h in range(len(p.records))
                    ]
                )
                facts: list[HandFact] = []
                game_facts: list[GameFact] = []
                events: list[RatingEvent] = []
                it = iter(hands)
                for g, (p, people, at) in zip(games, picks, strict=True):
                    seats = dict(enumerate(people))
                    for h in range(len(p.records)):
                        hand = next(it)
                        facts += stats_services.hand_fact_rows(
                            hand=hand,
                            people=seats,
                            finished=hand.finished or at,
                            mode=Table.Mode.LIVE,
                            key=key,
                            facts=p.facts[h],
                        )
                    game_facts += [
                        GameFact(
                            game=g, user_id=u, seat=s, finished=at, mode=Table.Mode.LIVE,
                            rules_key=key, won=p.winner == s, score=p.scores[s],
                            decisions=p.decisions[s],
                        )
                        for s, u in seats.items()
                    ]  # fmt: skip
                    teams = [[ratings[u]] for u in people]
                    new = stats_services.MODEL.rate(
                        teams, ranks=stats_services.rating_ranks(p.scores, p.winner)
                    )
                    for u, team in zip(people, new, strict=True):
                        ratings[u] = team[0]
                        counts[u] += 1
                        events.append(
                            RatingEvent(
                                rating_id=rating_rows[u], game=g, mu=team[0].mu,
                                sigma=team[0].sigma, ordinal=team[0].ordinal(), at=at,
                            )
                        )  # fmt: skip
                HandFact.objects.bulk_create(facts)
                GameFact.objects.bulk_create(game_facts)
                RatingEvent.objects.bulk_create(events)
            done_hands += len(hands)
            self.say(f"games {start + len(picks)}/{n}, {done_hands} hands")
        rows = [
            Rating(
                pk=rating_rows[u],
                user_id=u,
                mu=r.mu,
                sigma=r.sigma,
                ordinal=r.ordinal(),
                games=counts[u],
            )
            for u, r in ratings.items()
        ]
        Rating.objects.bulk_update(rows, ["mu", "sigma", "ordinal", "games"], batch_size=2000)
        self.say("ratings")

    def fill_live(self) -> None:
        """Tables in play: some hands played, the current one under way."""
        rules = engine.Rules()
        made = 0
        while made < self.o["live"]:
            state = engine.new_game(rules, 10, self.rng.randrange(3))
            for _ in range(self.rng.randrange(4)):
                state = engine.game_start_hand(state, self.rng)
                while state.current is not None and not state.current.over:
                    state = engine.game_apply(
                        state, self.rng.choice(engine.legal_actions(state.current))
                    )
            if state.over:
                continue
            state = engine.game_start_hand(state, self.rng)
            for _ in range(self.rng.randrange(1, 8)):
                assert state.current is not None
                action = self.rng.choice(engine.legal_actions(state.current))
                after = engine.game_apply(state, action)
                if after.current is None or after.current.over:
                    break
                state = after
            people = self.players(3)
            with transaction.atomic():
                table = Table.objects.create(
                    name=f"Live table {made + 1}",
                    owner_id=people[0],
                    rules=rules.to_dict(),
                    target=10,
                    status=Table.Status.PLAYING,
                )
                Seat.objects.bulk_create(
                    [Seat(table=table, position=s, user_id=u) for s, u in enumerate(people)]
                )
                game = Game(
                    table=table,
                    first_dealer=state.first_dealer,
                    scores=list(state.scores),
                    version=1 + sum(len(engine.hand_to_record(h)["actions"]) for h in state.hands),
                )
                set_turn(game, state)
                game.save()
                Hand.objects.bulk_create(
                    [
                        Hand(
                            game=game,
                            number=i,
                            record=engine.hand_to_record(h),
                            result=engine.result(h) if h.over else None,
                            finished=self.now if h.over else None,
                        )
                        for i, h in enumerate(state.hands)
                    ]
                )
            made += 1
        self.say(f"{made} games in progress")

    def fill_open(self) -> None:
        """Tables in the lobby: their owner seated, waiting for two more."""
        for k, owner in enumerate(self.players(min(self.o["open"], len(self.user_ids)))):
            table = Table.objects.create(
                name=f"Open table {k + 1}", owner_id=owner, rules=engine.Rules().to_dict()
            )
            Seat.objects.bulk_create(
                [Seat(table=table, position=0, user_id=owner)]
                + [Seat(table=table, position=s) for s in (1, 2)]
            )
        self.say(f"{self.o['open']} tables waiting for players")

    def fill_daily(self) -> None:
        """A year of daily deals, each played by some players against the hard bots."""
        days, per_day = self.o["days"], min(self.o["daily_entries"], len(self.user_ids))
        rules = engine.Rules()
        today = daily_services.today(self.now)
        dates = [today - d * DAY for d in range(days, 0, -1)]  # up to yesterday: today's is open
        taken = set(DailyDeal.objects.filter(date__in=dates).values_list("date", flat=True))
        deals = DailyDeal.objects.bulk_create(
            [
                DailyDeal(
                    date=date,
                    seed=f"{self.rng.getrandbits(256):064x}",
                    rules=rules.to_dict(),
                    first_dealer=0,
                    deals=[],
                )
                for date in dates
                if date not in taken  # after --force: the days it has are kept
            ]
        )
        for deal in deals:
            deal.first_dealer, deal.deals = daily_services.draw_deals(deal.seed, rules)
        DailyDeal.objects.bulk_update(deals, ["first_dealer", "deals"])
        played: dict[int, tuple[datetime.date, int]] = {}  # last day and streak
        for k, deal in enumerate(deals):
            day_start = datetime.datetime.combine(deal.date, datetime.time(12), datetime.UTC)
            with transaction.atomic():
                people = self.players(per_day)
                states = []
                for _ in people:
                    state = engine.new_game(rules, engine.TARGET_MAX, deal.first_dealer, HANDS)
                    for n in range(HANDS):
                        state = engine.game_deal_hand(state, deal.deals[n])
                        while state.current is not None and not state.current.over:
                            state = engine.game_apply(
                                state, self.rng.choice(engine.legal_actions(state.current))
                            )
                    states.append(state)
                tables = Table.objects.bulk_create(
                    [
                        Table(
                            name=deal.date.isoformat(), owner_id=u, rules=rules.to_dict(),
                            target=engine.TARGET_MAX, visibility=Table.Visibility.PRIVATE,
                            daily_date=deal.date, status=Table.Status.FINISHED,
                            created=day_start - 15 * MINUTE, updated=day_start,
                        )
                        for u in people
                    ]
                )  # fmt: skip
                Seat.objects.bulk_create(
                    [
                        seat
                        for t, u in zip(tables, people, strict=True)
                        for seat in (
                            Seat(table=t, position=SEAT, user_id=u),
                            Seat(table=t, position=1, bot_level="hard"),
                            Seat(table=t, position=2, bot_level="hard"),
                        )
                    ]
                )
                seed = daily_services.bot_seed(deal.seed)
                games = Game.objects.bulk_create(
                    [
                        Game(
                            table=t, status=Game.Status.FINISHED, first_dealer=s.first_dealer,
                            scores=list(s.scores), winner=s.winner, finished=day_start,
                            deals=deal.deals, bot_seed=seed, created=day_start - 15 * MINUTE,
                            version=1 + sum(len(engine.hand_to_record(h)["actions"]) for h in s.hands),
                        )
                        for t, s in zip(tables, states, strict=True)
                    ]
                )  # fmt: skip
                hands = Hand.objects.bulk_create(
                    [
                        Hand(
                            game=g,
                            number=n,
                            record=engine.hand_to_record(h),
                            result=engine.result(h),
                            started=day_start - (HANDS - n) * 3 * MINUTE,
                            finished=day_start,
                        )
                        for g, s in zip(games, states, strict=True)
                        for n, h in enumerate(s.hands)
                    ]
                )
                facts: list[HandFact] = []
                by_game = {g.pk: u for g, u in zip(games, people, strict=True)}
                for hand in hands:
                    facts += stats_services.hand_fact_rows(
                        hand=hand,
                        people={SEAT: by_game[hand.game_id]},
                        finished=day_start,
                        mode=Table.Mode.LIVE,
                        key=rules_key(rules.to_dict()),
                    )
                HandFact.objects.bulk_create(facts)
                GameFact.objects.bulk_create(
                    [
                        GameFact(
                            game=g, user_id=u, seat=SEAT, finished=day_start,
                            mode=Table.Mode.LIVE, rules_key=rules_key(rules.to_dict()),
                            won=s.winner == SEAT, score=s.scores[SEAT], rating_note=DAILY,
                        )
                        for g, u, s in zip(games, people, states, strict=True)
                    ]
                )  # fmt: skip
                entries = []
                for g, u, s in zip(games, people, states, strict=True):
                    points = [int(engine.result(h)["points"][SEAT]) for h in s.hands]
                    last, streak = played.get(u, (None, 0))
                    streak = streak + 1 if last == deal.date - DAY else 1
                    played[u] = (deal.date, streak)
                    entries.append(
                        Entry(
                            deal=deal, user_id=u, game=g, status=Entry.Status.FINISHED,
                            points=points, total=sum(points), streak=streak, ended=day_start,
                            started=day_start - 15 * MINUTE,
                        )
                    )  # fmt: skip
                Entry.objects.bulk_create(entries)
            daily_services.day_results_update(deal_id=deal.pk)  # the site's own ranking
            if (k + 1) % 30 == 0 or k + 1 == len(deals):
                self.say(f"daily deals {k + 1}/{len(deals)}")

    def fill_social(self) -> None:
        FriendRequest = apps.get_model("social", "FriendRequest")
        Notification = apps.get_model("notifications", "Notification")
        pairs: set[tuple[int, int]] = set()
        want = self.o["friends"] * len(self.user_ids) // 2
        while len(pairs) < want:
            a, b = self.players(2)
            if (b, a) not in pairs:
                pairs.add((a, b))
        FriendRequest.objects.bulk_create(
            [
                FriendRequest(sender_id=a, recipient_id=b, status="accepted", answered=self.start)
                for a, b in pairs
            ],
            batch_size=5000,
        )
        # Each player's latest games, told when they ended.
        rows = []
        per = self.o["notifications"]
        for u in self.user_ids:
            facts = (
                GameFact.objects.filter(user_id=u)
                .select_related("game__table")
                .order_by("-finished")[:per]
            )
            for f in facts:
                rows.append(
                    Notification(
                        user_id=u, kind="game_ended", game_id=f.game_id,
                        params={"table": f.game.table.name, "winner": "player"},
                        url=f"/tables/{f.game.table_id}/", created=f.finished,
                        read_at=f.finished if self.rng.random() < 0.9 else None,
                    )
                )  # fmt: skip
            if len(rows) >= 5000:
                Notification.objects.bulk_create(rows)
                rows = []
        Notification.objects.bulk_create(rows)
        self.say(f"{len(pairs)} friendships, notifications")

    def fill_stats(self) -> None:
        """Every player's stored figures, as the site's task computes them."""
        for i, u in enumerate(self.user_ids):
            stats_services.player_stats_recompute(user_id=u, now=self.now)
            if (i + 1) % 1000 == 0:
                self.say(f"figures of {i + 1}/{len(self.user_ids)} players")
        stats_services.average_stats_recompute(now=self.now)
        self.say("figures of every player")
