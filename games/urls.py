from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("games/mine/", views.my_games, name="my_games"),
    path("notifications/", views.notifications, name="notifications"),
]
