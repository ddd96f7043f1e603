from django.contrib import admin

from .models import DailyDeal, Entry


@admin.register(DailyDeal)
class DailyDealAdmin(admin.ModelAdmin):
    list_display = ("date", "first_dealer", "created")
    # The seed stays out of the list: it is the day's secret until the day ends.
    exclude = ("seed",)
    readonly_fields = ("date", "rules", "first_dealer", "deals", "summary")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("deal", "user", "status", "total", "place", "streak")
    list_filter = ("status",)
    raw_id_fields = ("user", "game")
