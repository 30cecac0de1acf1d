"""`python manage.py translations`: keep the French catalogue (config/locale) in step with the code.

    translations --update   gather new strings into the .po (makemessages: needs xgettext), then compile
    translations --compile  compile the .po files into the .mo files Django reads (no gettext tools needed)
    translations --check    fail (exit 1) when a string is untranslated or fuzzy, a .mo is stale, or (with the
                            gettext tools) the code has a string the catalogue lacks

docs/development.md "Translations" says how they fit together.
"""

from __future__ import annotations

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from runtime import translations


class Command(BaseCommand):
    help = "Update, compile or check the translation catalogues (config/locale)."

    def add_arguments(self, parser):
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--update", action="store_true", help="makemessages for every language, then compile")
        action.add_argument("--compile", action="store_true", help="compile every .po into its .mo")
        action.add_argument("--check", action="store_true", help="exit 1 unless every catalogue is complete")

    def handle(self, *args, update=False, compile=False, check=False, **options):
        if update:
            missing = translations.gettext_tools_missing()
            if missing:
                raise CommandError(f"makemessages needs the gettext tools ({', '.join(missing)}): "
                                   "apt-get install gettext")
            for language in translations.TRANSLATED:
                call_command("makemessages", locale=[language], ignore_patterns=translations.IGNORED,
                             no_obsolete=True, add_location="file", verbosity=0)
                self.stdout.write(f"{translations.po_path(language)}: updated")
        if update or compile:
            for language in translations.TRANSLATED:
                self.stdout.write(f"{translations.compile_catalogue(language)}: compiled")
            for language in translations.TRANSLATED:
                for problem in translations.untranslated(language):
                    self.stdout.write(f"{language}: {problem}")
        if check:
            self._check()

    def _check(self):
        problems = []
        for language in translations.TRANSLATED:
            problems += [f"{language}: {p}" for p in translations.untranslated(language)]
            problems += [f"{language}: {p}" for p in translations.stale_mo(language)]
            if translations.gettext_tools_missing():
                self.stdout.write("the gettext tools are missing: new strings in the code are not looked for")
            else:
                new, gone = translations.catalogue_drift(language)
                problems += [f"{language}: not in the catalogue yet: {m!r}" for m in new]
                problems += [f"{language}: in the catalogue but no longer in the code: {m!r}" for m in gone]
        for problem in problems:
            self.stdout.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} problem(s): run `python manage.py translations --update`, "
                               "translate what it lists, then `--compile`")
        self.stdout.write("the catalogues are complete and compiled")
