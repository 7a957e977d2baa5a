"""MyST markdown turned into the plain Markdown that JupyterLab and Notebook 7 render (the student copy, the assignments).

The chapters are written in MyST for Jupyter Book: directives (``{exercise}``, ``{prf:theorem}``,
``{admonition}``…) fenced by backticks or colons, roles (``{cite:t}`key```, ``{term}`…```,
``{prf:ref}`…```, ``{doc}`…```, ``{claim}`…```) and targets (``(label)=``). Plain Jupyter shows
those as raw text. :class:`PlainMarkdown` rewrites them:

- an exercise, a solution, a theorem-like statement or a proof → a bold title line, then the text;
- an admonition or a note → a block quote whose first line is its bold title;
- ``{cite:t}`` → "Author (year)", ``{cite:p}`` → "(Author, year)" (from ``book/references.bib``);
- ``{doc}`` → a link to the chapter notebook when the copy has it, else the page's title;
- ``{prf:ref}``, ``{ref}`` → the statement's kind and title (or the text given);
  ``{term}`` → its text; ``{claim}`` → "[ID]"; ``{math}`` → ``$…$``; ``{eq}`` → "(label)";
- option lines (``:label:``, ``:class:``…) and targets are dropped; ``$…$`` and ``$$…$$`` math stay,
  and fenced code (a fence whose info string is not a ``{directive}``) is left as it is.
"""

import json
import re
from pathlib import Path

__all__ = ["PlainMarkdown", "bib_labels", "statement_labels"]

_OPEN = re.compile(r"^(?P<indent>[ \t]{0,3})(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>.*?)[ \t]*$")
_FENCE = re.compile(r"^[ \t]{0,3}(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_OPTION = re.compile(r"^[ \t]*:[\w-]+:(?:[ \t].*)?$")
_TARGET = re.compile(r"^\([\w:.-]+\)=[ \t]*$")
_ROLE = re.compile(r"\{(?P<role>[\w:-]+)\}`(?P<text>[^`]*)`")
_EXPLICIT = re.compile(r"^(?P<shown>.*?)\s*<(?P<target>[^<>]+)>$", re.S)

#: directive name → the title word shown in bold
KIND_WORDS = {
    "exercise": "Exercise", "solution": "Solution", "prf:proof": "Proof", "prf:theorem": "Theorem",
    "prf:lemma": "Lemma", "prf:definition": "Definition", "prf:proposition": "Proposition",
    "prf:corollary": "Corollary", "prf:remark": "Remark", "prf:example": "Example", "prf:property": "Property",
    "prf:algorithm": "Algorithm", "prf:conjecture": "Conjecture", "prf:observation": "Observation",
    "prf:assumption": "Assumption", "prf:axiom": "Axiom", "prf:criterion": "Criterion",
}
_QUOTED = {"admonition", "note", "tip", "hint", "important", "warning", "caution", "attention", "danger", "error",
           "seealso", "dropdown", "margin", "sidebar", "topic"}


_ACCENTS = {'"a': "ä", '"e': "ë", '"o': "ö", '"u': "ü", "'e": "é", "'a": "á", "`e": "è", "^o": "ô", "~n": "ñ"}


def _latex_accents(text):
    text = re.sub(r"\{\\(['\"`^~])(\w)\}", lambda m: _ACCENTS.get(m.group(1) + m.group(2), m.group(2)), text)
    return re.sub(r"\\(['\"`^~])\{?(\w)\}?", lambda m: _ACCENTS.get(m.group(1) + m.group(2), m.group(2)), text)


def _last_names(authors):
    names = []
    for person in re.split(r"\s+and\s+", authors.strip()):
        person = person.strip().strip("{}")
        if person.lower() == "others":
            names.append("others")
            continue
        names.append(person.split(",")[0].strip() if "," in person else person.split()[-1])
    return [re.sub(r"[{}\\]", "", n) for n in names]


def bib_labels(bib_text):
    """key → (authors as cited, year) of every entry of a BibTeX file."""
    out = {}
    for m in re.finditer(r"@\w+\{(?P<key>[^,\s]+),(?P<body>.*?)\n\}", bib_text, re.S):
        body = m.group("body")
        author = re.search(r"\bauthor\s*=\s*\{(?P<a>(?:[^{}]|\{[^{}]*\})*)\}", body)
        year = re.search(r"\byear\s*=\s*\{?(?P<y>[^},\n]+)", body)
        names = _last_names(_latex_accents(author.group("a"))) if author else [m.group("key")]
        if len(names) == 1:
            who = names[0]
        elif len(names) == 2 and names[1] != "others":
            who = f"{names[0]} and {names[1]}"
        else:
            who = f"{names[0]} et al."
        out[m.group("key")] = (who, year.group("y").strip() if year else "n.d.")
    return out


def statement_labels(notebooks):
    """label → (kind word, title) of every labelled directive in the given notebooks (JSON files)."""
    out = {}
    for path in notebooks:
        for cell in json.loads(Path(path).read_text(encoding="utf-8"))["cells"]:
            lines = "".join(cell["source"]).splitlines()
            for i, line in enumerate(lines):
                m = _OPEN.match(line)
                if not m:
                    continue
                for opt in lines[i + 1:i + 6]:
                    lab = re.match(r"^[ \t]*:label:[ \t]*(\S+)", opt)
                    if lab:
                        word = KIND_WORDS.get(m.group("name"), m.group("name").split(":")[-1].capitalize())
                        title = re.sub(r"\s*\{claim\}`[^`]*`", "", m.group("arg"))
                        out[lab.group(1)] = (word, _ROLE.sub(lambda r: r.group("text"), title).strip())
                        break
                    if not _OPTION.match(opt):
                        break
    return out


class PlainMarkdown:
    """Rewrites MyST markdown as plain Markdown; see the module docstring for the rules.

    ``citations``: key → (authors, year); ``statements``: label → (kind word, title);
    ``pages``: document name → (title, link or ``None``).
    """

    def __init__(self, citations=None, statements=None, pages=None):
        self.citations = citations or {}
        self.statements = statements or {}
        self.pages = pages or {}

    @classmethod
    def for_book(cls, book, copied=()):
        """The converter for the chapters of ``book`` (a folder); ``copied``: the notebook names the copy holds."""
        book = Path(book)
        bib = book / "references.bib"
        citations = bib_labels(bib.read_text(encoding="utf-8")) if bib.exists() else {}
        notebooks = sorted(book.glob("*.ipynb"))
        pages = {}
        for path in notebooks + sorted(book.glob("*.md")):
            text = path.read_text(encoding="utf-8")
            if path.suffix == ".ipynb":
                text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"] if c["cell_type"] == "markdown")
            title = re.search(r"^#\s+(.+)$", text, re.M)
            title = title.group(1).strip() if title else path.stem
            link = path.name if path.suffix == ".ipynb" and path.name in set(copied) else None
            pages[path.stem] = (title, link)
        return cls(citations, statement_labels(notebooks), pages)

    # ------------------------------------------------------------------ roles
    def role(self, name, text):
        m = _EXPLICIT.match(text)
        shown, target = (m.group("shown"), m.group("target")) if m else (None, text)
        if name in ("cite", "cite:p", "cite:t", "cite:ps", "cite:ts", "cite:alp", "cite:author", "cite:year"):
            keys = [k.strip() for k in target.split(",") if k.strip()]
            found = [self.citations.get(k, (k, "n.d.")) for k in keys]
            if name in ("cite:t", "cite:ts"):
                return "; ".join(f"{who} ({year})" for who, year in found)
            if name == "cite:author":
                return "; ".join(who for who, _ in found)
            if name == "cite:year":
                return "; ".join(year for _, year in found)
            inner = "; ".join(f"{who}, {year}" for who, year in found)
            return inner if name == "cite:alp" else f"({inner})"
        if name == "doc":
            stem = Path(target).stem
            title, link = self.pages.get(stem, (stem, None))
            label = shown or title
            return f"[{label}]({link})" if link else f"*{label}* (in the book)"
        if name in ("prf:ref", "ref", "numref"):
            if shown:
                return shown
            if target in self.statements:
                word, title = self.statements[target]
                return f"{word} ({title})" if title else word
            return target
        if name == "claim":
            return f"[{target}]"
        if name == "math":
            return f"${target}$"
        if name == "eq":
            return f"({target})"
        return shown or target  # term, abbr, download, … : the text

    def roles(self, text):
        return _ROLE.sub(lambda m: self.role(m.group("role"), m.group("text")), text)

    # ------------------------------------------------------------------ blocks
    def __call__(self, text):
        return self._block(text.splitlines()).rstrip("\n") + ("\n" if text.endswith("\n") else "")

    def _block(self, lines):
        out, plain, i = [], [], 0

        def flush():  # roles may run over a line break: converted on the joined text of plain lines
            if plain:
                out.append(self.roles("\n".join(plain)))
                plain.clear()

        while i < len(lines):
            line = lines[i]
            opening = _OPEN.match(line)
            if opening:
                flush()
                body, i = self._directive_body(lines, i + 1, opening.group("fence"))
                out.append(self._directive(opening.group("name"), opening.group("arg"), body))
                continue
            fence = _FENCE.match(line)
            if fence:  # plain fenced code: copied as it is, up to its closing fence
                flush()
                j = i + 1
                marker = fence.group("fence")
                while j < len(lines) and not re.match(rf"^[ \t]{{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$",
                                                      lines[j]):
                    j += 1
                out.extend(lines[i:j + 1])
                i = j + 1
                continue
            if not _TARGET.match(line):
                plain.append(line)
            i += 1
        flush()
        return "\n".join(out) + "\n"

    @staticmethod
    def _directive_body(lines, i, fence):
        """(body lines without the options, index after the closing fence)."""
        while i < len(lines) and _OPTION.match(lines[i]):
            i += 1
        body, depth = [], 0
        close = re.compile(rf"^[ \t]{{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        while i < len(lines):
            line = lines[i]
            inner = _OPEN.match(line)
            code = _FENCE.match(line)
            if inner and inner.group("fence")[0] == fence[0] and len(inner.group("fence")) >= len(fence):
                depth += 1
            elif close.match(line):
                if depth == 0:
                    return body, i + 1
                depth -= 1
            elif code and not inner and code.group("info").strip():
                # fenced code inside the directive: copied through its closing fence, which closes nothing else
                marker = code.group("fence")
                end = re.compile(rf"^[ \t]{{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
                body.append(line)
                i += 1
                while i < len(lines) and not end.match(lines[i]):
                    body.append(lines[i])
                    i += 1
                if i >= len(lines):
                    return body, i
                line = lines[i]
            body.append(line)
            i += 1
        return body, i

    def _directive(self, name, arg, body):
        text = self._block(body).strip("\n")
        arg = self.roles(arg).strip()
        if name in KIND_WORDS or name.startswith("prf:"):
            word = KIND_WORDS.get(name, name.split(":")[-1].capitalize())
            if name == "prf:proof":
                return f"*Proof.* {text} ∎\n" if text else "*Proof.* ∎\n"
            head = f"**{word}: {arg}**" if arg else f"**{word}.**"
            return f"{head}\n\n{text}\n" if text else f"{head}\n"
        if name in ("math",):
            return f"$$\n{text}\n$$\n"
        if name not in _QUOTED:  # an unknown directive: its text, quoted under its name
            arg = arg or name.capitalize()
        if True:
            title = arg or ("" if name == "admonition" else name.capitalize())
            quoted = "\n".join(f"> {line}" if line.strip() else ">" for line in text.splitlines())
            head = f"> **{title}**\n>\n" if title else ""
            return f"{head}{quoted}\n"
