"""User names: Django's characters (letters, digits and @.+-_), at most 30 of
them, so that every name fits its seat on the card table (two or three lines
at the smallest size, never cut)."""

from __future__ import annotations

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import MaxLengthValidator

USERNAME_MAX_LENGTH = 30

# allauth's ACCOUNT_USERNAME_VALIDATORS names this list.
username_validators = [UnicodeUsernameValidator(), MaxLengthValidator(USERNAME_MAX_LENGTH)]
