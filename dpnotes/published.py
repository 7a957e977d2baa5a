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

Used in: book/published-numbers
"""

import copy
import json
import math
import warnings
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from ._validation import check_count, check_delta, check_interval, check_positive
from .composition import gaussian_sigma_exact
from .conversion import OrderGridWarning, epsilon_from_rdp
from .orders import DEFAULT_ORDERS
from .pld import dpsgd_clt_mu, dpsgd_epsilon_bracket
from .privacy_loss import epsilon_gaussian
from .subsampling import rdp_subsampled_gaussian

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
]

#: How each library turns epochs into steps T (n: data set size, b: batch size, q: sampling rate).
STEP_RULES = {
    "given": "T as published",
    "epochs_times_floor_n_over_b": "T = epochs · ⌊n/b⌋ (TensorFlow Privacy's MNIST tutorial, 2019)",
    "ceil_epochs_n_over_b": "T = ⌈epochs · n/b⌉ (TensorFlow Privacy's compute_dp_sgd_privacy)",
    "epochs_times_int_inverse_q": "T = epochs · int(1/q) (Opacus' UniformWithReplacementSampler, 2021)",
    "epochs_n_over_b": "T = epochs · n/b, not rounded (TensorFlow Privacy's GDP accountant)",
}

_ACCOUNTANTS = ("rdp", "gdp-clt")
_CONVERSIONS = ("mironov", "improved")
_QUANTITIES = {"rdp": ("epsilon", "order"), "gdp-clt": ("epsilon", "mu")}
_DATA = "published_numbers.json"


# ----------------------------------------------------------------------------
# loading and checking the data
# ----------------------------------------------------------------------------

def _require(mapping, key, where, kind=None):
    if not isinstance(mapping, dict) or key not in mapping:
        raise ValueError(f"{where}: the field {key!r} is missing")
    value = mapping[key]
    if kind is not None and not isinstance(value, kind):
        raise TypeError(f"{where}.{key} must be of type {getattr(kind, '__name__', kind)} (got {value!r})")
    return value


def _expand_grid(spec, where):
    """Orders of a grid spec: numbers and {"from", "to", "step"} ranges (inclusive)."""
    if not isinstance(spec, list) or not spec:
        raise ValueError(f"{where} must be a non-empty list of orders and ranges")
    out = []
    for k, item in enumerate(spec):
        here = f"{where}[{k}]"
        if isinstance(item, dict):
            lo = float(check_positive(_require(item, "from", here), f"{here}.from"))
            hi = float(check_positive(_require(item, "to", here), f"{here}.to"))
            step = float(check_positive(_require(item, "step", here), f"{here}.step"))
            n = round((hi - lo) / step)
            if n < 0 or abs(lo + n * step - hi) > 1e-9 * max(1.0, hi):
                raise ValueError(f"{here}: 'to' = {hi:g} is not 'from' = {lo:g} plus a whole number of steps {step:g}")
            out.extend(np.round(lo + step * np.arange(n + 1), 10))
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            out.append(float(item))
        else:
            raise TypeError(f"{here} must be a number or a {{'from', 'to', 'step'}} range (got {item!r})")
    orders = np.array(out, float)
    if np.any(~np.isfinite(orders)) or np.any(orders <= 1.0):
        raise ValueError(f"{where}: every order must be in (1, ∞)")
    if np.any(np.diff(orders) <= 0):
        raise ValueError(f"{where}: the orders must be strictly increasing")
    orders.setflags(write=False)
    return orders


def _check_method(name, method, grids):
    where = f"methods[{name!r}]"
    accountant = _require(method, "accountant", where, str)
    if accountant not in _ACCOUNTANTS:
        raise ValueError(f"{where}.accountant must be one of {_ACCOUNTANTS} (got {accountant!r})")
    rule = _require(method, "steps", where, str)
    if rule not in STEP_RULES:
        raise ValueError(f"{where}.steps must be one of {tuple(STEP_RULES)} (got {rule!r})")
    for key in ("library", "version", "source"):
        _require(method, key, where, str)
    if accountant == "rdp":
        grid = _require(method, "orders", where, str)
        if grid not in grids:
            raise ValueError(f"{where}.orders names an unknown grid {grid!r} (known: {sorted(grids)})")
        conversion = _require(method, "conversion", where, str)
        if conversion not in _CONVERSIONS:
            raise ValueError(f"{where}.conversion must be one of {_CONVERSIONS} (got {conversion!r})")
        if rule == "epochs_n_over_b":
            raise ValueError(f"{where}: an RDP accountant needs a whole number of steps, not the rule {rule!r}")


def _check_setting(setting, rule, where):
    """Checked copy of a row's setting with q and T filled in."""
    if not isinstance(setting, dict):
        raise TypeError(f"{where} must be a mapping (got {setting!r})")
    s = dict(setting)
    s["sigma"] = float(check_positive(_require(s, "sigma", where), f"{where}.sigma"))
    s["delta"] = float(check_delta(_require(s, "delta", where), f"{where}.delta"))
    if "q" in s:
        if "dataset_size" in s or "batch_size" in s:
            raise ValueError(f"{where}: give either q or (dataset_size, batch_size), not both")
        s["q"] = float(check_interval(s["q"], f"{where}.q", 0, 1, closed_low=False))
    else:
        n = int(check_count(_require(s, "dataset_size", where), f"{where}.dataset_size"))
        b = int(check_count(_require(s, "batch_size", where), f"{where}.batch_size"))
        if b > n:
            raise ValueError(f"{where}: batch_size = {b} exceeds dataset_size = {n}")
        s["dataset_size"], s["batch_size"], s["q"] = n, b, b / n
    if rule == "given":
        s["steps"] = int(check_count(_require(s, "steps", where), f"{where}.steps"))
        if "epochs" in s:  # for the reader only: E = Tq
            s["epochs"] = float(check_positive(s["epochs"], f"{where}.epochs"))
    else:
        if "steps" in s:
            raise ValueError(f"{where}: the step rule {rule!r} computes the steps; give epochs, not steps")
        s["epochs"] = float(check_positive(_require(s, "epochs", where), f"{where}.epochs"))
        s["steps"] = published_steps(s, rule)
    return s


def _check_published(published, quantities, where):
    if not isinstance(published, dict) or not published:
        raise ValueError(f"{where} must be a non-empty mapping of quantity → {{'value', 'decimals'}}")
    out = {}
    for name, entry in published.items():
        here = f"{where}.{name}"
        if name not in quantities:
            raise ValueError(f"{here}: this method gives {quantities}, not {name!r}")
        value = float(check_positive(_require(entry, "value", here), f"{here}.value"))
        decimals = int(check_count(_require(entry, "decimals", here), f"{here}.decimals", minimum=0))
        out[name] = (value, decimals)
    if "epsilon" not in out:
        raise ValueError(f"{where}: every row publishes an epsilon")
    return out


def _check_data(data):
    if not isinstance(data, dict):
        raise TypeError(f"the published numbers must be a mapping (got {type(data).__name__})")
    grids = {name: _expand_grid(_require(g, "orders", f"order_grids[{name!r}]"), f"order_grids[{name!r}].orders")
             for name, g in _require(data, "order_grids", "data", dict).items()}
    methods = _require(data, "methods", "data", dict)
    for name, method in methods.items():
        _check_method(name, method, grids)
    works = _require(data, "works", "data", dict)
    for name, work in works.items():
        for key in ("title", "url", "version"):
            _require(work, key, f"works[{name!r}]", str)
        cite = _require(work, "cite", f"works[{name!r}]")
        if cite is not None and not isinstance(cite, str):
            raise TypeError(f"works[{name!r}].cite must be a bibliography key or null (got {cite!r})")
    rows, seen = [], set()
    for i, row in enumerate(_require(data, "rows", "data", list)):
        where = f"rows[{i}]"
        row_id = _require(row, "id", where, str)
        where = f"rows[{i}] ({row_id})"
        if row_id in seen:
            raise ValueError(f"{where}: the id is used twice")
        seen.add(row_id)
        work = _require(row, "work", where, str)
        if work not in works:
            raise ValueError(f"{where}.work names an unknown work {work!r}")
        method_name = _require(row, "method", where, str)
        if method_name not in methods:
            raise ValueError(f"{where}.method names an unknown method {method_name!r}")
        method = methods[method_name]
        setting = _check_setting(_require(row, "setting", where), method["steps"], f"{where}.setting")
        published = _check_published(_require(row, "published", where),
                                     _QUANTITIES[method["accountant"]], f"{where}.published")
        rows.append({**row, "setting": setting, "setting_given": dict(row["setting"]), "published": published})
    return {"works": works, "methods": methods, "order_grids": grids, "rows": rows}


@lru_cache(maxsize=1)
def _default_data():
    text = resources.files("dpnotes").joinpath("data", _DATA).read_text(encoding="utf-8")
    return _check_data(json.loads(text))


def published_numbers(source=None):
    r"""The published numbers, their works, methods and order grids, loaded and checked.

    .. math:: \text{row} = (\text{work}, q, \sigma, T, \delta, \text{method}; \text{published } \varepsilon
              \text{ (and } \mu, \alpha^*) \text{ with their decimals})

    Parameters
    ----------
    source : None, str, Path or mapping
        None for the package's ``data/published_numbers.json``; a path to a JSON
        file of the same layout; or the already parsed mapping.

    Returns
    -------
    dict
        ``works`` and ``methods`` (as in the file), ``order_grids`` (name →
        read-only array of orders α), ``rows`` (list of dicts whose ``setting``
        carries q and the number of steps T computed by the method's step rule,
        and whose ``published`` maps a quantity to (value, decimals)).

    Raises
    ------
    ValueError, TypeError
        When a field is missing, of the wrong type or out of range, naming the
        field (e.g. ``rows[3] (tfp-s1.3-e15).setting.sigma``).

    References
    ----------
    The works and library commits named in the file.

    Examples
    --------
    >>> data = published_numbers()
    >>> row = next(r for r in data["rows"] if r["id"] == "tfp-s1.1-e60")
    >>> row["setting"]["steps"], row["published"]["epsilon"]
    (14040, (3.01, 2))
    """
    if source is None:
        return copy.deepcopy(_default_data())  # a copy: callers may modify theirs
    if isinstance(source, (str, Path)):
        source = json.loads(Path(source).read_text(encoding="utf-8"))
    return _check_data(source)


def published_sampling_rate(setting):
    r"""Sampling rate q of a setting: q as given, or b/n.

    .. math:: q = b/n

    Parameters
    ----------
    setting : mapping with ``q``, or ``dataset_size`` n and ``batch_size`` b

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If neither is given or the values are out of range.

    Examples
    --------
    >>> published_sampling_rate({"dataset_size": 60000, "batch_size": 240})
    0.004
    """
    if "q" in setting:
        return float(check_interval(setting["q"], "q", 0, 1, closed_low=False))
    if "dataset_size" not in setting or "batch_size" not in setting:
        raise ValueError("setting needs q, or dataset_size and batch_size")
    n = int(check_count(setting["dataset_size"], "dataset_size"))
    b = int(check_count(setting["batch_size"], "batch_size"))
    if b > n:
        raise ValueError(f"batch_size = {b} exceeds dataset_size = {n}")
    return b / n


def published_steps(setting, rule):
    r"""Number of steps T of a setting under a library's step rule (:data:`STEP_RULES`).

    .. math::
        T = \text{epochs}\cdot\lfloor n/b\rfloor,\quad \lceil \text{epochs}\cdot n/b\rceil,\quad
        \text{epochs}\cdot\operatorname{int}(1/q)\quad\text{or}\quad \text{epochs}\cdot n/b

    The first three are whole numbers (the first and third need whole epochs,
    as the libraries' training loops count them); the last, the GDP accountant's,
    is not rounded. ``"ceil_epochs_n_over_b"`` is computed in exact rational
    arithmetic from n and b (so 60·60000/256 = 14062.5 becomes 14063), or as
    ⌈epochs/q⌉ from q. ``"epochs_times_int_inverse_q"`` evaluates int(1/q) in
    floating point, as Opacus does.

    Parameters
    ----------
    setting : mapping
        ``epochs`` (or ``steps`` for the rule ``"given"``), and ``q`` or
        ``dataset_size`` and ``batch_size``.
    rule : str, a key of :data:`STEP_RULES`

    Returns
    -------
    int, or float for ``"epochs_n_over_b"``

    Raises
    ------
    ValueError
        For an unknown rule, missing fields, or fractional epochs where the rule
        needs whole ones.

    References
    ----------
    TensorFlow Privacy, ``tutorials/mnist_dpsgd_tutorial.py`` and
    ``compute_dp_sgd_privacy.py`` (commit d435fcb, 2019) and ``gdp_accountant.py``
    (commit f7b4a30, 2020); Opacus, ``utils/uniform_sampler.py`` (commit eb4e69a, 2021).

    Examples
    --------
    >>> s = {"dataset_size": 60000, "batch_size": 256, "epochs": 60}
    >>> [published_steps(s, r) for r in ("epochs_times_floor_n_over_b", "ceil_epochs_n_over_b",
    ...                                  "epochs_n_over_b")]
    [14040, 14063, 14062.5]
    >>> published_steps({"q": 0.004, "epochs": 45}, "epochs_times_int_inverse_q")
    11250
    """
    if rule not in STEP_RULES:
        raise ValueError(f"rule must be one of {tuple(STEP_RULES)} (got {rule!r})")
    if rule == "given":
        if "steps" not in setting:
            raise ValueError("the rule 'given' needs setting['steps']")
        return int(check_count(setting["steps"], "steps"))
    if "epochs" not in setting:
        raise ValueError(f"the rule {rule!r} needs setting['epochs']")
    epochs = float(check_positive(setting["epochs"], "epochs"))
    has_nb = "dataset_size" in setting and "batch_size" in setting
    if rule in ("epochs_times_floor_n_over_b", "epochs_times_int_inverse_q"):
        whole = int(check_count(epochs, "epochs"))  # the training loops count whole epochs
        if rule == "epochs_times_int_inverse_q":
            return whole * int(1 / published_sampling_rate(setting))
        if not has_nb:
            raise ValueError(f"the rule {rule!r} needs dataset_size and batch_size")
        published_sampling_rate(setting)  # checks n ≥ b ≥ 1
        return whole * (int(setting["dataset_size"]) // int(setting["batch_size"]))
    q = published_sampling_rate(setting)
    if rule == "epochs_n_over_b":
        return epochs * setting["dataset_size"] / setting["batch_size"] if has_nb else epochs / q
    if has_nb:  # ceil, exactly
        return int(math.ceil(Fraction(epochs) * int(setting["dataset_size"]) / int(setting["batch_size"])))
    return int(math.ceil(round(epochs / q, 9)))


# ----------------------------------------------------------------------------
# the three computations
# ----------------------------------------------------------------------------

def _rdp_epsilon(q, sigma, steps, delta, orders, conversion):
    """(ε, best order) of T composed sampled Gaussian steps on a grid of orders."""
    rdp = steps * rdp_subsampled_gaussian(orders, q, sigma)
    eps, order = epsilon_from_rdp(orders, rdp, delta, method=conversion, return_order=True)
    return float(eps), float(order)


def _clt_mu(q, sigma, steps):
    """μ = q √T √(e^{1/σ²} − 1) for a possibly fractional T: dpsgd_clt_mu of one step, times √T."""
    return dpsgd_clt_mu(q, sigma, 1) * math.sqrt(steps)


@lru_cache(maxsize=256)
def _bracket(q, sigma, steps, delta):
    return tuple(float(v) for v in dpsgd_epsilon_bracket(q, sigma, steps, delta))


def _same_method(data, row, steps=None):
    s, method = row["setting"], data["methods"][row["method"]]
    steps = s["steps"] if steps is None else steps
    if method["accountant"] == "gdp-clt":
        mu = _clt_mu(s["q"], s["sigma"], steps)
        return {"mu": mu, "epsilon": float(epsilon_gaussian(s["delta"], mu))}
    eps, order = _rdp_epsilon(s["q"], s["sigma"], steps, s["delta"],
                              data["order_grids"][method["orders"]], method["conversion"])
    return {"epsilon": eps, "order": order}


def _rounds_to(value, published, decimals):
    return abs(value - published) < 0.5 * 10.0 ** (-decimals) + 1e-12


@dataclass(frozen=True)
class PublishedReproduction:
    """One published row recomputed: by its own method, by improved RDP and by the PLD bracket."""

    row_id: str
    work: str
    method: str
    q: float
    sigma: float
    steps: float
    delta: float
    published: dict
    same_method: dict
    reproduced: dict
    steps_tight: int
    epsilon_rdp_improved: float
    pld_bracket: tuple = field(default=None)

    @property
    def label(self):
        """σ and the number of steps T, for a table."""
        return f"σ = {self.sigma:g}, T = {self.steps:g}"


def _row(data, row_id):
    for row in data["rows"]:
        if row["id"] == row_id:
            return row
    raise ValueError(f"unknown published row {row_id!r} (known: {[r['id'] for r in data['rows']]})")


def reproduce_published(row_id, *, bracket=True, source=None):
    r"""Recompute one published number by its own method, by improved RDP and by the PLD bracket.

    .. math::
        \varepsilon_{\text{same}} = \min_{\alpha \in \text{grid}} T\varepsilon_q(\alpha) + c(\alpha, \delta),\qquad
        \varepsilon_{\text{RDP}} = \min_{\alpha \in \text{DEFAULT\_ORDERS}} T\varepsilon_q(\alpha)
            + \log\tfrac{\alpha-1}{\alpha} - \tfrac{\log\delta + \log\alpha}{\alpha-1},\qquad
        \varepsilon_{\text{PLD}} \in [\underline\varepsilon, \overline\varepsilon],

    where ε_q is the RDP of the sampled Gaussian mechanism
    (:func:`dpnotes.subsampling.rdp_subsampled_gaussian`) and c the method's
    conversion. For the Gaussian-DP central limit theorem the same method is
    μ = q√T √(e^{1/σ²} − 1) (T as the method counts it, possibly fractional) and
    ε = ε_{μ-GDP}(δ) (:func:`dpnotes.privacy_loss.epsilon_gaussian`). The
    tighter routes use T rounded up to a whole number of steps (``steps_tight``).
    A quantity is *reproduced* when the same-method value rounds to the
    published one at the published decimals.

    Parameters
    ----------
    row_id : str, a row ``id`` of the data
    bracket : bool
        Also compute the PLD bracket (about 0.1–6 s a row; cached per setting).
    source : optional, as :func:`published_numbers`

    Returns
    -------
    PublishedReproduction

    Raises
    ------
    ValueError
        For an unknown row id (or invalid data).

    References
    ----------
    Abadi et al. (2016), Theorem 2; Mironov (2017), Prop. 3; Balle et al. (2020),
    Theorem 21; Mironov, Talwar & Zhang (2019); Bu, Dong, Long & Su (2020),
    Theorem 5; Doroshenko et al. (2022).

    Examples
    --------
    >>> r = reproduce_published("opacus-s1.3-e15", bracket=False)
    >>> round(r.same_method["epsilon"], 4), r.same_method["order"], r.reproduced
    (1.1597, 17.0, {'epsilon': True, 'order': True})
    >>> r.epsilon_rdp_improved < r.same_method["epsilon"]
    True
    """
    data = published_numbers(source)
    row = _row(data, row_id)
    s = row["setting"]
    same = _same_method(data, row)
    reproduced = {name: _rounds_to(same[name], value, decimals) for name, (value, decimals) in row["published"].items()}
    tight_steps = int(math.ceil(s["steps"]))
    eps_rdp, _ = _rdp_epsilon(s["q"], s["sigma"], tight_steps, s["delta"], DEFAULT_ORDERS, "improved")
    pld = _bracket(s["q"], s["sigma"], tight_steps, s["delta"]) if bracket else None
    return PublishedReproduction(
        row_id=row_id, work=row["work"], method=row["method"], q=s["q"], sigma=s["sigma"], steps=s["steps"],
        delta=s["delta"], published=dict(row["published"]), same_method=same, reproduced=reproduced,
        steps_tight=tight_steps, epsilon_rdp_improved=eps_rdp, pld_bracket=pld)


def reproduce_published_work(work, *, bracket=True, source=None):
    r"""Every published row of one work, recomputed (:func:`reproduce_published`), in the file's order.

    .. math:: \{\,\text{reproduce}(r) : r \in \text{rows},\ r.\text{work} = \text{work}\,\}

    Parameters
    ----------
    work : str, a key of the data's ``works``
    bracket : bool
    source : optional, as :func:`published_numbers`

    Returns
    -------
    list of PublishedReproduction

    Raises
    ------
    ValueError
        For an unknown work.

    Examples
    --------
    >>> [r.row_id for r in reproduce_published_work("abadi2016", bracket=False)]
    ['abadi-e100', 'abadi-e400']
    """
    data = published_numbers(source)
    if work not in data["works"]:
        raise ValueError(f"unknown work {work!r} (known: {sorted(data['works'])})")
    return [reproduce_published(r["id"], bracket=bracket, source=source)
            for r in data["rows"] if r["work"] == work]


_SYMBOL = {"epsilon": "ε", "mu": "μ", "order": "best α"}


def reproduction_table(reproductions, *, style="text", epochs=True, source=None):
    r"""A table of recomputed published numbers, one line per published quantity.

    Columns: the setting (σ and epochs, or steps), T as the method counts it, the
    quantity, the published value, the same-method value (4 decimals; 1 for an
    order), whether it rounds to the published value, and on the ε line the
    improved-RDP value (3 decimals) and the PLD bracket rounded *outwards* to 2
    decimals (the lower end down, the upper end up, so the printed interval
    still contains ε).

    .. math:: [\lfloor 100\,\underline\varepsilon\rfloor/100,\ \lceil 100\,\overline\varepsilon\rceil/100]
              \ni \varepsilon

    Parameters
    ----------
    reproductions : iterable of PublishedReproduction
    style : {"text", "markdown"}
        Aligned plain text, or a Markdown (GFM) table for a notebook's display.
    epochs : bool
        Label a row by its epochs when the data give them (else by T).
    source : optional, as :func:`published_numbers`

    Returns
    -------
    str

    Raises
    ------
    ValueError
        For an unknown style.

    Examples
    --------
    >>> rows = reproduce_published_work("abadi2016", bracket=False)
    >>> print(reproduction_table(rows).splitlines()[1])  # doctest: +NORMALIZE_WHITESPACE
    σ = 4, 100 epochs  10000  ε  1.26  1.2586  reproduced  1.035  —
    >>> print(reproduction_table(rows, style="markdown").splitlines()[3].replace("\u00a0", " "))
    | 4 | 400 | 40000 | ε | 2.55 | 2.5759 | **not reproduced** | 2.210 | — |
    """
    if style not in ("text", "markdown"):
        raise ValueError(f"style must be 'text' or 'markdown' (got {style!r})")
    data = published_numbers(source)
    cells, sigmas, epoch_counts = [], [], []
    for r in reproductions:
        setting = _row(data, r.row_id)["setting"]
        if epochs and "epochs" in setting:
            e = setting["epochs"]
            label = f"σ = {r.sigma:g}, {e:g} epoch{'' if e == 1 else 's'}"
        else:
            label = r.label
        sigma, epoch = f"{r.sigma:g}", f"{setting['epochs']:g}" if "epochs" in setting else "—"
        steps = f"{r.steps:.2f}".rstrip("0").rstrip(".")
        for name in sorted(r.published, key=["mu", "epsilon", "order"].index):
            value, decimals = r.published[name]
            rdp, pld = "", ""
            if name == "epsilon":
                rdp = f"{r.epsilon_rdp_improved:.3f}"
                if r.pld_bracket is None:
                    pld = "—"
                else:
                    lo, up = r.pld_bracket
                    pld = f"[{math.floor(lo * 100) / 100:.2f}, {math.ceil(up * 100) / 100:.2f}]"
            cells.append([label, steps, _SYMBOL[name], f"{value:.{decimals}f}",
                          f"{r.same_method[name]:.{1 if name == 'order' else 4}f}",
                          "reproduced" if r.reproduced[name] else "not reproduced", rdp, pld])
            sigmas.append(sigma)
            epoch_counts.append(epoch)
            label, steps, sigma, epoch = "", "", "", ""
    header = ["setting", "T", "", "published", "same method", "verdict", "improved RDP", "PLD bracket"]
    if style == "markdown":  # σ and epochs in columns of their own; no-break spaces keep brackets whole
        nb = "\u00a0"
        lines = ["| σ | epochs | T |  | published | same method | verdict | improved RDP | PLD bracket |",
                 "|--:|--:|--:|:--|--:|--:|:--|--:|:--|"]
        for sigma, epoch, c in zip(sigmas, epoch_counts, cells):
            verdict = c[5] if c[5] == "reproduced" else f"**{c[5]}**"
            row = [sigma, epoch, c[1], c[2].replace(" ", nb), c[3], c[4], verdict, c[6], c[7].replace(" ", nb)]
            lines.append("| " + " | ".join(row) + " |")
        return "\n".join(lines)
    widths = [21, 8, 7, 10, 13, 15, 12, 13]
    align = "<><>><>>"
    lines = []
    for c in [header] + cells:
        line = "".join(f"{x:{a}{w}}" + ("  " if k in (1, 4, 6) else "") for k, (x, a, w) in
                       enumerate(zip(c, align, widths)))
        lines.append(line.rstrip())
    return "\n".join(lines)


# ----------------------------------------------------------------------------
# diagnostics for the numbers that do not reproduce
# ----------------------------------------------------------------------------

def published_epsilon_by_method(row_id, method, *, source=None):
    r"""The ε a row's setting gets from another method of the data (e.g. a library's current one).

    .. math:: \varepsilon_{\text{method}}(q, \sigma, T_{\text{method}}, \delta)

    The steps T are recounted by the method's own step rule from the row's
    setting as given (epochs, n, b or q).

    Parameters
    ----------
    row_id : str, a row of the data
    method : str, a key of the data's ``methods``
    source : optional, as :func:`published_numbers`

    Returns
    -------
    (dict, float)
        The method's values (``epsilon`` and ``order``, or ``epsilon`` and ``mu``)
        and the number of steps T it counted.

    Raises
    ------
    ValueError
        For an unknown row or method, or a setting the method's step rule cannot count.

    Examples
    --------
    >>> values, steps = published_epsilon_by_method("tfp-s1.1-e60", "tfp-cli-2019")
    >>> steps, round(values["epsilon"], 4)
    (14063, 3.0092)
    """
    data = published_numbers(source)
    row = _row(data, row_id)
    if method not in data["methods"]:
        raise ValueError(f"unknown method {method!r} (known: {sorted(data['methods'])})")
    given = dict(row["setting_given"])
    if data["methods"][method]["steps"] != "given" and "epochs" in given:
        given.pop("steps", None)  # recounted from the epochs by the method's rule
    setting = _check_setting(given, data["methods"][method]["steps"], f"{row_id}.setting")
    other = {**row, "method": method, "setting": setting}
    return _same_method(data, other), setting["steps"]


def steps_reproducing_published(row_id, *, source=None):
    r"""The whole numbers of steps T at which a row's own method prints its published ε.

    .. math:: \{T \in \mathbb N : |\varepsilon_{\text{same}}(T) - \varepsilon_{\text{pub}}| < \tfrac12 10^{-d}\}
              = [T_{\text{lo}}, T_{\text{hi}}]

    ε_same(T) is non-decreasing in T (the composed RDP curve Tε_q(α) grows with T
    at every order, and a minimum of non-decreasing functions is non-decreasing),
    so the set is an interval; both ends are found by bisection over
    T ∈ [1, 2¹⁶·T₀] (T₀ the row's own T), each in at most 40 evaluations.

    Parameters
    ----------
    row_id : str, a row of an RDP method
    source : optional, as :func:`published_numbers`

    Returns
    -------
    (int, int) or None
        (T_lo, T_hi), or None when no T prints the published value.

    Raises
    ------
    ValueError
        For an unknown row or a row whose method is not an RDP accountant.

    Examples
    --------
    >>> steps_reproducing_published("abadi-e400")[0] < 40000
    True
    """
    data = published_numbers(source)
    row = _row(data, row_id)
    if data["methods"][row["method"]]["accountant"] != "rdp":
        raise ValueError(f"{row_id}: steps_reproducing_published needs an RDP method")
    value, decimals = row["published"]["epsilon"]
    half = 0.5 * 10.0 ** (-decimals)

    def eps(t):  # far from T₀ the best order may sit at the grid's edge: expected, not reported
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OrderGridWarning)
            return _same_method(data, row, steps=t)["epsilon"]

    def first(pred, lo, hi):
        """Smallest t in [lo, hi] with pred(t) (pred monotone false → true), or hi + 1."""
        if not pred(hi):
            return hi + 1
        while lo < hi:
            mid = (lo + hi) // 2
            if pred(mid):
                hi = mid
            else:
                lo = mid + 1
        return lo

    top = int(row["setting"]["steps"]) * 2 ** 16
    t_lo = first(lambda t: eps(t) > value - half - 1e-12, 1, top)
    t_hi = first(lambda t: eps(t) >= value + half - 1e-12, 1, top) - 1
    return (t_lo, t_hi) if t_lo <= t_hi else None


def clt_noise_for_epsilon(q, steps, delta, epsilon):
    r"""Noise multiplier σ̃ at which the Gaussian-DP central limit gives ε at δ after T steps.

    The CLT gives μ = q√T √(e^{1/σ̃²} − 1); μ-GDP is (ε, δ)-DP exactly when μ = 1/σ_G,
    σ_G the exact Gaussian noise for (ε, δ) (:func:`dpnotes.composition.gaussian_sigma_exact`).
    Solving for σ̃:

    .. math:: \tilde\sigma = \Big(\log\big(1 + \mu^2/(q^2 T)\big)\Big)^{-1/2},\qquad \mu = 1/\sigma_G(\varepsilon, \delta).

    Parameters
    ----------
    q : float, q ∈ (0, 1]
    steps : float, T > 0 (the GDP accountant allows fractional T)
    delta : float, δ ∈ (0, 1)
    epsilon : float, ε > 0

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For parameters out of range.

    References
    ----------
    Bu, Dong, Long & Su (2020), Theorem 5; Balle & Wang (2018), Theorem 8.

    Examples
    --------
    >>> s = clt_noise_for_epsilon(256 / 60000, 4687.5, 1e-5, 1.3411966651387)
    >>> round(s, 6)
    1.06
    """
    q = float(check_interval(q, "q", 0, 1, closed_low=False))
    steps = float(check_positive(steps, "steps"))
    delta = float(check_delta(delta))
    epsilon = float(check_positive(epsilon, "epsilon"))
    mu = 1.0 / float(gaussian_sigma_exact(epsilon, delta))
    return 1.0 / math.sqrt(math.log1p(mu * mu / (q * q * steps)))
