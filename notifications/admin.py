from django.contrib import admin

from .models import Notification, Preferences, PushSubscription


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "message", "created", "read_at", "emailed_at"]
    list_filter = ["kind"]
    raw_id_fields = ["user", "game"]


@admin.register(Preferences)
class PreferencesAdmin(admin.ModelAdmin):
    list_display = ["user", "email_enabled", "push_enabled", "reminder_minutes", "daily_digest"]
    raw_id_fields = ["user"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "created"]
    raw_id_fields = ["user"]
