"""The registry of every claim in the source documents, and where the book checks it.

The registry is data: ``dpnotes/data/claims.toml``, one ``[[claim]]`` table per
claim. Each row says where a claim is **stated** (the label of its directive in
a chapter, and that chapter) and **derived** (a sympy derivation). Where it is
**verified** and **shown** is said where that is true: a test that checks a claim
by an independent route carries ``@pytest.mark.claim("S4-14")``, and a figure that
shows it lists it (``Figure(..., claims=("S4-14",))`` in :mod:`dpnotes.figures`).
Empty fields are honest: that part is not done yet. ``status`` records what the
book found; the statuses and their meanings are the ``[statuses]`` table of the
data file (see :data:`STATUSES`). A finding (any status but "supported") quotes
the source passage it is about.

The book pages "Claims and where they are checked" (``book/claims.md``) and
"Findings" (``book/findings.md``) are written from it by ``tools/claims_pages.py``
(``make claims``); the package itself writes nothing.
"""

import tomllib
from dataclasses import dataclass
from importlib import resources

__all__ = ["Claim", "CLAIMS", "SOURCES", "STATUSES", "FINDING_STATUSES"]


@dataclass(frozen=True)
class Claim:
    id: str
    statement: str
    status: str
    stated: str = ""  # label of the directive stating it
    derived: str = ""  # dotted path of the sympy derivation
    chapter: str = ""  # the document that states it
    note: str = ""  # what the book found
    quote: str = ""  # the source passage a finding is about

    @property
    def source(self):
        """The key of the source document in :data:`SOURCES` ("0" … "4")."""
        return self.id[1]


def _load():
    with resources.files(__package__).joinpath("data/claims.toml").open("rb") as f:
        data = tomllib.load(f)
    statuses = {name: dict(row) for name, row in data["statuses"].items()}
    rows = []
    for row in data["claim"]:
        claim = Claim(**row)
        if claim.status not in statuses:
            raise ValueError(f"claims.toml: {claim.id} has unknown status {claim.status!r}")
        rows.append(claim)
    ids = [c.id for c in rows]
    if len(set(ids)) != len(ids):
        raise ValueError("claims.toml: duplicate claim ids")
    return dict(data["sources"]), statuses, rows


SOURCES, STATUSES, _ROWS = _load()
#: claim ID → :class:`Claim`, in the data file's order
CLAIMS = {c.id: c for c in _ROWS}
FINDING_STATUSES = tuple(s for s, row in STATUSES.items() if row.get("finding", False))
