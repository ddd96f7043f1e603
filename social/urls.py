from django.urls import path

from . import views

app_name = "social"
urlpatterns = [
    path("players/", views.players, name="players"),
    path("friends/", views.friends, name="friends"),
    path("players/<str:username>/friend/", views.friend, name="friend"),
    path("players/<str:username>/block/", views.block, name="block"),
    path("players/<str:username>/unblock/", views.unblock, name="unblock"),
    path("players/<str:username>/mute/", views.mute, name="mute"),
    path("players/<str:username>/unmute/", views.unmute, name="unmute"),
    path("tables/<int:table_id>/invite-player/", views.invite_player, name="invite_player"),
    path("tables/<int:table_id>/play-again/", views.play_again, name="play_again"),
    path("invitations/<slug:token>/", views.invitation, name="invitation"),
    path("invitations/<slug:token>/answer/", views.invitation_answer, name="invitation_answer"),
    path("invitations/<int:invitation_id>/cancel/", views.invitation_cancel, name="cancel"),
]
