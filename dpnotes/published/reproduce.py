"""Each published number recomputed three ways (the same method, RDP with the improved
conversion, the certified PLD bracket), and the table of the reproductions."""

import math
from dataclasses import dataclass, field
from functools import lru_cache

from ..conversion import epsilon_from_rdp
from ..orders import DEFAULT_ORDERS
from ..pld import dpsgd_clt_mu, dpsgd_epsilon_bracket
from ..privacy_loss import epsilon_gaussian
from ..rounding import bracket_text
from ..subsampling import rdp_subsampled_gaussian
from .data import published_numbers

__all__ = ["PublishedReproduction", "reproduce_published", "reproduce_published_work", "reproduction_table"]

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


def same_method_result(data, row, steps=None):
    """The row's ε recomputed by the accountant its source used, at ``steps`` (default: the row's own).

    A dict with ``"epsilon"`` and the method's parameter: ``"mu"`` for the CLT of Gaussian DP,
    else the best RDP ``"order"``.
    """
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


def published_row(data, row_id):
    """The row of ``data`` (:func:`dpnotes.published.published_numbers`) whose id is ``row_id``; ValueError if none."""
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
    row = published_row(data, row_id)
    s = row["setting"]
    same = same_method_result(data, row)
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

    (by :func:`dpnotes.rounding.bracket_text`, exactly in decimal).

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
        setting = published_row(data, r.row_id)["setting"]
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
                    pld = bracket_text(lo, up, decimals=2)
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
