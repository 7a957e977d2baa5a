"""``python -m dpnotes``: the command line (:mod:`dpnotes.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":  # not on import (pytest's doctest collection imports every module)
    sys.exit(main())
