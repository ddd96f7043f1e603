"""Records offered as downloads (docs/hand-record.md JSON)."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import JsonResponse


def json_attachment(data: Mapping[str, object], filename: str) -> JsonResponse:
    """The record as an indented JSON file the browser saves as `filename`."""
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
