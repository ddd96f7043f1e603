"""No player can slow the others down with the heavy stats requests (issue
21): a game record is at most 1 MB, replayed once at import and never again
when its pages are viewed; imports, hard-bot reviews and agreement runs are
limited per player (a 429 that says so, nothing stored or queued), and an
agreement run queues at most 20 reviews, none while the last run's are queued.

The rate limits are set to a few a day here, so no window turns over mid-test."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import engine
from stats import review, services
from stats.models import ImportedGame, Review
from stats.services import MAX_IMPORT_BYTES

from .helpers import DEAL_HEARTS_1, build_game

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def thrown_in_hand(dealer: int) -> dict[str, Any]:
    """A hand everybody passes twice: the smallest a record can hold."""
    order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer] * 2
    return {
        "format": "euchre3-hand/1",
        "rules": {},
        "dealer": dealer,
        "deal": DEAL_HEARTS_1,
        "actions": [{"seat": s, "type": "pass"} for s in order],
    }


def record_of(hands: int) -> dict[str, Any]:
    """A valid game record of `hands` thrown-in hands (a game that never ends)."""
    return {
        "format": "euchre3-game/1",
        "target": 10,
        "rules": {},
        "first_dealer": 0,
        "hands": [thrown_in_hand(n % 3) for n in range(hands)],
    }


def record_text_near(size: int) -> tuple[str, str]:
    """Two valid records as JSON text: the largest at most `size` bytes, and
    the same with one hand more (over `size`)."""
    per_hand = len(json.dumps(thrown_in_hand(0))) + 2  # ", " between hands
    n = (size - len(json.dumps(record_of(0)))) // per_hand
    while len(json.dumps(record_of(n + 1))) <= size:
        n += 1
    while len(json.dumps(record_of(n))) > size:
        n -= 1
    under, over = json.dumps(record_of(n)), json.dumps(record_of(n + 1))
    assert len(under) <= size < len(over)
    return under, over


@pytest.fixture
def played(alice: Any, bob: Any, carol: Any) -> Any:
    game = build_game([alice, bob, carol])
    services.after_game(game_id=game.pk)
    return game


def forbid_replays(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """From now on replaying a game, or a whole hand, fails the test; each hand
    state the replay viewer rebuilds (one hand's first steps) is noted in the
    list returned."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("replayed")

    for name in ("replay_game", "game_from_record", "replay_hand"):
        monkeypatch.setattr(engine, name, refuse)
    rebuilt: list[dict[str, Any]] = []
    real = engine.hand_from_record

    def noted(record: Any, **kwargs: Any) -> Any:
        rebuilt.append(record)
        return real(record, **kwargs)

    monkeypatch.setattr(engine, "hand_from_record", noted)
    return rebuilt


# --------------------------------------------------------------------------- imports


def test_a_record_is_at_most_a_megabyte(alice: Any) -> None:
    assert MAX_IMPORT_BYTES == 1_000_000
    under, over = record_text_near(MAX_IMPORT_BYTES)
    c = client_for(alice)
    r = c.post(reverse("stats:import"), {"record": over})
    assert r.status_code == 413
    assert "That record is too large (at most 1,000,000 bytes)." in r.content.decode()
    assert not ImportedGame.objects.exists()
    r = c.post(reverse("stats:import"), {"record": under, "name": "Long"})
    assert r.status_code == 302
    imported = ImportedGame.objects.get(owner=alice)
    hands = len(json.loads(under)["hands"])
    assert hands > 2000 and imported.result["hands"] == hands
    assert len(imported.hand_results) == hands
    assert all(h["complete"] and h["thrown_in"] for h in imported.hand_results)


def test_import_replays_once_and_keeps_every_hands_result(played: Any, alice: Any) -> None:
    from games import services as game_services

    record = engine.game_to_record(game_services.game_state(played))
    imported = services.import_game_record(owner=alice, raw=json.dumps(record), name="Friday")
    assert imported.result == engine.replay_game(record)
    assert imported.hand_results == [engine.replay_hand(h) for h in record["hands"]]
    imported.refresh_from_db()
    assert [h["points"] for h in imported.hand_results] == [
        [0, 3, 0], [0, 0, 0], [0, 2, 2], [4, 4, 0], [0, 3, 0],
    ]  # fmt: skip


def test_the_imported_pages_read_the_stored_results_and_replay_nothing(
    played: Any, alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import services as game_services

    record = engine.game_to_record(game_services.game_state(played))
    imported = services.import_game_record(owner=alice, raw=json.dumps(record))
    # The stored record of the other hands is spoiled: the pages never read it.
    spoiled = {**record, "hands": [record["hands"][0]] + [{"spoiled": True}] * 4}
    ImportedGame.objects.filter(pk=imported.pk).update(record=spoiled)
    rebuilt = forbid_replays(monkeypatch)
    c = client_for(alice)
    page = c.get(reverse("stats:imported", args=[imported.pk]))
    assert page.status_code == 200 and not rebuilt
    listed = page.content.decode().split('id="imported-hands"')[1].split("</ol>")[0]
    assert listed.count("<li>") == 5 and "(thrown in)" in listed and "points 4 / 4 / 0" in listed
    step = c.get(reverse("stats:imported_hand", args=[imported.pk, 0]) + "?step=99")
    assert step.status_code == 200 and 'id="replay-result"' in step.content.decode()
    # The one hand's state, from its own record: no other hand was rebuilt.
    assert rebuilt and all(r["deal"] == record["hands"][0]["deal"] for r in rebuilt)
    assert c.get(reverse("stats:imported_hand", args=[imported.pk, 5])).status_code == 404


def test_an_unfinished_last_hand_is_listed_but_not_shown(alice: Any) -> None:
    record = record_of(2)
    record["hands"][1]["actions"] = record["hands"][1]["actions"][:2]
    imported = services.import_game_record(owner=alice, raw=json.dumps(record))
    assert [h["complete"] for h in imported.hand_results] == [True, False]
    c = client_for(alice)
    page = c.get(reverse("stats:imported", args=[imported.pk])).content.decode()
    assert "Hand 2 (in progress: not shown)" in page
    assert c.get(reverse("stats:imported_hand", args=[imported.pk, 0])).status_code == 200
    assert c.get(reverse("stats:imported_hand", args=[imported.pk, 1])).status_code == 404
    huge = reverse("stats:imported_hand", args=[imported.pk, 10**20])
    assert c.get(huge).status_code == 404


def test_games_imported_before_get_their_hands_results_from_the_migration(alice: Any) -> None:
    record = record_of(4)
    old = ImportedGame.objects.create(
        owner=alice, record=record, result=engine.replay_game(record), hand_results=[]
    )
    migration = importlib.import_module("stats.migrations.0003_imported_hand_results")
    migration.replay_once(django_apps, None)
    old.refresh_from_db()
    assert old.hand_results == [engine.replay_hand(h) for h in record["hands"]]


def test_imports_are_limited_per_player_and_every_try_counts(
    settings: Any, alice: Any, bob: Any
) -> None:
    settings.IMPORT_RATE = "2/d"
    c = client_for(alice)
    good = json.dumps(record_of(3))
    assert c.post(reverse("stats:import"), {"record": "{nope"}).status_code == 400
    assert c.post(reverse("stats:import"), {"record": good}).status_code == 302
    for _ in range(2):
        r = c.post(reverse("stats:import"), {"record": good, "name": "Third"})
        assert r.status_code == 429
        assert "You have imported many game records in a short time" in r.content.decode()
    assert ImportedGame.objects.filter(owner=alice).count() == 1
    # The page itself, and the games already imported, stay open.
    assert c.get(reverse("stats:import")).status_code == 200
    # Another player has a count of their own.
    assert client_for(bob).post(reverse("stats:import"), {"record": good}).status_code == 302


def test_the_import_limit_holds_for_uploads_before_the_record_is_parsed(
    settings: Any, alice: Any
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    settings.IMPORT_RATE = "1/d"
    c = client_for(alice)
    good = json.dumps(record_of(3)).encode()
    r = c.post(reverse("stats:import"), {"file": SimpleUploadedFile("g.json", good)})
    assert r.status_code == 302
    _under, over = record_text_near(MAX_IMPORT_BYTES)
    r = c.post(reverse("stats:import"), {"file": SimpleUploadedFile("g.json", over.encode())})
    assert r.status_code == 429  # refused for the count, not for the size
    assert ImportedGame.objects.filter(owner=alice).count() == 1


# --------------------------------------------------------------------------- reviews


def test_reviews_are_limited_per_player(settings: Any, played: Any, alice: Any, bob: Any) -> None:
    settings.REVIEW_RATE = "2/d"
    c = client_for(alice)
    hands = list(played.hands.order_by("number"))
    for hand in hands[:2]:
        r = c.post(reverse("stats:review", args=[hand.pk]), HTTP_HX_REQUEST="true")
        assert r.status_code == 200
    r = c.post(reverse("stats:review", args=[hands[3].pk]), HTTP_HX_REQUEST="true")
    assert r.status_code == 429 and r["Content-Type"].startswith("text/plain")
    assert "You have asked for many reviews in a short time" in r.content.decode()
    r = c.post(reverse("stats:review", args=[hands[4].pk]))  # a plain form post: a page
    assert r.status_code == 429
    html = r.content.decode()
    assert "You have asked for many reviews in a short time" in html and 'role="alert"' in html
    assert sorted(Review.objects.filter(user=alice).values_list("hand__number", flat=True)) == [
        0,
        1,
    ]
    # Reading a review is not limited, and another player has a count of their own.
    assert c.get(reverse("stats:review", args=[hands[0].pk])).status_code == 200
    r = client_for(bob).post(reverse("stats:review", args=[hands[0].pk]), HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and Review.objects.filter(user=bob).count() == 1


def test_agreement_runs_are_limited_and_add_nothing_while_reviews_are_queued(
    settings: Any, played: Any, alice: Any
) -> None:
    settings.AGREEMENT_RATE = "2/d"
    c = client_for(alice)
    r = c.post(reverse("stats:agreement"), HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "0 of 4 done" in r.content.decode()
    queued = set(Review.objects.filter(user=alice).values_list("pk", flat=True))
    assert len(queued) == 4
    # Asked again while they are queued (the worker has not run them): nothing more.
    Review.objects.filter(user=alice).update(status=Review.Status.DONE)
    Review.objects.filter(pk=min(queued)).update(status=Review.Status.QUEUED)
    Review.objects.filter(user=alice, hand__number=4).delete()  # a hand left to review
    r = c.post(reverse("stats:agreement"), HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and Review.objects.filter(user=alice).count() == 3
    # Past the limit: a 429 that says so, nothing queued even with the reviews done.
    Review.objects.filter(user=alice).update(status=Review.Status.DONE)
    r = c.post(reverse("stats:agreement"), HTTP_HX_REQUEST="true")
    assert r.status_code == 429 and r["Content-Type"].startswith("text/plain")
    said = "asked for the hard bot's review of your hands many times in a short time"
    assert said in r.content.decode()
    r = c.post(reverse("stats:agreement"))  # a plain form post: a page
    assert r.status_code == 429 and escape(said) in r.content.decode()
    assert Review.objects.filter(user=alice).count() == 3
    # The progress is still there to read.
    assert c.get(reverse("stats:agreement"), HTTP_HX_REQUEST="true").status_code == 200


def test_one_agreement_run_queues_at_most_twenty_reviews(
    settings: Any, alice: Any, bob: Any, carol: Any
) -> None:
    settings.AGREEMENT_RATE = "10/d"
    for n in range(6):  # four hands with decisions each: 24
        game = build_game([alice, bob, carol], name=f"Table {n}")
        services.after_game(game_id=game.pk)
    c = client_for(alice)
    assert c.post(reverse("stats:agreement"), HTTP_HX_REQUEST="true").status_code == 200
    assert Review.objects.filter(user=alice, status=Review.Status.QUEUED).count() == 20
    Review.objects.filter(user=alice).update(status=Review.Status.DONE)
    # The service itself never queues more than 20, whatever it is asked for.
    assert review.agreement_request(user=alice, limit=1000) == 4
    assert Review.objects.filter(user=alice).count() == 24
    assert review.agreement_request(user=alice, limit=1000) == 0


def test_the_limits_default_to_a_few_an_hour() -> None:
    from django.conf import settings

    assert (settings.IMPORT_RATE, settings.REVIEW_RATE, settings.AGREEMENT_RATE) == (
        "5/h", "30/h", "3/h",
    )  # fmt: skip


def test_a_long_imported_game_lists_its_hands_a_page_at_a_time(alice: Any) -> None:
    from stats.views import IMPORTED_HANDS_PER_PAGE as PER_PAGE

    imported = services.import_game_record(owner=alice, raw=json.dumps(record_of(PER_PAGE + 7)))
    c = client_for(alice)
    url = reverse("stats:imported", args=[imported.pk])

    def listed(page: str) -> str:
        html = c.get(f"{url}?page={page}").content.decode()
        return html.split('id="imported-hands"')[1].split("</ol>")[0]

    first, second = listed("1"), listed("2")
    assert first.count("<li>") == PER_PAGE and f"Hand {PER_PAGE}<" in first
    assert second.count("<li>") == 7 and f'start="{PER_PAGE + 1}"' in second
    assert f"Hand {PER_PAGE + 7}<" in second and f"/{PER_PAGE}/" in second  # numbered on
    assert listed("x") == first and listed("999") == second  # odd pages: the nearest


def test_an_imported_games_pages_are_limited_per_player(alice: Any, settings: Any) -> None:
    settings.IMPORT_VIEW_RATE = "3/d"  # a day's window: it cannot turn over mid-test
    imported = services.import_game_record(owner=alice, raw=json.dumps(record_of(2)))
    c = client_for(alice)
    pages = [reverse("stats:imported", args=[imported.pk])] * 2 + [
        reverse("stats:imported_hand", args=[imported.pk, 0])
    ]
    assert [c.get(url).status_code for url in pages] == [200, 200, 200]
    refused = c.get(pages[0])
    assert refused.status_code == 429 and "Too many" in refused.content.decode()
