"""Staff see the days and their entries; hiding an entry (a list checkbox or
an action) takes it off the day's figures and board at once."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from . import services
from .models import DailyDeal, Entry


@admin.register(DailyDeal)
class DailyDealAdmin(admin.ModelAdmin):
    list_display = ("date", "first_dealer", "created")
    # The seed stays out of the list: it is the day's secret until the day ends.
    exclude = ("seed",)
    readonly_fields = ("date", "rules", "first_dealer", "deals", "summary")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a day's deal is made by the beat (or its first page), from a secret seed


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("deal", "user", "status", "total", "place", "ranked", "hidden", "streak")
    list_filter = ("status", "ranked", "hidden")
    # Hiding an entry takes it off the day's board at the next count (below).
    list_editable = ("hidden",)
    raw_id_fields = ("user", "game")
    readonly_fields = ("points", "total", "place", "ranked", "streak", "started", "ended")
    actions = ("hide", "show")

    def save_model(
        self, request: HttpRequest, obj: Entry, form: forms.ModelForm[Entry], change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        services.day_results_update(deal_id=obj.deal_id)

    @admin.action(description=_("Hide from the day's leaderboard"))
    def hide(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        self._set_hidden(queryset, hidden=True)

    @admin.action(description=_("Show on the day's leaderboard"))
    def show(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        self._set_hidden(queryset, hidden=False)

    @staticmethod
    def _set_hidden(queryset: QuerySet[Entry], *, hidden: bool) -> None:
        deals = set(queryset.values_list("deal_id", flat=True))
        queryset.update(hidden=hidden)
        for deal_id in deals:
            services.day_results_update(deal_id=deal_id)
