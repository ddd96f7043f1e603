"""Thin views: parse, call one service, render."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import services
from .forms import PreferencesForm


@login_required
def centre(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "notifications/centre.html",
        {"notifications": services.notifications_for(request.user)},
    )


@login_required
@require_POST
def mark_read(request: HttpRequest, pk: int) -> HttpResponse:
    note = services.mark_read(request.user, pk)
    if note is None:
        raise Http404("No such notification.")
    if getattr(request, "htmx", False):
        return _with_badge(
            request, render(request, "notifications/centre.html#item", {"note": note})
        )
    return redirect("notifications:centre")


@login_required
@require_GET
def open_notification(request: HttpRequest, pk: int) -> HttpResponse:
    """Follow a notification's link: it counts as read once opened."""
    note = services.mark_read(request.user, pk)
    if note is None:
        raise Http404("No such notification.")
    safe = url_has_allowed_host_and_scheme(note.url, allowed_hosts={request.get_host()})
    return redirect(note.url if safe else "notifications:centre")


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    services.mark_all_read(request.user)
    if getattr(request, "htmx", False):
        response = render(
            request,
            "notifications/centre.html#list",
            {"notifications": services.notifications_for(request.user)},
        )
        return _with_badge(request, response)
    return redirect("notifications:centre")


def _with_badge(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The nav badge rides along out of band, for pages whose socket is down."""
    response.content += services.badge_html(services.unread_count(request.user), oob=True).encode()
    return response


@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    prefs = services.preferences_for(request.user)
    form = PreferencesForm(request.POST or None, instance=prefs)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your notification settings are saved.")
        return redirect("notifications:preferences")
    return render(
        request,
        "notifications/preferences.html",
        {
            "form": form,
            "vapid_public_key": settings.VAPID_PUBLIC_KEY if services.push_configured() else "",
        },
    )


# Mail clients post here without a session or CSRF token (RFC 8058 one-click);
# the secret token in the URL is the authorisation.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "POST":
        prefs = services.preferences_unsubscribe(token=token)
        if prefs is None:
            raise Http404("This unsubscribe link is not valid.")
        return render(request, "notifications/unsubscribe.html", {"done": True})
    if services.preferences_by_token(token) is None:
        raise Http404("This unsubscribe link is not valid.")
    return render(request, "notifications/unsubscribe.html", {"done": False})


@login_required
@require_POST
def push_subscription(request: HttpRequest) -> HttpResponse:
    """The browser's Push API subscription as JSON; `{"endpoint": ..., "delete": true}` removes it."""
    try:
        data = json.loads(request.body)
        endpoint = str(data["endpoint"])
        if not endpoint.startswith("https://") and not settings.DEBUG:
            raise ValueError("push endpoints are https")
        if data.get("delete"):
            services.push_subscription_delete(user=request.user, endpoint=endpoint)
            return JsonResponse({"ok": True, "subscribed": False})
        keys = data["keys"]
        services.push_subscription_save(
            user=request.user,
            endpoint=endpoint,
            p256dh=str(keys["p256dh"]),
            auth=str(keys["auth"]),
        )
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"ok": False, "error": "Not a push subscription."}, status=400)
    return JsonResponse({"ok": True, "subscribed": True})


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(
        render_to_string("notifications/sw.js"), content_type="text/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    return response
