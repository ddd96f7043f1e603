"""Fix today's daily deal now (as the beat does at 00:00 UTC), or check a past
day's deals against its seed (shown once the day is over)."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from daily import services
from daily.models import DailyDeal
from games.engine import Rules


class Command(BaseCommand):
    help = (
        "Fix today's daily deal (and end the earlier days' unfinished attempts), or --verify DATE."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--verify",
            metavar="YYYY-MM-DD",
            help="draw a past day's deals again from its seed and compare them with the stored ones",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["verify"]:
            try:
                day = datetime.date.fromisoformat(options["verify"])
            except ValueError:
                raise CommandError("give the day as YYYY-MM-DD") from None
            deal = DailyDeal.objects.filter(date=day).first()
            if deal is None:
                raise CommandError(f"no daily deal on {day}")
            first_dealer, deals = services.draw_deals(deal.seed, Rules.from_dict(deal.rules))
            if (first_dealer, deals) != (deal.first_dealer, deal.deals):
                raise CommandError(f"{day}: the stored deals are NOT the ones its seed gives")
            self.stdout.write(f"{day}: the stored deals are the ones its seed gives")
            return
        deal = services.new_day()
        self.stdout.write(f"daily deal of {deal.date} fixed")
