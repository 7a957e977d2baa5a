r"""Published ε of DP-SGD runs, recomputed by the method that printed them and by tighter ones.

The published numbers are data, not code: ``dpnotes/data/published_numbers.json``
holds, for each number, the work that printed it (with its bibliography key and a
link), the setting (sampling rate q or data set size n and batch size b, noise
multiplier σ, epochs or steps T, δ), the value as printed and its number of
decimals, and the *method*: the accountant, the grid of Rényi orders, the
conversion from RDP to (ε, δ) and the rule that turns epochs into steps, each read
from the library's source at a named commit. This module loads and checks the
file and recomputes each number three ways:

* **by the same method** — the exact RDP of the sampled Gaussian mechanism,
  composed T times on the library's grid of orders α and converted as the
  library did then; or, for the Gaussian-DP central limit theorem, μ and the ε of
  μ-GDP. A number counts as *reproduced* when this value, rounded to the printed
  decimals, is the printed number;
* **by RDP with the improved conversion** on :data:`dpnotes.orders.DEFAULT_ORDERS`;
* **by the privacy loss distribution**: the certified bracket
  :func:`dpnotes.pld.dpsgd_epsilon_bracket`, lower ≤ true ε ≤ upper.

The conversions, on a grid of orders α with composed RDP curve T·ε(α):

.. math::
    \text{mironov: } \varepsilon = \min_\alpha T\varepsilon(\alpha) + \frac{\log(1/\delta)}{\alpha-1},\qquad
    \text{improved: } \varepsilon = \min_\alpha T\varepsilon(\alpha) + \log\frac{\alpha-1}{\alpha}
        - \frac{\log\delta + \log\alpha}{\alpha-1}.

The moments accountant of Abadi et al. (2016) is the first with α = λ + 1: its
log-moment α(λ) is λ times the Rényi divergence of order λ + 1, and its tail
bound δ = min_λ exp(α(λ) − λε) inverts to the same ε.

The modules, by what they hold:

* :mod:`~dpnotes.published.data` — the data file, its checks, sampling rates and step counts;
* :mod:`~dpnotes.published.reproduce` — the three recomputations and their table;
* :mod:`~dpnotes.published.diagnostics` — why the numbers that do not reproduce do not.
"""

from .data import STEP_RULES, published_numbers, published_sampling_rate, published_steps
from .diagnostics import (clt_noise_for_epsilon, published_epsilon_by_method, steps_reproducing_published,
                          strong_composition_epsilon_abadi)
from .reproduce import PublishedReproduction, reproduce_published, reproduce_published_work, reproduction_table

__all__ = [
    "STEP_RULES",
    "PublishedReproduction",
    "published_numbers",
    "published_sampling_rate",
    "published_steps",
    "reproduce_published",
    "reproduce_published_work",
    "reproduction_table",
    "published_epsilon_by_method",
    "steps_reproducing_published",
    "clt_noise_for_epsilon",
    "strong_composition_epsilon_abadi",
]
