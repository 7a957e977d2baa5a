"""Every figure of the book, by key (the static widget's ``data-key``).

Figures call the math modules; the math never imports them.
"""

from . import foundations, renyi  # chapters 0b–1 (foundations; Rényi divergence)
from . import composition, conversion, hypothesis  # chapters 2–4
from . import iteration, convolution  # chapters 8–9 (amplification by iteration and by noise)
from . import subsampling, dpsgd  # chapters 5–6 (subsampling, DP-SGD)
from . import learning, open_questions  # chapters 0 and 10 (why privacy; lower bounds and open questions)
from . import pld  # chapter 7 (the exact answer)

FIGURES = {**foundations.FIGURES, **renyi.FIGURES, **composition.FIGURES, **conversion.FIGURES, **hypothesis.FIGURES,
           **iteration.FIGURES, **convolution.FIGURES, **subsampling.FIGURES, **dpsgd.FIGURES,
           **learning.FIGURES, **open_questions.FIGURES, **pld.FIGURES}

__all__ = ["FIGURES"]
