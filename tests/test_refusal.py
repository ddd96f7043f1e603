"""Every refusal code has a status, and a message translated in every
language the site speaks (euchre_site/refusal.py)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from euchre_site.refusal import MESSAGES, STATUS, Code, Refusal

LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]


@pytest.mark.parametrize("code", list(Code))
def test_every_code_has_a_4xx_and_a_message(code: Code) -> None:
    assert 400 <= STATUS[code] < 500
    refusal = Refusal(code=code)
    assert refusal.status == STATUS[code]
    assert refusal.message == str(MESSAGES[code])
    assert refusal.code is code


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_message_is_translated(language: str) -> None:
    untranslated = []
    for code in Code:
        english = str(MESSAGES[code])
        with translation.override(language):
            if str(MESSAGES[code]) == english:
                untranslated.append(code)
    assert untranslated == [], f"{language}: {untranslated}"


def test_a_raise_site_may_say_more_and_choose_the_status() -> None:
    refusal = Refusal("Seat 2 is taken.", code=Code.CONFLICT, rule="seats")
    assert (refusal.message, refusal.status, refusal.rule) == ("Seat 2 is taken.", 409, "seats")
    assert Refusal("Slow down.", 429).status == 429
