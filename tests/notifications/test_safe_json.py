"""euchre_site.safe_json: the JSON body parser that the push subscription view
uses (and other views may), on the inputs that make json.loads misbehave."""

from __future__ import annotations

from typing import Any

import pytest

from euchre_site.safe_json import InvalidJSON, JSONTooLarge, loads_limited

BIG = 10_000_000


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("[" * 100_000, "The JSON is nested too deeply (at most 32 levels)."),
        ('{"a":' * 100_000, "The JSON is nested too deeply (at most 32 levels)."),
        ("[" * 100_000 + "]" * 100_000, "The JSON is nested too deeply (at most 32 levels)."),
        (b"[" * 33 + b"]" * 33, "The JSON is nested too deeply (at most 32 levels)."),
        ("NaN", "The JSON has NaN or Infinity, which are not allowed."),
        ('{"x": [1, Infinity]}', "The JSON has NaN or Infinity, which are not allowed."),
        ("-Infinity", "The JSON has NaN or Infinity, which are not allowed."),
        (b"\xc3\x28", "The request body is not UTF-8 text."),
        ("", "The request body is not valid JSON: Expecting value (line 1, column 1)."),
        ("[1,", "The request body is not valid JSON: Expecting value (line 1, column 4)."),
        ("1" * 5000, "The request body is not valid JSON: a number is too long."),
        (
            '"unterminated [[[[',
            "The request body is not valid JSON: Unterminated string "
            "starting at (line 1, column 1).",
        ),
    ],
)
def test_refusals_are_value_errors_with_a_readable_message(raw: Any, message: str) -> None:
    with pytest.raises(InvalidJSON) as caught:
        loads_limited(raw, max_bytes=BIG)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_the_size_is_counted_in_bytes_before_anything_else() -> None:
    raws: list[str | bytes] = [b"[" * 5000, "[" * 5000, '"' + "é" * 2100 + '"']
    for raw in raws:
        with pytest.raises(JSONTooLarge) as caught:
            loads_limited(raw, max_bytes=4096)
        assert str(caught.value) == "The request body is too large (at most 4096 bytes)."
    assert loads_limited('"' + "é" * 2000 + '"', max_bytes=4096) == "é" * 2000


def test_ordinary_json_comes_back_as_json_loads_gives_it() -> None:
    raw = '{"endpoint": "https://x.example/[{", "n": [1, 2.5, null, true], "s": "\\"]"}'
    assert loads_limited(raw, max_bytes=4096) == {
        "endpoint": "https://x.example/[{",
        "n": [1, 2.5, None, True],
        "s": '"]',
    }
    assert loads_limited(b"[" * 32 + b"]" * 32, max_bytes=4096) is not None
    assert loads_limited("[" * 3 + "]" * 3, max_bytes=100, max_depth=3) == [[[]]]
    with pytest.raises(InvalidJSON):
        loads_limited("[" * 4 + "]" * 4, max_bytes=100, max_depth=3)
