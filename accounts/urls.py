from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("", views.profile, name="profile"),
    path("table/", views.table_preferences, name="table_preferences"),
    path("time-zone/", views.time_zone, name="time_zone"),
]
