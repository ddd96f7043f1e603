"""Thin views: parse, call one service, render."""

from __future__ import annotations

import base64
import re

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.functional import Promise
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import User
from euchre_site import pwa, safe_json
from euchre_site.safe_json import JSONTooLarge, loads_limited

from . import push_endpoints, services
from .forms import PreferencesForm


def _me(request: HttpRequest) -> User:
    """The signed-in user: the views that read or change their notices require one."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


@login_required
def centre(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "notifications/centre.html",
        {"notifications": services.notifications_for(_me(request))},
    )


@login_required
@require_POST
def mark_read(request: HttpRequest, pk: int) -> HttpResponse:
    note = services.mark_read(_me(request), pk)
    if note is None:
        raise Http404(gettext("No such notification."))
    if getattr(request, "htmx", False):
        return _with_badge(
            request, render(request, "notifications/centre.html#item", {"note": note})
        )
    return redirect("notifications:centre")


@login_required
@require_GET
def open_notification(request: HttpRequest, pk: int) -> HttpResponse:
    """Follow a notification's link: it counts as read once opened."""
    note = services.mark_read(_me(request), pk)
    if note is None:
        raise Http404(gettext("No such notification."))
    safe = url_has_allowed_host_and_scheme(note.url, allowed_hosts={request.get_host()})
    return redirect(note.url if safe else "notifications:centre")


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    services.mark_all_read(_me(request))
    if getattr(request, "htmx", False):
        response = render(
            request,
            "notifications/centre.html#list",
            {"notifications": services.notifications_for(_me(request))},
        )
        return _with_badge(request, response)
    return redirect("notifications:centre")


def _with_badge(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The nav badge rides along out of band, for pages whose socket is down."""
    response.content += services.badge_html(services.unread_count(_me(request)), oob=True).encode()
    return response


@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    prefs = services.preferences_for(_me(request))
    form = PreferencesForm(request.POST or None, instance=prefs)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, gettext("Your notification settings are saved."))
        return redirect("notifications:preferences")
    return render(
        request,
        "notifications/preferences.html",
        {
            "form": form,
            "vapid_public_key": settings.VAPID_PUBLIC_KEY if services.push_configured() else "",
            "push_endpoints": services.push_endpoints_of(_me(request)),
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
            raise Http404(gettext("This unsubscribe link is not valid."))
        return render(request, "notifications/unsubscribe.html", {"done": True})
    if services.preferences_by_token(token) is None:
        raise Http404(gettext("This unsubscribe link is not valid."))
    return render(request, "notifications/unsubscribe.html", {"done": False})


PUSH_BODY_MAX_BYTES = 4096  # a real subscription is about 400 bytes
PUSH_SESSION_KEY = "notifications_push_endpoints"  # what this browser registered: gone on log-out
# For the user (push.js shows them): lazy, so each answer speaks the request's language.
NOT_A_SUBSCRIPTION = _("This is not a push subscription: a JSON object with an endpoint and keys.")
BAD_KEYS = _("The push subscription's keys are not valid (p256dh and auth, base64url).")
TAKEN = _("This push subscription cannot be registered.")


@login_required
@require_POST
def push_subscription(request: HttpRequest) -> HttpResponse:
    """The browser's Push API subscription as JSON; `{"endpoint": ..., "delete": true}` removes it.

    Every refusal is a 4xx with `{"ok": false, "error": <sentence>}`: 413 for a
    body over PUSH_BODY_MAX_BYTES, 409 for an endpoint another account holds,
    400 for the rest (bad JSON, wrong shape, an endpoint push_endpoints refuses).
    """
    if _content_length(request) > PUSH_BODY_MAX_BYTES:
        return _push_error(_too_large(), status=413)
    try:
        data = loads_limited(request.read(PUSH_BODY_MAX_BYTES + 1), max_bytes=PUSH_BODY_MAX_BYTES)
    except JSONTooLarge:
        return _push_error(_too_large(), status=413)
    except ValueError as exc:  # euchre_site.safe_json's sentence, in English
        return _push_error(str(exc))
    if not isinstance(data, dict):
        return _push_error(NOT_A_SUBSCRIPTION)
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint or not safe_json.is_clean_text(endpoint):
        return _push_error(NOT_A_SUBSCRIPTION)
    if data.get("delete") is True:
        services.push_subscription_delete(user=_me(request), endpoint=endpoint)
        _session_endpoints(request, remove=endpoint)
        return JsonResponse({"ok": True, "subscribed": False})
    keys = data.get("keys")
    if not isinstance(keys, dict):
        return _push_error(NOT_A_SUBSCRIPTION)
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not _b64url_bytes(p256dh, 65) or not _b64url_bytes(auth, 16):
        return _push_error(BAD_KEYS)
    assert isinstance(p256dh, str) and isinstance(auth, str)
    try:
        services.push_subscription_save(
            user=_me(request), endpoint=endpoint, p256dh=p256dh, auth=auth
        )
    except push_endpoints.EndpointRefused as exc:
        return _push_error(str(exc))
    except services.PushSubscriptionTaken:
        return _push_error(TAKEN, status=409)
    _session_endpoints(request, add=endpoint)
    return JsonResponse({"ok": True, "subscribed": True})


def _push_error(message: str | Promise, *, status: int = 400) -> JsonResponse:
    return JsonResponse({"ok": False, "error": str(message)}, status=status)


def _too_large() -> str:
    return ngettext(
        "The request body is too large (at most %(count)d byte).",
        "The request body is too large (at most %(count)d bytes).",
        PUSH_BODY_MAX_BYTES,
    ) % {"count": PUSH_BODY_MAX_BYTES}


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _b64url_bytes(value: object, size: int) -> bool:
    """A browser's key: unpadded base64url of exactly `size` bytes (p256dh: an uncompressed point)."""
    if not isinstance(value, str) or not _B64URL.fullmatch(value):
        return False
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        return False
    return len(raw) == size and (size != 65 or raw[0] == 4)


_B64URL = re.compile(r"[A-Za-z0-9_-]{1,200}={0,2}")


def _session_endpoints(request: HttpRequest, *, add: str = "", remove: str = "") -> None:
    """Remember which endpoints this browser registered, for the log-out below."""
    endpoints = [e for e in request.session.get(PUSH_SESSION_KEY, []) if e not in (add, remove)]
    if add:
        endpoints.append(add)
    request.session[PUSH_SESSION_KEY] = endpoints[-5:]


def forget_push_on_logout(
    sender: type[Model], request: HttpRequest | None, user: User | None, **kwargs: object
) -> None:
    """Log-out ends this browser's push for the account: someone else may use it next.

    Connected to `user_logged_out` by notifications.receivers.
    """
    if request is None or user is None or not hasattr(request, "session"):
        return
    endpoints = request.session.get(PUSH_SESSION_KEY) or []
    if endpoints:
        services.push_subscriptions_forget(user=user, endpoints=list(endpoints))


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    """The site's one service worker (push, and the offline page it keeps:
    euchre_site.views.offline), in the language of the request."""
    context = {
        "offline_url": pwa.offline_assets()[0],
        "offline_assets": pwa.offline_assets(),
        "revision": pwa.offline_revision(translation.get_language()),
    }
    response = HttpResponse(
        render_to_string("notifications/sw.js", context),
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response
