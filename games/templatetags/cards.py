"""The card pictures' shared shapes in the page's language (base.html's sprite)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from games import presenters

register = template.Library()


@register.simple_tag
def rank_symbols() -> SafeString:
    """Each rank's corner index as an SVG symbol the cards use (presenters.card_html)."""
    return presenters.rank_symbols()
