"""Server-rendered SVG charts: small, scalable to a phone's width, each with
a title and description for screen readers (the pages add a data table)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

W, H, PAD = 600, 220, 36
Text = str | Promise  # text in the reader's language, lazy or not


def number(v: float) -> str:
    """A value as a chart or a figure writes it, in the reader's language: as
    many decimals as it needs, up to six significant digits ("3", "1.5", "1,5")."""
    text = f"{v:g}"
    if "e" in text or "n" in text:
        return text
    return number_format(Decimal(text))


def _scale(values: Sequence[float]) -> tuple[float, float]:
    lo, hi = min(values), max(values)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    return lo, hi


def line_chart(
    values: Sequence[float], *, chart_id: str, title: Text, desc: Text, unit: str = ""
) -> SafeString:
    """A line over `values` (oldest first) with its lowest and highest marked.
    `chart_id` names the title's and description's ids (`<chart_id>-t`, `-d`);
    `title` and `desc` are text in the reader's language."""
    if not values:
        return mark_safe("")
    lo, hi = _scale(values)
    n = len(values)

    def x(i: int) -> float:
        return PAD + (W - 2 * PAD) * (i / (n - 1) if n > 1 else 0.5)

    def y(v: float) -> float:
        return H - PAD - (H - 2 * PAD) * (v - lo) / (hi - lo)

    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    dots = format_html_join(
        "",
        '<circle cx="{}" cy="{}" r="3"></circle>',
        ((f"{x(i):.1f}", f"{y(v):.1f}") for i, v in enumerate(values)),
    )
    return format_html(
        '<svg class="chart line-chart" viewBox="0 0 {w} {h}" role="img" aria-labelledby="{id}-t {id}-d"'
        ' preserveAspectRatio="xMidYMid meet">'
        '<title id="{id}-t">{title}</title><desc id="{id}-d">{desc}</desc>'
        '<line class="axis" x1="{pad}" y1="{bottom}" x2="{right}" y2="{bottom}"></line>'
        '<line class="axis" x1="{pad}" y1="{pad}" x2="{pad}" y2="{bottom}"></line>'
        '<text class="tick" x="4" y="{top_label}">{hi}{unit}</text>'
        '<text class="tick" x="4" y="{bottom}">{lo}{unit}</text>'
        '<polyline class="series" points="{points}"></polyline>{dots}</svg>',
        w=W,
        h=H,
        id=chart_id,
        title=title,
        desc=desc,
        pad=PAD,
        bottom=H - PAD,
        right=W - PAD,
        top_label=PAD + 4,
        hi=number(hi),
        lo=number(lo),
        unit=unit,
        points=points,
        dots=dots,
    )


def bar_chart(
    bars: Sequence[tuple[Text, float]], *, chart_id: str, title: Text, desc: Text
) -> SafeString:
    """Vertical bars, each labelled with its name and value (`chart_id`,
    `title` and `desc` as for line_chart)."""
    if not bars:
        return mark_safe("")
    top = max(v for _, v in bars) or 1
    slot = (W - 2 * PAD) / len(bars)
    parts = []
    for i, (label, v) in enumerate(bars):
        h = (H - 2 * PAD - 16) * v / top
        x0 = PAD + i * slot + slot * 0.2
        parts.append(
            format_html(
                '<rect class="bar" x="{}" y="{}" width="{}" height="{}"></rect>'
                '<text class="value" x="{}" y="{}" text-anchor="middle">{}</text>'
                '<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>',
                f"{x0:.1f}",
                f"{H - PAD - h:.1f}",
                f"{slot * 0.6:.1f}",
                f"{h:.1f}",
                f"{x0 + slot * 0.3:.1f}",
                f"{H - PAD - h - 4:.1f}",
                number(v),
                f"{x0 + slot * 0.3:.1f}",
                H - PAD + 16,
                label,
            )
        )
    return format_html(
        '<svg class="chart bar-chart" viewBox="0 0 {} {}" role="img" aria-labelledby="{}-t {}-d">'
        '<title id="{}-t">{}</title><desc id="{}-d">{}</desc>{}</svg>',
        W,
        H,
        chart_id,
        chart_id,
        chart_id,
        title,
        chart_id,
        desc,
        mark_safe("".join(parts)),
    )
