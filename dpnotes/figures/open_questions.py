"""Figures of the chapter "Lower bounds, joint DP and open questions".
"""

import numpy as np

from ..lower_bounds import fingerprinting_terms
from ..noise_comparison import NOISE_LAWS, shift_rdp_grid
from ..widgets import Figure, Slider, Trace

ORDERS = np.geomspace(1.0, 1000.0, 49)
EPSILONS = np.geomspace(0.01, 100.0, 33)
_NAMES = {
    "gaussian": "Gaussian (exact αΔ²/(2v))",
    "laplace": "Laplace",
    "logistic": "logistic",
    "sech": "hyperbolic secant",
    "student-t3": "Student t, 3 degrees of freedom",
    "student-t5": "Student t, 5 degrees of freedom",
    "mixture": "½ Gaussian + ½ Laplace",
}


def noise_traces(variance):
    out = []
    for law in NOISE_LAWS:
        d = shift_rdp_grid(law, ORDERS, float(variance))
        out.append(Trace(f"D<sub>α</sub>(P+1‖P), {_NAMES[law]}", ORDERS, d,
                         dash="solid" if law in ("gaussian", "laplace") else "dash"))
    return out


def fingerprint_traces(n):
    rows = [fingerprinting_terms(int(n), "dp-mean", e, dps=20) for e in EPSILONS]
    corr = np.array([r["correlation"] for r in rows])
    bias = np.array([r["bias2"] for r in rows])
    return [
        Trace("correlation E[(f − θ)Σ(X<sub>i</sub> − θ)]", EPSILONS, corr),
        Trace("squared bias E<sub>θ</sub>[(E<sub>X</sub>f − θ)²]", EPSILONS, bias),
        Trace("sum (the dichotomy's left side)", EPSILONS, corr + bias, dash="dash"),
        Trace("1/12", EPSILONS[[0, -1]], np.full(2, 1 / 12), dash="dot"),
    ]


NOISE = Figure(
    key="noise-rdp-curves",
    claims=("S4-18",),
    title="D<sub>α</sub>(P + 1 ‖ P) for noise laws of equal variance v",
    compute=noise_traces,
    sliders=[Slider.logspace("variance", "v (common variance)", 0.25, 16.0, 13, 1.0)],
    x_label="order α (log scale)",
    y_label="D<sub>α</sub> (nats)",
    x_log=True,
    y_log=True,
    y_range=(0.025, 5.0),
    caption="The Gaussian is lowest near α = 1 and grows without bound (it leaves the plot at the top; the "
            "axis is cut at 5 nats); every other law has a finite max divergence and crosses below the "
            "Gaussian at some order.",
)

FINGERPRINT = Figure(
    key="fingerprinting-tradeoff",
    claims=("S2-10",),
    title="Correlation–variance dichotomy for the ε-DP clipped Laplace mean",
    compute=fingerprint_traces,
    sliders=[Slider.linear("n", "n (bits)", 1, 16, 1, 8)],
    x_label="ε of the mean's Laplace noise (log scale)",
    y_label="value",
    x_log=True,
    caption="Exact sums over j = ΣX_i with Beta integrals. Small ε: no correlation, large bias; "
            "large ε: correlation → E[θ(1 − θ)] = 1/6. The sum never drops below 1/12.",
)

FIGURES = {f.key: f for f in (NOISE, FINGERPRINT)}
