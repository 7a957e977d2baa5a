"""Exercises of the DP-SGD chapter, with answers computed by the package.
"""

import warnings

import numpy as np

from ..conversion import OrderGridWarning
from ..dpsgd import dpsgd_epsilon, dpsgd_sigma, steps_from_epochs
from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value

CHAPTER = "06-dpsgd"
_A, _L = 100 / (2 * 10.0**2), np.log(1e5)


def _quiet(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OrderGridWarning)
        return dpsgd_epsilon(*args, **kwargs)



def _sigma(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OrderGridWarning)
        return dpsgd_sigma(*args, rtol=1e-6, **kwargs)


def _random_gradients(rng):
    """1 to 6 per-example gradients of dimension 1 to 4, some shorter and some longer than C."""
    rows, cols = int(rng.integers(1, 7)), int(rng.integers(1, 5))
    return {"g": rng.normal(size=(rows, cols)) * rng.uniform(0.1, 3.0, size=(rows, 1)),
            "clip": float(rng.uniform(0.2, 2.0))}


EXERCISES = [
    Numeric(
        key="dpsgd-steps", chapter=CHAPTER, stars=1,
        answer=lambda: steps_from_epochs(20, 128 / 50000),
        hint="One epoch is 1/q steps with q the batch over the data set size; round the number of steps up.",
        sig_figs=None,  # an integer answer: one step off is a slip, not a rounding
        slips=[
            Slip("rounded-down", "round the number of steps up: a started step is a step.", lambda: 7812.0),
            Slip("times-q", "the number of steps is the epochs divided by q, not multiplied by it.",
                 lambda: 20 * 128 / 50000),
            Slip("one-epoch", "that is one epoch; the run has twenty.", lambda: 50000 / 128),
        ],
    ),
    Numeric(
        key="dpsgd-route2", chapter=CHAPTER, stars=2,
        answer=lambda: _quiet(1.0, 10.0, 100, 1e-5, route="route2"),
        hint="Compose the Gaussian's RDP over the T steps, add the conversion term of route 2 and minimise over α "
             "by calculus.",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: _A + 2 * np.sqrt(_A * 5.0)),
            Slip("missing-steps", "a missing composition count: the RDP of one step is multiplied by T.",
                 lambda: 1 / 200 + 2 * np.sqrt(_L / 200)),
            Slip("alpha-for-alpha-minus-1", "it looks as if you wrote α where α − 1 belongs.",
                 lambda: 2 * np.sqrt(_A * _L)),
        ],
    ),
    Numeric(
        key="dpsgd-tight", chapter=CHAPTER, stars=1,
        answer=lambda: _quiet(0.01, 2.0, steps_from_epochs(10, 0.01), 1e-5, route="rdp"),
        hint="Count the steps first (epochs over q); then call dpsgd_epsilon with the route \"rdp\".",
        slips=[
            Slip("epochs-as-steps", "T counts steps, not epochs.", lambda: _quiet(0.01, 2.0, 10, 1e-5, route="rdp")),
            Slip("no-subsampling", "that ignores the subsampling (q = 1).",
                 lambda: _quiet(1.0, 2.0, 1000, 1e-5, route="rdp")),
        ],
    ),
    Numeric(
        key="dpsgd-choose-sigma", chapter=CHAPTER, stars=2,
        answer=lambda: _sigma(2.0, 1e-6, 250 / 50000, epochs=20),
        hint="The sampling rate is the batch over the data set size; count the steps from the epochs, then "
             "call dpsgd_sigma with the target ε and δ.",
        slips=[
            Slip("epochs-as-steps", "T counts steps, not epochs: 20 epochs at this rate are many more steps.",
                 lambda: _sigma(2.0, 1e-6, 250 / 50000, steps=20)),
            Slip("mironov-accountant", "that is the noise the moments accountant (Mironov's conversion) asks "
                                       "for; the question asks for the improved conversion.",
                 lambda: _sigma(2.0, 1e-6, 250 / 50000, epochs=20, route="rdp-mironov")),
            Slip("delta-1e-5", "δ is 10⁻⁶ here (below 1/n for n = 50 000), not 10⁻⁵.",
                 lambda: _sigma(2.0, 1e-5, 250 / 50000, epochs=20)),
            Slip("no-subsampling", "that ignores the subsampling (q = 1).",
                 lambda: _sigma(2.0, 1e-6, 1.0, steps=steps_from_epochs(20, 250 / 50000))),
        ],
    ),
    Symbolic(
        key="dpsgd-route2-epsilon", chapter=CHAPTER, stars=2,
        answer="T/(2*sigma**2) + sqrt(2*T*log(1/delta))/sigma",
        symbols={"T": (1, 10000, "integer"), "sigma": (0.5, 10.0), "delta": (1e-10, 0.01)},
        hint="Compose T Gaussian steps at each order, convert with ε(α) + log(1/δ)/(α − 1) and minimise over α.",
        slips=[
            Slip("missing-count-in-root", "the count T belongs under the square root too.",
                 "T/(2*sigma**2) + sqrt(2*log(1/delta))/sigma"),
            Slip("missing-count", "a missing composition count: that is one step; T steps run.",
                 "1/(2*sigma**2) + sqrt(2*log(1/delta))/sigma"),
        ],
    ),
    Code(
        key="dpsgd-clip-rows", chapter=CHAPTER, stars=1,
        function="clip", signature="(g, clip)",
        reference="dpnotes.dpsgd_training:clip_rows", inputs=_random_gradients, n_cases=40,
        edge_cases=[{"g": np.array([[3.0, 4.0], [0.3, 0.4]]), "clip": 1.0}],
        hint="Each row is one example's gradient: a row longer than C is scaled down to length C, a shorter one is "
             "left alone.",
        slips=[
            Slip("per-coordinate", "clipping acts on the length of each row, not on each coordinate.",
                 lambda g, clip: np.clip(g, -clip, clip)),
            Slip("always-rescaled", "a row shorter than C is left unchanged, not stretched to length C.",
                 lambda g, clip: g * clip / np.linalg.norm(g, axis=1, keepdims=True)),
        ],
    ),
    Explore(
        key="dpsgd-epochs-reading", chapter=CHAPTER, stars=1,
        figure="dpsgd-epochs", sliders={"q": 0.02, "sigma": 1.1},
        answer=lambda: figure_value("dpsgd-epochs", {"q": 0.02, "sigma": 1.1}, "exact RDP, improve"),
        hint="Set both sliders as asked and read the exact-RDP curve with the improved conversion at its right end.",
        slips=[
            Slip("default-sigma", "σ is still at its default; move the slider as asked.",
                 lambda: figure_value("dpsgd-epochs", {"q": 0.02, "sigma": 4.0}, "exact RDP, improve")),
            Slip("mironov-curve", "that is the moments accountant's conversion; the question asks for the improved "
                                  "one.", lambda: figure_value("dpsgd-epochs", {"q": 0.02, "sigma": 1.1},
                                                               "exact RDP, Mironov")),
        ],
    ),
]
