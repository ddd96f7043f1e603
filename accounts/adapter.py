"""allauth's account adapter: every link in an account e-mail (password reset,
e-mail verification, "you already have an account", "no account here") is
built on settings.SITE_URL, never on the Host header of the request that
caused it, so a forged Host cannot send a player a link to another server."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from . import guests

if TYPE_CHECKING:
    from allauth.account.models import EmailConfirmation
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.forms import Form

    from .models import User


def site_url(location: str) -> str:
    """`location` (a path, or an absolute URL of this site) on SITE_URL's scheme, host and port."""
    parts = urlsplit(location)
    path = parts.path or "/"
    if parts.query:
        path += f"?{parts.query}"
    if parts.fragment:
        path += f"#{parts.fragment}"
    return f"{settings.SITE_URL}{path}"


class NamedSite:
    """The site as allauth's e-mails show it: its name in the reader's
    language, as `name` and as `domain` alike (the mails' links are on
    SITE_URL already)."""

    @property
    def name(self) -> str:
        # Translators: the site's name, in e-mails too ("Thank you for using Cutthroat Euchre!").
        return _("Cutthroat Euchre")

    domain = name


class AccountAdapter(DefaultAccountAdapter):
    def new_user(self, request: HttpRequest) -> AbstractBaseUser:
        """A guest who signs up becomes that player: the sign-up fills in the
        guest's own row, so their games stay theirs (accounts.guests)."""
        user = getattr(request, "user", None)
        if guests.is_guest(user):
            return user
        return super().new_user(request)

    def save_user(self, request: HttpRequest, user: User, form: Form, commit: bool = True) -> User:
        user.is_guest = False
        return super().save_user(request, user, form, commit=commit)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        if guests.GUEST_NAME.fullmatch(username.strip()):
            # Translators: sign-up refuses a user name like "Guest-4821": such names are the site's for visitors playing without an account.
            raise ValidationError(_("Names like Guest-4821 are kept for guests: choose another."))
        return super().clean_username(username, shallow=shallow)

    def get_reset_password_from_key_url(self, key: str) -> str:
        path = reverse("account_reset_password_from_key", kwargs={"uidb36": "UID", "key": "KEY"})
        return site_url(path.replace("UID-KEY", quote(key)))

    def get_email_confirmation_url(
        self, request: HttpRequest, emailconfirmation: EmailConfirmation
    ) -> str:
        return site_url(reverse("account_confirm_email", args=[emailconfirmation.key]))

    # allauth's mail context: a template context of its making (Django's templates take Any).
    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # The other mails' links (signup_url, password_reset_url, ...) are made by
        # allauth from the request: each `*_url` is moved onto SITE_URL.
        context = {
            key: site_url(value)
            if key.endswith("_url") and isinstance(value, str) and value
            else value
            for key, value in context.items()
        }
        # The mails name the site by its name, never its address ("register an
        # account on 127.0.0.1:8000"): allauth's texts say `current_site.domain`.
        context.setdefault("current_site", NamedSite())
        super().send_mail(template_prefix, email, context)
