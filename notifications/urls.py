from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("", views.centre, name="centre"),
    path("<int:pk>/", views.open_notification, name="open"),
    path("<int:pk>/read/", views.mark_read, name="mark_read"),
    path("read-all/", views.mark_all_read, name="mark_all_read"),
    path("preferences/", views.preferences, name="preferences"),
    path("unsubscribe/<slug:token>/", views.unsubscribe, name="unsubscribe"),
    path("push/subscription/", views.push_subscription, name="push_subscription"),
]
