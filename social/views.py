"""Thin views: parse, call one service, answer. Forms post plainly and come
back where they were sent from (`next`); a refusal is a page with the reason
under its 4xx status, and nothing has changed."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_ratelimit.core import is_ratelimited

from accounts.models import User
from euchre_site.refusal import Code, Refusal
from games import access
from games import services as game_services
from games.models import Table

from . import selectors, services
from .models import Invitation

MAX_QUERY = 150
SEARCH_RESULTS = 20


def _back(request: HttpRequest, default: str) -> str:
    nxt = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        nxt, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return nxt
    return default


def _me(request: HttpRequest) -> User:
    """The signed-in player: the views that change something require one."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(
        request,
        "social/refused.html",
        {"message": message, "back": _back(request, reverse("social:friends"))},
        status=status,
    )


Done = str | tuple[str, str]  # the sentence to show, and where to go if not back


def social_post(
    group: str, rate_setting: str
) -> Callable[[Callable[..., Done]], Callable[..., HttpResponse]]:
    """A signed-in POST that calls one service: rate-limited per player (the
    rate is the setting named `rate_setting`); its handler returns the
    sentence to show; a refusal answers 4xx."""

    def wrap(handler: Callable[..., Done]) -> Callable[..., HttpResponse]:
        @login_required
        @require_POST
        @functools.wraps(handler)
        def view(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            rate = getattr(settings, rate_setting)
            if is_ratelimited(request, group=group, key="user", rate=rate, increment=True):
                return _refused(request, _("Too many at once: wait a while and try again."), 429)
            try:
                done = handler(request, *args, **kwargs)
            except Refusal as exc:  # ours, or games refusing a seat
                return _refused(request, exc.message, exc.status)
            said, go = done if isinstance(done, tuple) else (done, None)
            if getattr(request, "htmx", False) and go is None:
                return HttpResponse(format_html('<p role="status" class="small">{}</p>', said))
            messages.success(request, said)
            return redirect(go or _back(request, reverse("social:friends")))

        return view

    return wrap


# --------------------------------------------------------------------------- pages


@login_required
def players(request: HttpRequest) -> HttpResponse:
    """Find a player by name (the start of it, any case)."""
    q = request.GET.get("q", "").strip()[:MAX_QUERY].replace("\x00", "")
    user = _me(request)
    found = selectors.search(q, user.pk, SEARCH_RESULTS) if q else []
    return render(request, "social/players.html", {"q": q, "found": found})


@login_required
def friends(request: HttpRequest) -> HttpResponse:
    return render(request, "social/friends.html", selectors.friends_page(_me(request)))


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation's page: what, where, who; accept or decline in one click.
    Someone not signed in goes through sign-up (or log-in) and comes back; but
    an invitation no longer open (cancelled, expired, answered, or gone) says
    so first, to anyone, with its own page (410)."""
    inv = (
        Invitation.objects.select_related("table", "inviter", "invitee")
        .filter(token=token[:64])
        .first()
    )
    if inv is None:
        return _invitation_closed(request, "gone")
    user = request.user
    if isinstance(user, User):
        if inv.invitee_id not in (None, user.pk) or (
            inv.invitee_id is not None and selectors.has_blocked(user.pk, inv.inviter_id)
        ):
            return _refused(request, _("This invitation is not for you."), 404)
        if inv.status == Invitation.Status.ACCEPTED and inv.invitee_id == user.pk:
            return redirect(inv.table)
    if not inv.is_live():
        return _invitation_closed(request, _closed_reason(inv))
    if not request.user.is_authenticated:
        request.session[selectors.SIGNUP_INVITATION_KEY] = inv.token
        return redirect(f"{reverse('account_signup')}?next={inv.get_absolute_url()}")
    seats = list(inv.table.seats.select_related("user"))
    return render(request, "social/invitation.html", {"inv": inv, "live": True, "seats": seats})


def _closed_reason(inv: Invitation) -> str:
    """Why an invitation no longer holds a seat, as games/invitation_closed.html names it."""
    if inv.status == Invitation.Status.CANCELLED:
        return "cancelled"
    if inv.status in (Invitation.Status.ACCEPTED, Invitation.Status.DECLINED):
        return "answered"
    return "expired"  # marked so, or its seven days are over before the sweeper came


def _invitation_closed(request: HttpRequest, reason: str) -> HttpResponse:
    return render(request, "games/invitation_closed.html", {"reason": reason}, status=410)


# --------------------------------------------------------------------------- friends


def _named(username: str) -> User:
    return services.player_named(username)


@social_post("friend", "SOCIAL_RATE")
def friend(request: HttpRequest, username: str) -> str:
    other = _named(username)
    what = request.POST.get("do", "")
    user = _me(request)
    name = {"name": other.username}
    if what == "send":
        req = services.friend_request_send(sender=user, recipient=other)
        if req.status == req.Status.ACCEPTED:
            return _("You and %(name)s are now friends.") % name
        return _("Friend request sent to %(name)s.") % name
    if what == "withdraw":
        services.friend_request_withdraw(sender=user, recipient=other)
        return _("Friend request to %(name)s withdrawn.") % name
    if what in ("accept", "decline"):
        services.friend_request_answer(recipient=user, sender=other, accept=what == "accept")
        if what == "accept":
            return _("You and %(name)s are now friends.") % name
        return _("Friend request from %(name)s declined.") % name
    if what == "remove":
        services.unfriend(user=user, other=other)
        return _("%(name)s is no longer your friend.") % name
    raise Refusal(_("Choose what to do."))


@social_post("block", "SOCIAL_RATE")
def block(request: HttpRequest, username: str) -> str:
    other = _named(username)
    services.block(user=_me(request), other=other)
    return _("You blocked %(name)s.") % {"name": other.username}


@social_post("block", "SOCIAL_RATE")
def unblock(request: HttpRequest, username: str) -> str:
    other = _named(username)
    services.unblock(user=_me(request), other=other)
    return _("You unblocked %(name)s.") % {"name": other.username}


@social_post("mute", "SOCIAL_RATE")
def mute(request: HttpRequest, username: str) -> str:
    other = _named(username)
    services.mute(user=_me(request), other=other)
    return _("You muted %(name)s: their messages are hidden from you.") % {"name": other.username}


@social_post("mute", "SOCIAL_RATE")
def unmute(request: HttpRequest, username: str) -> str:
    other = _named(username)
    services.unmute(user=_me(request), other=other)
    return _("You unmuted %(name)s.") % {"name": other.username}


# --------------------------------------------------------------------------- invitations


def _position(request: HttpRequest) -> int:
    return game_services.seat_position(request.POST.get("position", ""))


@social_post("invite", "INVITATION_RATE")
def invite_player(request: HttpRequest, table_id: int) -> str:
    table = get_object_or_404(Table.objects.prefetch_related("seats"), pk=table_id)
    if not access.may_view(request.user, table, request.session):
        raise Refusal(_("There is no such table."), code=Code.NOT_FOUND)
    name = request.POST.get("name", "")[:300]
    inv = services.invitation_send(
        table=table, inviter=_me(request), name=name, position=_position(request)
    )
    who = inv.invitee.username if inv.invitee is not None else inv.email
    # Translators: %(name)s is a player's user name or an e-mail address; %(n)s a seat number.
    return _("Seat %(n)s is held for %(name)s until they answer.") % {
        "name": who,
        "n": inv.position + 1,
    }


@social_post("invite", "INVITATION_RATE")
def invitation_cancel(request: HttpRequest, invitation_id: int) -> str:
    services.invitation_cancel(invitation_id=invitation_id, user=_me(request))
    return _("The invitation is cancelled; the seat is free again.")


@login_required
@require_POST
def invitation_answer(request: HttpRequest, token: str) -> HttpResponse:
    what = request.POST.get("do", "")
    try:
        if what == "accept":
            table = services.invitation_accept(token=token, user=_me(request))
            return redirect(table)
        if what == "decline":
            services.invitation_decline(token=token, user=_me(request))
            messages.success(request, _("Invitation declined."))
            return redirect("social:friends")
        raise Refusal(_("Choose what to do."))
    except Refusal as exc:
        return _refused(request, exc.message, exc.status)


@social_post("invite", "INVITATION_RATE")
def play_again(request: HttpRequest, table_id: int) -> Done:
    table = get_object_or_404(Table, pk=table_id)
    if not access.may_view(request.user, table, request.session):
        raise Refusal(_("There is no such table."), code=Code.NOT_FOUND)
    new = services.play_again(table=table, user=_me(request))
    said = _("A new table is open: the same players are invited to their seats.")
    return said, new.get_absolute_url()
