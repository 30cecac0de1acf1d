"""The French catalogue (config/locale/fr) is complete, compiled and in step with the code: every string of the
site, the API and the rules' refusals has a French translation Django reads."""

from __future__ import annotations

import os
import re
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation
from django.utils.translation import gettext

import engine
from engine.games import GAME_TYPES, refusal_of
from league.refusals import refusal_text
from runtime import translations


def test_every_string_is_translated_and_none_is_fuzzy():
    assert translations.TRANSLATED == ["fr"]
    assert translations.untranslated("fr") == []
    header = polib.pofile(str(translations.po_path("fr")))
    assert not header.metadata_is_fuzzy and header.metadata["Plural-Forms"].startswith("nplurals=2")


def test_the_committed_mo_is_compiled_from_the_po():
    assert translations.stale_mo("fr") == []


def test_the_checks_would_catch_a_missing_translation_and_a_stale_mo(tmp_path, monkeypatch):
    po = polib.pofile(str(translations.po_path("fr")))
    po[0].msgstr = ""
    po[1].flags.append("fuzzy")
    monkeypatch.setattr(translations, "LOCALE_DIR", tmp_path)
    translations.po_path("fr").parent.mkdir(parents=True)
    po.save(str(translations.po_path("fr")))
    assert len(translations.untranslated("fr")) == 2
    assert translations.stale_mo("fr") == [f"{translations.mo_path('fr')} is missing"]
    translations.compile_catalogue("fr")
    assert translations.stale_mo("fr") == []  # compiled as it is: the untranslated and fuzzy ones left out
    po[0].msgstr = "changé"
    po.save(str(translations.po_path("fr")))
    assert translations.stale_mo("fr") == [f"not compiled: {po[0].msgid!r}"]
    with pytest.raises(CommandError, match="problem"):
        call_command("translations", check=True)


@pytest.mark.skipif(bool(translations.gettext_tools_missing()),
                    reason="makemessages needs the gettext tools (apt-get install gettext); CI's machine has them")
def test_makemessages_finds_no_string_the_catalogue_lacks():
    if os.environ.get("DATABASE_URL"):
        # No database in it: it runs in the nothing-configured pass only. makemessages writes scratch files beside
        # the templates, and CI runs its two passes at once in one checkout.
        pytest.skip("the catalogue check runs with nothing configured (no DATABASE_URL)")
    new, gone = translations.catalogue_drift("fr")
    assert new == [], "run `python manage.py translations --update` and translate these"
    assert gone == [], "run `python manage.py translations --update` to drop these"


def test_every_rule_the_engine_refuses_with_has_a_french_sentence():
    """The engine raises IllegalDecision with these rule ids (engine/diamonds, engine/diamoniak, engine/ringrace);
    each game's GameType gives their English sentences, the catalogue their French ones."""
    source = "".join(p.read_text() for p in Path(engine.__file__).parent.rglob("*.py"))
    raised = set(re.findall(r'IllegalDecision\(\s*"([RKG]-[A-Z]+-[A-Z0-9]+)"', source))
    raised |= set(re.findall(r'"([RKG]-[A-Z]+-[A-Z0-9]+)" if ', source))  # rule = "R-TWO-1" if ... else ...
    refusals = {rule: text for kind in GAME_TYPES for rule, text in kind.refusals.items()}
    assert raised and raised <= set(refusals), sorted(raised - set(refusals))
    for rule, text in refusals.items():
        assert refusal_of(rule) == text, rule
        with translation.override("fr"):
            assert refusal_text(rule, "the engine's English") == gettext(text) != text, rule
    with translation.override("fr"):
        assert refusal_text("R-NEW-9", "new rule") == "Cette décision enfreint la règle R-NEW-9."
    with translation.override("en"):
        assert refusal_text("R-FOLLOW-1", "seat 2 holds hearts and must follow suit") == \
            "seat 2 holds hearts and must follow suit"
