from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("play-now/", views.play_now, name="play_now"),
    path("tables/new/", views.table_create, name="create"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/join/", views.table_join, name="join"),
    path("tables/<int:table_id>/leave/", views.table_leave, name="leave"),
    path("tables/<int:table_id>/bot/", views.table_bot, name="bot"),
    path("tables/<int:table_id>/bots/", views.table_fill_with_bots, name="fill"),
    path("tables/<int:table_id>/act/", views.table_act, name="act"),
    path("tables/<int:table_id>/hint/", views.table_hint, name="hint"),
    path("tables/<int:table_id>/rematch/", views.table_rematch, name="rematch"),
    path("tables/<int:table_id>/autopilot/", views.table_autopilot, name="autopilot"),
    path("vacation/", views.vacation, name="vacation"),
    path("invite/<slug:token>/", views.invite, name="invite"),
    path("tables/<int:table_id>/invite/revoke/", views.table_revoke_invite, name="revoke_invite"),
    path("games/<int:game_id>/record.json", views.game_record, name="record"),
    path("games/mine/", views.my_games, name="my_games"),
]
