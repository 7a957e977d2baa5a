"""``python -m dpnotes``: the command line (:mod:`dpnotes.cli`)."""

import sys

from .cli import main

sys.exit(main())
