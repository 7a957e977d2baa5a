"""dpnotes.rounding: every printed bound is rounded outward, exactly, at the digits shown; and the chapters'
printed brackets follow the rule (a scan of their stored outputs and markdown)."""

import json
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpnotes.rounding import bound_text, bracket_text, certified_digits, outward

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"


def _exact_directed(x, d, up):
    """The reference: ⌊10^d x⌋/10^d or ⌈10^d x⌉/10^d in exact rational arithmetic (a second route)."""
    scaled = Fraction(x) * 10**d
    n = -((-scaled.numerator) // scaled.denominator) if up else scaled.numerator // scaled.denominator
    return Fraction(n, 10**d)


@settings(max_examples=300, deadline=None)
@given(x=st.floats(-1e12, 1e12, allow_nan=False, allow_infinity=False), d=st.integers(0, 12))
def test_outward_is_the_exact_floor_and_ceiling(x, d):
    assert Fraction(outward(x, "upper", decimals=d)) == _exact_directed(x, d, True)
    assert Fraction(outward(x, "lower", decimals=d)) == _exact_directed(x, d, False)


@settings(max_examples=300, deadline=None)
@given(x=st.floats(1e-300, 1e300), s=st.integers(1, 15))
def test_significant_digits_keep_the_bound_on_its_side(x, s):
    up, down = outward(x, "upper", significant=s), outward(x, "lower", significant=s)
    assert up >= Decimal(x) >= down
    assert len(up.normalize().as_tuple().digits) <= s + 1 and len(down.normalize().as_tuple().digits) <= s
    # the printed text reads back to a float on the same side
    assert float(bound_text(x, "upper", significant=s)) >= x >= float(bound_text(x, "lower", significant=s))


def test_float_products_land_on_the_wrong_side_and_the_helper_does_not():
    # 0.29 is stored as 0.28999999999999998002…; math.floor(0.29 * 100) / 100 = 0.28 (fine for a lower end),
    # but an upper end just above k/100 whose product rounds to k: ceil gives k/100 < value
    x = 1.1500000000000001  # the double after 1.15
    assert x > 1.15 and x * 100 == 115.00000000000001 or x * 100 == 115.0
    assert Decimal(bound_text(x, "upper", decimals=2)) >= Decimal(x)
    y = 0.57  # 0.57 * 100 = 56.99999999999999: floor gives 0.56, ceil gives 0.57 ≥ 0.5699999…
    assert bound_text(y, "upper", decimals=2) == "0.57" and bound_text(y, "lower", decimals=2) == "0.56"


def test_bracket_rounded_to_nearest_misses_the_value_and_outward_contains_it():
    # the example: a bracket around 1.5606 printed "[1.56, 1.56]" does not contain it
    lo, hi = 1.56055, 1.56068
    assert f"[{lo:.2f}, {hi:.2f}]" == "[1.56, 1.56]"
    assert bracket_text(lo, hi, decimals=2) == "[1.56, 1.57]"
    a, b = (Decimal(t) for t in bracket_text(lo, hi, decimals=2)[1:-1].split(", "))
    assert a <= Decimal(1.5606) <= b


def test_certified_digits_are_shared_by_the_whole_bracket():
    assert certified_digits(34.1802345, 34.1836512) == "34.18…"
    assert certified_digits(12.6084141, 12.6096742) == "12.60…"
    assert certified_digits(1.9999973, 1.9999974) == "1.999997…"
    assert certified_digits(0.5, 0.5) == "0.5" + "0" * 14
    with pytest.raises(ValueError, match="certifies no digit"):
        certified_digits(1.9, 2.1)


@pytest.mark.parametrize("call, match", [
    (lambda: outward(float("nan"), "upper", decimals=2), "NaN"),
    (lambda: outward(1.0, "up", decimals=2), "side"),
    (lambda: outward(1.0, "upper"), "exactly one"),
    (lambda: outward(1.0, "upper", decimals=-1), "decimals"),
    (lambda: outward(1.0, "upper", significant=0), "significant"),
    (lambda: bracket_text(2.0, 1.0, decimals=2), "lower <= upper"),
    (lambda: certified_digits(-1.0, 1.0), "0 <= lower"),
])
def test_bad_input_names_the_parameter(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_infinite_bounds_print_as_inf():
    assert bound_text(float("inf"), "upper", decimals=3) == "inf"
    assert bracket_text(1.0, float("inf"), decimals=1) == "[1.0, inf]"


# ---------------------------------------------------------------------------
# the chapters' printed brackets
# ---------------------------------------------------------------------------

BRACKET = re.compile(r"\[(-?\d+\.\d+(?:e-?\d+)?), (-?\d+\.\d+(?:e-?\d+)?)\]")


def _printed_brackets():
    """(page, cell index, text) of every decimal bracket "[a, b]" in the chapters' outputs and markdown."""
    out = []
    for nb in sorted(BOOK.glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            texts = [_CODE.sub("", "".join(cell["source"]))] if cell["cell_type"] == "markdown" else []
            for o in cell.get("outputs", []):
                texts.append("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")))
            for text in texts:
                out += [(nb.stem, i, m) for m in BRACKET.finditer(text)]
    for md in sorted(BOOK.glob("*.md")):
        out += [(md.stem, 0, m) for m in BRACKET.finditer(_CODE.sub("", md.read_text(encoding="utf-8")))]
    return out


#: inline code in Markdown (a Python list is not a printed bracket)
_CODE = re.compile(r"`[^`\n]*`")

# brackets that are not bounds: laws (pmfs) and intervals of a parameter, printed as data
NOT_BOUNDS = {"[0.25, 0.75]", "[0.75, 0.25]", "[0.5, 0.5]", "[0.7, 0.3]", "[0.2, 0.8]", "[0.4, 0.6]", "[0.3, 0.7]",
              "[0.9, 0.1]", "[0.1, 0.9]", "[0.6, 0.8]", "[0.3, 0.4]", "[0.1, 0.2]", "[0.5, 2.0]", "[2.0, 8.0]",
              "[-2.5, 2.5]", "[1.1, 63]", "[1.25, 512]"}


def test_no_printed_bracket_collapses_to_a_point():
    """A bracket of a quantity that is not exactly a decimal, rounded outward, has two different ends.

    Rounded to nearest, a narrow bracket prints as "[1.56, 1.56]", which need not contain the value.
    """
    bad = [f"{page} cell {i}: {m.group(0)}" for page, i, m in _printed_brackets()
           if m.group(0) not in NOT_BOUNDS and Decimal(m.group(1)) >= Decimal(m.group(2))]
    assert not bad, bad


def _claim26_brackets():
    from dpnotes.subsampling import claim26_constant_bracket

    return {(c1, c2): claim26_constant_bracket(c1, c2)[:2] for c1 in (0.25, 0.5, 1.0) for c2 in (0.5, 1.0, 2.0)}


def test_the_appendix_prints_the_certified_brackets_of_k_rounded_outward():
    cells = json.loads((BOOK / "appendix-subsampled-gaussian-constant.ipynb").read_text(encoding="utf-8"))["cells"]
    outputs = ["".join("".join(o.get("text", "")) for o in c.get("outputs", [])) for c in cells]
    table = next(text for text in outputs if "K(c1, c2) ∈ [lower, upper]" in text)
    rows = [line for line in table.splitlines() if line.startswith("c1 = ")]
    truth = _claim26_brackets()
    assert len(rows) == 3
    for line in rows:
        c1 = float(line.split()[2])
        printed = BRACKET.findall(line)
        assert len(printed) == 3, line
        for c2, (a, b) in zip((0.5, 1.0, 2.0), printed):
            lo, hi = truth[(c1, c2)]
            decimals = len(a.split(".")[1])
            assert f"[{a}, {b}]" == bracket_text(lo, hi, decimals=decimals), (c1, c2, a, b, lo, hi)
            assert Decimal(a) <= Decimal(lo) and Decimal(hi) <= Decimal(b)


def test_pld_brackets_in_chapter_07_contain_the_bracket_they_print():
    """Chapter 07's printed ε brackets (δ = 1e-3, 1e-6, 1e-10 for σ = 5, T = 100) contain the exact Gaussian ε."""
    from dpnotes.privacy_loss import epsilon_gaussian

    cells = json.loads((BOOK / "07-exact-answer.ipynb").read_text(encoding="utf-8"))["cells"]
    lines = [line for c in cells for o in c.get("outputs", []) for line in "".join(o.get("text", "")).splitlines()
             if line.startswith("delta=") and "eps in" in line]
    assert len(lines) == 3
    mu = 10 / 5.0
    for line in lines:
        delta = float(line.split(":")[0].split("=")[1])
        a, b = BRACKET.search(line).groups()
        with mpmath.workdps(30):
            exact = epsilon_gaussian(delta, mu)
        assert Decimal(a) <= Decimal(exact) <= Decimal(b), line


def test_a_certified_supremum_is_printed_with_its_certified_digits_only():
    # K(1, 2) is certified as a bracket [34.18023…, 34.18366…]: "34.18…" is certified, "34.180…" is not
    from dpnotes.subsampling import claim26_constant_bracket

    lo, hi, _ = claim26_constant_bracket(1.0, 2.0)
    assert certified_digits(lo, hi) == "34.18…"
    cells = json.loads((BOOK / "appendix-subsampled-gaussian-constant.ipynb").read_text(encoding="utf-8"))["cells"]
    text = "".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    assert r"34.180\ldots" not in text and r"34.18\ldots" in text


def test_chapter_07_prints_the_running_runs_certified_bracket_rounded_outward():
    from dpnotes.learning.data import RUNNING_RUN
    from dpnotes.pld import dpsgd_epsilon_bracket

    lo, hi = dpsgd_epsilon_bracket(RUNNING_RUN["q"], RUNNING_RUN["sigma"], RUNNING_RUN["steps"], RUNNING_RUN["delta"])[:2]
    cells = json.loads((BOOK / "07-exact-answer.ipynb").read_text(encoding="utf-8"))["cells"]
    out = "\n".join("".join(o.get("text", "")) for c in cells for o in c.get("outputs", []))
    assert f"exact eps in {bracket_text(lo, hi, decimals=4)}  (certified PLD bracket)" in out
    assert "T = 300: mu = " in out and f"certified bracket {bracket_text(lo, hi, decimals=4)};" in out
