from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html")


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    return render(request, "games/my_games.html")


@login_required
def notifications(request: HttpRequest) -> HttpResponse:
    return render(request, "games/notifications.html")
