"""The translation catalogs: complete, not fuzzy, and up to date with the code.

Every language of settings.LANGUAGES but English has locale/<code>/LC_MESSAGES/
django.po (and djangojs.po for the scripts). The messages are extracted again
from the code into a temporary folder and compared with each catalog, so a
string added to the code without a translation fails here.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
LANGS = [code for code, _ in settings.LANGUAGES if code != "en"]
DOMAINS = ("django", "djangojs")
# What makemessages reads: the project's own code and templates.
SOURCES = (
    "accounts", "euchre_site", "games", "notifications", "stats", "social", "chat", "daily",
    "templates", "static",
)  # fmt: skip


def _catalog(lang: str, domain: str) -> polib.POFile:
    path = ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
    assert path.is_file(), f"missing catalog {path.relative_to(ROOT)}"
    return polib.pofile(str(path))


def _key(e: polib.POEntry) -> tuple[str | None, str, str | None]:
    return (e.msgctxt, e.msgid, e.msgid_plural or None)


@pytest.fixture(scope="module")
def extracted(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, set[tuple[str | None, str, str | None]]]:
    """The messages in the code now, extracted by makemessages in a copy of the sources."""
    work = tmp_path_factory.mktemp("extract")
    for name in SOURCES:
        shutil.copytree(
            ROOT / name,
            work / name,
            ignore=shutil.ignore_patterns("__pycache__", "*.mo", "*.po", "locale"),
        )
    shutil.copy(ROOT / "manage.py", work / "manage.py")
    (work / "locale").mkdir()
    out: dict[str, set[tuple[str | None, str, str | None]]] = {}
    for domain in DOMAINS:
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "makemessages",
                "-l",
                "el",
                "-d",
                domain,
                "--no-location",
                "-v",
                "0",
                "--ignore",
                "static/vendor/*",
            ],
            cwd=work,
            check=True,
            env={
                "PYTHONPATH": str(ROOT),
                "PATH": "/usr/bin:/bin",
                "DJANGO_SETTINGS_MODULE": "euchre_site.settings",
            },
        )
        po = work / "locale" / "el" / "LC_MESSAGES" / f"{domain}.po"
        out[domain] = {_key(e) for e in polib.pofile(str(po))} if po.exists() else set()
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated_and_none_is_fuzzy(lang: str, domain: str) -> None:
    po = _catalog(lang, domain)
    untranslated = [e.msgid for e in po.untranslated_entries() if not e.obsolete]
    fuzzy = [e.msgid for e in po.fuzzy_entries() if not e.obsolete]
    assert not untranslated, (
        f"{lang}/{domain}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    )
    assert not fuzzy, f"{lang}/{domain}: {len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalogs_are_up_to_date_with_the_code(
    lang: str, domain: str, extracted: dict[str, set[tuple[str | None, str, str | None]]]
) -> None:
    have = {_key(e) for e in _catalog(lang, domain) if not e.obsolete}
    missing = extracted[domain] - have
    stale = have - extracted[domain]
    assert not missing, f"{lang}/{domain}: not in the catalog: {sorted(missing, key=str)[:5]}"
    assert not stale, f"{lang}/{domain}: no longer in the code: {sorted(stale, key=str)[:5]}"


def test_django_speaks_every_language_of_the_site() -> None:
    """Django's own texts (month names, "3 minutes", "This field is required.")
    come from its catalogs; where Django ships none (Haitian Creole) the
    site's locale-django/ catalog has them all, translated."""
    import django

    shipped = Path(django.__file__).parent / "conf" / "locale"
    for lang in LANGS:
        if (shipped / lang / "LC_MESSAGES" / "django.mo").is_file():
            continue
        path = ROOT / "locale-django" / lang / "LC_MESSAGES" / "django.po"
        assert path.is_file(), f"Django has no {lang} catalog and the site none either"
        po = polib.pofile(str(path))
        assert len(po) > 150 and not po.untranslated_entries() and not po.fuzzy_entries()


def test_a_django_text_reads_in_haitian_creole() -> None:
    from django.utils import translation
    from django.utils.dates import MONTHS
    from django.utils.translation import gettext

    with translation.override("ht"):
        assert gettext("This field is required.") != "This field is required."
        assert str(MONTHS[1]) != "January"


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_every_placeholder(lang: str) -> None:
    """%(name)s and {name} placeholders survive translation, or the page breaks."""
    import re

    pat = re.compile(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}")
    for domain in DOMAINS:
        for e in _catalog(lang, domain):
            if e.obsolete or not e.translated():
                continue
            want = sorted(set(pat.findall(e.msgid)))
            got = [
                sorted(set(pat.findall(t)))
                for t in ([e.msgstr] if not e.msgid_plural else list(e.msgstr_plural.values()))
            ]
            for g in got:
                assert g == want or (e.msgid_plural and set(g) <= set(want)), (lang, e.msgid, g)
            if "python-format" not in e.flags:
                # Shown as written: "%%" would show two signs ("Win %" is not a format).
                texts = [e.msgstr] if not e.msgid_plural else list(e.msgstr_plural.values())
                assert not any("%%" in t for t in texts), (lang, e.msgid, texts)


def test_translation_functions_keep_names_makemessages_knows() -> None:
    """xgettext finds gettext_lazy("…") and _("…"), but not a function imported
    under another name (`gettext_lazy as _lazy`): its messages would never
    reach a catalog and stay English everywhere, with every test above green."""
    import re

    known = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext",
             "pgettext_lazy", "npgettext", "npgettext_lazy", "gettext_noop"}  # fmt: skip
    renamed = re.compile(r"\b(\w*gettext\w*) as (\w+)")
    found = []
    for name in SOURCES:
        for path in (ROOT / name).rglob("*.py"):
            for fn, alias in renamed.findall(path.read_text()):
                if alias not in known:
                    found.append(f"{path.relative_to(ROOT)}: {fn} as {alias}")
    assert found == []
