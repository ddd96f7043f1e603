from django.urls import path

from . import views

app_name = "daily"
urlpatterns = [
    path("", views.today_page, name="today"),
    path("play/", views.play, name="play"),
    path("stop/", views.stop, name="stop"),
    path("<str:day>/", views.day_page, name="day"),
]
