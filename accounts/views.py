from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from .languages import supported


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """The signed-in player's own profile: account details and links to manage them."""
    return render(request, "accounts/profile.html", {"profile_user": request.user})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The language menu: Django's set_language (the cookie, and back to the
    page), and for a signed-in player their profile too, which their e-mails
    and pushes follow."""
    response = django_set_language(request)
    code = supported(request.POST.get("language"))
    user = request.user
    if code and user.is_authenticated and getattr(user, "language", None) != code:
        user.language = code  # type: ignore[union-attr]
        user.save(update_fields=["language"])
    return response
