"""The published numbers as data: loading ``dpnotes/data/published_numbers.json``, checking
every field, and the sampling rate and step count T of a setting under each library's rule."""

import copy
import json
import math
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType

import numpy as np

from .._validation import check_count, check_delta, check_interval, check_positive

__all__ = ["STEP_RULES", "published_numbers", "published_sampling_rate", "published_steps"]

#: How each library turns epochs into steps T (n: data set size, b: batch size, q: sampling rate).
STEP_RULES = MappingProxyType({
    "given": "T as published",
    "epochs_times_floor_n_over_b": "T = epochs · ⌊n/b⌋ (TensorFlow Privacy's MNIST tutorial, 2019)",
    "ceil_epochs_n_over_b": "T = ⌈epochs · n/b⌉ (TensorFlow Privacy's compute_dp_sgd_privacy)",
    "epochs_times_int_inverse_q": "T = epochs · int(1/q) (Opacus' UniformWithReplacementSampler, 2021)",
    "epochs_n_over_b": "T = epochs · n/b, not rounded (TensorFlow Privacy's GDP accountant)",
})  # read-only

_ACCOUNTANTS = ("rdp", "gdp-clt")
_CONVERSIONS = ("mironov", "improved")
_QUANTITIES = {"rdp": ("epsilon", "order"), "gdp-clt": ("epsilon", "mu")}
_DATA = "published_numbers.json"




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


def check_setting(setting, rule, where):
    """Checked copy of a row's ``setting`` mapping (σ, δ, q, T filled in from ``rule``); errors name ``where``."""
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
        setting = check_setting(_require(row, "setting", where), method["steps"], f"{where}.setting")
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
