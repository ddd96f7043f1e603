"""The table page's own forms carry the CSRF token, so they work without
JavaScript (frames pushed later rely on htmx's header instead)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.games.conftest import open_table

pytestmark = pytest.mark.django_db


def test_fill_with_bots_works_as_a_plain_form_post(alice: Any) -> None:
    table = open_table(alice)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get(table.get_absolute_url()).content.decode()
    form = re.search(r'<form[^>]*action="([^"]*/bots/)"[^>]*>(.*?)</form>', page, re.S)
    assert form is not None, "no fill-with-bots form"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.group(2))
    assert token is not None, "the form has no CSRF token"
    answer = client.post(form.group(1), {"csrfmiddlewaretoken": token.group(1), "level": "easy"})
    assert answer.status_code == 302
    assert table.games.exists()  # both seats filled: the game started
