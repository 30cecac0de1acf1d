"""The site's translation catalogues (settings.LOCALE_PATHS: config/locale/<lang>/LC_MESSAGES/django.po and its
compiled django.mo): the checks that a catalogue is complete and compiled, and the compiling itself, with `polib` so
that neither needs the gettext tools. `python manage.py translations` runs them
(league/management/commands/translations.py); the tests (tests/config/test_translations.py) assert them. Only
finding the strings in the code (`makemessages`) needs xgettext.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import polib
from django.conf import settings
from django.core.management import call_command
from django.test.utils import override_settings

LOCALE_DIR = Path(settings.LOCALE_PATHS[0])
# The languages with a catalogue of their own: every one but the source strings' (English).
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
# What makemessages reads besides the default (.html, .txt, .py): nothing. What it must not read: the catalogues
# themselves, and folders that hold no user-facing string.
IGNORED = [str(LOCALE_DIR.relative_to(settings.BASE_DIR)), "tests", "examples", "deploy", "staticfiles", "node_modules"]
GETTEXT_TOOLS = ("xgettext", "msguniq", "msgmerge", "msgattrib")


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / "django.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def _key(entry) -> tuple[str, str]:
    return (entry.msgctxt or "", entry.msgid)


def _translations(entry) -> list[str]:
    if entry.msgid_plural:
        return [entry.msgstr_plural[i] for i in sorted(entry.msgstr_plural)]
    return [entry.msgstr]


def untranslated(language: str) -> list[str]:
    """The catalogue's entries a reader would see in English: no translation, a fuzzy one (a guess gettext
    ignores), or a plural with a form missing."""
    problems = []
    for entry in polib.pofile(str(po_path(language))):
        if entry.obsolete:
            continue
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        elif not all(_translations(entry)):
            problems.append(f"untranslated: {entry.msgid!r}")
    return problems


def stale_mo(language: str) -> list[str]:
    """How the committed .mo differs from what its .po compiles to (empty when it is up to date). Compared entry by
    entry, not byte for byte: msgfmt and polib lay the same catalogue out differently."""
    po, mo_file = po_path(language), mo_path(language)
    if not mo_file.exists():
        return [f"{mo_file} is missing"]
    wanted = {_key(e): _translations(e) for e in polib.pofile(str(po))
              if not e.obsolete and "fuzzy" not in e.flags and all(_translations(e))}
    compiled = {_key(e): _translations(e) for e in polib.mofile(str(mo_file)) if e.msgid}
    problems = [f"not compiled: {k[1]!r}" for k in wanted if compiled.get(k) != wanted[k]]
    problems += [f"compiled but no longer in the .po: {k[1]!r}" for k in compiled if k not in wanted]
    return problems


def compile_catalogue(language: str) -> Path:
    """django.po -> django.mo (what Django reads at run time), without msgfmt. Fuzzy entries are left out, as
    msgfmt does."""
    po = polib.pofile(str(po_path(language)))
    po.save_as_mofile(str(mo_path(language)))
    return mo_path(language)


def gettext_tools_missing() -> list[str]:
    return [tool for tool in GETTEXT_TOOLS if shutil.which(tool) is None]


def strings_in_code(language: str) -> set[tuple[str, str]]:
    """Every (context, msgid) makemessages finds in the code and templates today, gathered into a scratch folder so
    the committed catalogue is left as it is. Needs the gettext tools (gettext_tools_missing())."""
    with tempfile.TemporaryDirectory() as scratch, override_settings(LOCALE_PATHS=[scratch]):
        here = os.getcwd()
        os.chdir(settings.BASE_DIR)  # makemessages reads the folder it runs in
        try:
            call_command("makemessages", locale=[language], ignore_patterns=IGNORED, verbosity=0,
                         add_location="never")
        finally:
            os.chdir(here)
        found = polib.pofile(str(Path(scratch) / language / "LC_MESSAGES" / "django.po"))
        return {_key(e) for e in found if e.msgid}


def catalogue_drift(language: str) -> tuple[list[str], list[str]]:
    """(strings in the code the catalogue lacks, catalogue entries no longer in the code)."""
    in_code = strings_in_code(language)
    in_catalogue = {_key(e) for e in polib.pofile(str(po_path(language))) if not e.obsolete}
    return ([m for _c, m in sorted(in_code - in_catalogue)], [m for _c, m in sorted(in_catalogue - in_code)])
