from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the site is, and the way in."""
    return render(request, "home.html")


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness probe for process managers and the tests that start daphne."""
    return JsonResponse({"ok": True})
