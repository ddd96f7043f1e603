"""The card pictures' shared shapes in the page's language (base.html's sprite)."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from games import presenters

register = template.Library()


@register.simple_tag
def card_symbols() -> SafeString:
    """Each rank's corner index and each card's face as SVG symbols the cards
    use (presenters.card_html)."""
    return presenters.card_symbols()
