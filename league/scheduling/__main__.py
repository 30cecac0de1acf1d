"""`python -m league.scheduling`: seat a tournament without playing it and print its quality figures."""

import sys

from .cli import main

sys.exit(main())
