"""Fill the fact tables and ratings from every stored hand and game (for games
played before the stats app, or after a change of the facts), then recompute
every player's figures and the average. Idempotent."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.models import Game, Hand
from stats import services
from stats.models import GameFact, HandFact


class Command(BaseCommand):
    help = "Rebuild statistics and ratings from the stored hands and games."

    def handle(self, *args: Any, **options: Any) -> None:
        hands = 0
        for hand in (
            Hand.objects.filter(result__isnull=False).select_related("game__table").iterator()
        ):
            services.hand_facts_store(hand=hand)
            hands += 1
        games = 0
        for game in (
            Game.objects.filter(status=Game.Status.FINISHED)
            .select_related("table")
            .order_by("finished", "pk")
        ):
            services.game_facts_store(game=game)
            services.ratings_update(game=game)  # in the order the games ended
            games += 1
        users = set(HandFact.objects.values_list("user_id", flat=True).distinct())
        users |= set(GameFact.objects.values_list("user_id", flat=True).distinct())
        for user_id in sorted(users):
            services.player_stats_recompute(user_id=user_id)
        services.average_stats_recompute()
        self.stdout.write(
            f"{hands} finished hands, {games} finished games, {len(users)} players recomputed"
        )
