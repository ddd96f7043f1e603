from django.urls import path

from . import views

app_name = "stats"
urlpatterns = [
    path("", views.mine, name="mine"),
    path("players/<str:username>/", views.player, name="player"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("hands/", views.history, name="history"),
    path("hands/<int:hand_id>/", views.hand_replay, name="replay"),
    path("hands/<int:hand_id>/record.json", views.hand_record, name="hand_record"),
    path("hands/<int:hand_id>/review/", views.review, name="review"),
    path("agreement/", views.agreement, name="agreement"),
    path("import/", views.import_game, name="import"),
    path("imported/<int:imported_id>/", views.imported, name="imported"),
    path(
        "imported/<int:imported_id>/hands/<int:number>/", views.imported_hand, name="imported_hand"
    ),
    path("imported/<int:imported_id>/record.json", views.imported_record, name="imported_record"),
]
