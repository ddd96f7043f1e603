from allauth.account import mixins as allauth_mixins
from allauth.account import views as allauth_views
from allauth.decorators import rate_limit
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from . import guests
from .forms import TablePreferencesForm, TimeZoneForm
from .languages import supported
from .models import VACATION_DAYS_PER_YEAR


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """The signed-in player's own profile: account details and links to manage them."""
    code = (
        supported(getattr(request.user, "language", ""))
        or supported(translation.get_language())
        or settings.LANGUAGE_CODE
    )
    return render(
        request,
        "accounts/profile.html",
        {
            "profile_user": request.user,
            # The language they read (their choice, else this page's): named in itself.
            "language": {"code": code, "name_local": dict(settings.LANGUAGES)[code]},
            "vacation_days_per_year": VACATION_DAYS_PER_YEAR,
            "table_form": TablePreferencesForm(instance=request.user),
            "zone_form": TimeZoneForm(instance=request.user),
        },
    )


@login_required
@require_POST
def time_zone(request: HttpRequest) -> HttpResponse:
    """The profile's time zone: saved (the times of every page, e-mail and
    quiet hours follow it), then back to the profile. A name zoneinfo does not
    know is refused with a 400."""
    form = TimeZoneForm(request.POST, instance=request.user)
    if not form.is_valid():
        # Translators: the answer to a profile form that sent a time zone the site does not know (a forged one).
        return HttpResponseBadRequest(_("That time zone is not known."))
    form.save()
    # Translators: a message after the player chose their time zone on the profile.
    messages.success(request, _("Your time zone is saved."))
    return redirect("accounts:profile")


@login_required
@require_POST
def table_preferences(request: HttpRequest) -> HttpResponse:
    """The profile's table options: saved, then back to the profile."""
    form = TablePreferencesForm(request.POST, instance=request.user)
    if not form.is_valid():  # a forged value: nothing is saved
        return HttpResponseBadRequest(_("Those preferences could not be saved."))
    form.save()
    messages.success(request, _("Your table preferences are saved."))
    return redirect("accounts:profile")


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


class SignupView(allauth_views.SignupView):
    """allauth's sign-up, open to a guest too (allauth sends a signed-in
    visitor away): a guest signs up as themselves and keeps their games
    (accounts.adapter.AccountAdapter.new_user fills in the guest's row)."""

    @method_decorator(rate_limit(action="signup"))
    @method_decorator(sensitive_post_parameters())
    @method_decorator(never_cache)
    def dispatch(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponseBase:
        if guests.is_guest(request.user):
            # Past RedirectAuthenticatedUserMixin: straight to the form.
            return super(allauth_mixins.RedirectAuthenticatedUserMixin, self).dispatch(
                request, *args, **kwargs
            )
        return super().dispatch(request, *args, **kwargs)


signup = SignupView.as_view()
