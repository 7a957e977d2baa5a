/* dpnotes: numeric and reading exercises answered on the static page, with no kernel and no request
   leaving the machine. Each chapter's hashed answer data (the student copy's records,
   dpnotes.exercise_kinds.export) is loaded on first use from _static/dpnotes-answers/<chapter>.js; an
   answer is hashed in the browser (PBKDF2-SHA256, crypto.subtle) and compared with it. The rule and the
   messages are those of dpnotes/exercise_kinds/numeric.py, token for token (tokens.py). */
(function () {
  "use strict";
  var DATA = window.dpnotesExerciseData = window.dpnotesExerciseData || {};
  var script = document.currentScript, base = script ? script.src.replace(/[^\/]*$/, "") : "";
  var loads = {}, enc = new TextEncoder();

  function pow10(k) { return Number("1e" + k); }
  function decade(x) {
    var a = Math.abs(x), e = Math.floor(Math.log10(a));
    if (pow10(e) > a) e -= 1; else if (pow10(e + 1) <= a) e += 1;
    return e;
  }
  function cell(x, n, e) { var k = n - e; return Math.floor(k >= 0 ? x * pow10(k) : x / pow10(-k)); }
  function figureTokens(x, n) {
    if (x === 0) return ["0"];
    var e = decade(x);
    if (Math.abs(e) > 290) return [];
    return [e - 1, e, e + 1].map(function (d) { return d + ":" + cell(x, n, d); });
  }
  function integerToken(x) {
    if (!isFinite(x) || Math.abs(x) >= 9007199254740992) return null;
    var n = Math.round(x);
    return Math.abs(x - n) <= 1e-9 * Math.max(1, Math.abs(x)) ? "i:" + n : null;
  }
  function closeFigures(n) { return n == null || n - 1 < 2 ? null : n - 1; }
  function learnerTokens(x, n) {
    var i = integerToken(x), ints = i ? [i] : [], right = n == null ? ints : figureTokens(x, n), c = closeFigures(n);
    return {right: right, close: c ? figureTokens(x, c) : [], slip: n == null ? ints.concat(figureTokens(x, 3)) : right};
  }
  function hexBytes(h) {
    var b = new Uint8Array(h.length / 2);
    for (var i = 0; i < b.length; i++) b[i] = parseInt(h.substr(2 * i, 2), 16);
    return b;
  }
  function hash(key, rec, label, token) {
    return crypto.subtle.importKey("raw", enc.encode(key + "|" + label + "|" + token), "PBKDF2", false, ["deriveBits"])
      .then(function (k) {
        return crypto.subtle.deriveBits({name: "PBKDF2", hash: "SHA-256", salt: hexBytes(rec.salt),
                                         iterations: rec.iterations}, k, 256);
      }).then(function (buf) {
        return Array.from(new Uint8Array(buf), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
      });
  }
  function hashes(key, rec, label, tokens) {
    return Promise.all(tokens.map(function (t) { return hash(key, rec, label, t); }));
  }
  function meets(stored, found) { return !!stored && found.some(function (h) { return stored.indexOf(h) >= 0; }); }
  function said(text, hint) { return (text + " " + hint).trim(); }
  function figures(n) { return n + " significant figure" + (n === 1 ? "" : "s"); }

  /* A typed answer as a number: undefined if empty, null if not a number (as Python's float(), without underscores). */
  function parse(text) {
    var s = String(text).trim().replace(/\u2212/g, "-");
    if (!s) return undefined;
    if (/^[+-]?(inf|infinity)$/i.test(s)) return s[0] === "-" ? -Infinity : Infinity;
    if (/^[+-]?nan$/i.test(s)) return NaN;
    return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) ? Number(s) : null;
  }

  /* The verdict {status, message, slip} on the number x, from the exercise's record. */
  async function verdict(key, rec, x) {
    var hint = rec.hint, n = rec.sig_figs;
    if (!isFinite(x)) return {status: "wrong", message: said("the answer is a finite number.", hint), slip: null};
    var t = learnerTokens(x, n);
    if (meets(rec.answer.right, await hashes(key, rec, "right", t.right)))
      return {status: "right", message: "correct.", slip: null};
    if (rec.slips.length) {
      var found = await hashes(key, rec, "slip", t.slip);
      for (var i = 0; i < rec.slips.length; i++)
        if (meets(rec.slips[i].hashes, found))
          return {status: "wrong", message: "not yet: " + rec.slips[i].message, slip: rec.slips[i].name};
    }
    var c = closeFigures(n);
    if (c && meets(rec.answer.close, await hashes(key, rec, "close", t.close)))
      return {status: "close", message: said("close: your value agrees with the answer to " + figures(c) +
        "; the exercise asks for " + n + ". If you rounded along the way, keep more digits.", hint), slip: null};
    if (n == null && integerToken(x) == null)
      return {status: "wrong", message: said("not yet: the answer is an integer.", hint), slip: null};
    return {status: "wrong", message: said("not yet.", hint), slip: null};
  }

  function load(chapter) {
    if (!loads[chapter]) loads[chapter] = new Promise(function (resolve, reject) {
      if (DATA[chapter]) return resolve(DATA[chapter]);
      var s = document.createElement("script");
      s.src = base + "dpnotes-answers/" + chapter + ".js";
      s.onload = function () { DATA[chapter] ? resolve(DATA[chapter]) : reject(new Error("no data")); };
      s.onerror = function () { delete loads[chapter]; reject(new Error("not loaded")); };
      document.head.appendChild(s);
    });
    return loads[chapter];
  }

  /* check(key, chapter, text): the verdict on a typed answer (used by the forms and by the tests). */
  async function check(key, chapter, text) {
    if (!(window.crypto && crypto.subtle))
      return {status: "unavailable", message: "this page cannot check answers here (its browser offers no " +
        "crypto.subtle: open it over https or http://localhost), or run the cell in Jupyter.", slip: null};
    var x = parse(text);
    if (x === undefined) return {status: "wrong", message: "no answer yet: type your value.", slip: null};
    if (x === null) return {status: "wrong", message: "expected a number, got '" + String(text).trim() + "'", slip: null};
    var data = await load(chapter);
    return verdict(key, data.exercises[key], x);
  }
  window.dpnotesCheck = check;

  var MARKS = {right: "\u2713", close: "\u2248", wrong: "\u2717", unavailable: "!"};
  function wire(box) {
    var input = box.querySelector("input"), button = box.querySelector("button"), out = box.querySelector("[role=status]");
    function run() {
      out.className = "dpnotes-verdict";
      out.textContent = "checking\u2026";
      button.disabled = true;
      check(box.dataset.key, box.dataset.chapter, input.value).then(function (v) {
        out.className = "dpnotes-verdict dpnotes-" + v.status;
        out.textContent = MARKS[v.status] + " " + v.message;
        box.dataset.status = v.status;
      }, function () {
        out.className = "dpnotes-verdict dpnotes-unavailable";
        out.textContent = "! the answer data did not load; run the cell in Jupyter to check.";
      }).then(function () { button.disabled = false; });
    }
    button.addEventListener("click", run);
    input.addEventListener("keydown", function (e) { if (e.key === "Enter") { e.preventDefault(); run(); } });
    box.hidden = false;
  }
  function start() { document.querySelectorAll(".dpnotes-answer[data-key]").forEach(wire); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
