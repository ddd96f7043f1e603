from django.urls import path

from . import views

app_name = "chat"
urlpatterns = [
    path("tables/<int:table_id>/chat/", views.send, name="send"),
    path("tables/<int:table_id>/chat/spectators/", views.spectators, name="spectators"),
    path("chat/messages/<int:message_id>/report/", views.report, name="report"),
]
