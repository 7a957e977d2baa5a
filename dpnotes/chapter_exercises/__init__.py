"""The exercises of each chapter (one module per chapter), registered on import.

``dpnotes.exercises.check`` imports this package the first time it is asked for
an exercise it does not know.
"""

import importlib
import pkgutil

for _info in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_info.name}")
