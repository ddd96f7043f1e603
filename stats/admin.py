from django.contrib import admin

from .models import ImportedGame, PlayerStats, Rating, Review


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("__str__", "mu", "sigma", "games", "updated")
    ordering = ("-ordinal",)


@admin.register(PlayerStats)
class PlayerStatsAdmin(admin.ModelAdmin):
    list_display = ("key", "computed")


admin.site.register(ImportedGame)
admin.site.register(Review)
