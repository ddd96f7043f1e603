"""Parse JSON from a request body without letting its size or shape hurt the process.

One function and two exceptions::

    from euchre_site.safe_json import JSONTooLarge, loads_limited

    try:
        data = loads_limited(request.body, max_bytes=4096)
    except JSONTooLarge as exc:          # a ValueError too
        return JsonResponse({"ok": False, "error": str(exc)}, status=413)
    except ValueError as exc:
        return JsonResponse({"ok": False, "error": str(exc)}, status=400)

`loads_limited(raw, *, max_bytes, max_depth=32)` returns what `json.loads`
returns (any JSON value: check its type yourself), or raises `ValueError`
(`InvalidJSON`, or its subclass `JSONTooLarge` for the size) whose message can
be shown to the user as it is:

- "The request body is too large (at most N bytes)."  (`JSONTooLarge`; `raw`
  as bytes, a `str` is measured in UTF-8 bytes)
- "The request body is not UTF-8 text."
- "The JSON is nested too deeply (at most N levels)."  (each `[` or `{` is a
  level; checked before parsing, so 100,000 brackets never reach the parser's
  recursion)
- "The JSON has NaN or Infinity, which are not allowed."
- "The request body is not valid JSON: <what and where>."

Never RecursionError, never a number longer than Python allows (4300 digits).
"""

from __future__ import annotations

import json
import re
from typing import NoReturn

__all__ = ["InvalidJSON", "JSONObject", "JSONTooLarge", "JSONValue", "loads_limited"]

# Request JSON is untrusted until checked: `loads_limited` answers any JSON value
# (dict, list, str, int, float, bool, None) as `object`, so that a caller must check
# its type (isinstance) before using it; a JSON object so checked is a JSONObject.
JSONValue = object
JSONObject = dict[str, object]

# A JSON string literal (escapes included), so brackets inside strings do not count; an
# unterminated one runs to the end (one pass, no backtracking over the rest of the text).
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class InvalidJSON(ValueError):
    """The body is not JSON this site accepts; str() is a sentence for the user."""


class JSONTooLarge(InvalidJSON):
    """The body is over `max_bytes` (HTTP 413 fits)."""


def loads_limited(raw: str | bytes, *, max_bytes: int, max_depth: int = 32) -> JSONValue:
    """`json.loads(raw)` for untrusted input, with the limits above."""
    if isinstance(raw, (bytes, bytearray, memoryview)):
        data = bytes(raw)
        if len(data) > max_bytes:
            raise JSONTooLarge(f"The request body is too large (at most {max_bytes} bytes).")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise InvalidJSON("The request body is not UTF-8 text.") from None
    elif isinstance(raw, str):
        if len(raw) > max_bytes or len(raw.encode("utf-8", "surrogatepass")) > max_bytes:
            raise JSONTooLarge(f"The request body is too large (at most {max_bytes} bytes).")
        text = raw
    else:
        raise TypeError(f"loads_limited takes str or bytes, not {type(raw).__name__}")
    _check_depth(text, max_depth)
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise InvalidJSON(
            f"The request body is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."
        ) from None
    except RecursionError:  # cannot happen below max_depth; kept as a last guard
        raise InvalidJSON(f"The JSON is nested too deeply (at most {max_depth} levels).") from None
    except InvalidJSON:
        raise
    except ValueError:  # e.g. an integer of more digits than Python converts
        raise InvalidJSON("The request body is not valid JSON: a number is too long.") from None


def _refuse_constant(name: str) -> NoReturn:
    raise InvalidJSON("The JSON has NaN or Infinity, which are not allowed.")


def _check_depth(text: str, max_depth: int) -> None:
    """Count open brackets outside strings; stop at the first level past `max_depth`.

    Unbalanced or malformed input is left for the parser to report.
    """
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > max_depth:
                raise InvalidJSON(f"The JSON is nested too deeply (at most {max_depth} levels).")
        else:
            depth -= 1


def is_clean_text(value: JSONValue) -> bool:
    """Whether every string in `value` (keys included) is Unicode text that a
    page, a log or PostgreSQL can hold: no half of a surrogate pair, no NUL.
    JSON's escapes can carry both; check input before echoing or storing it."""
    if isinstance(value, str):
        if "\x00" in value:
            return False
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(is_clean_text(k) and is_clean_text(v) for k, v in value.items())
    if isinstance(value, list):
        return all(is_clean_text(v) for v in value)
    return True
