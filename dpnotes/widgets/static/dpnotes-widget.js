/* dpnotes static widgets: redraw precomputed curves when a slider moves (no kernel).
 *
 * plotly.js (its partial "basic" bundle) is loaded by a deferred script tag before this
 * one, on pages that hold a widget only. The plot follows the page's colour mode, live:
 * transparent backgrounds, the theme's text and grid colours. The title and the legend are
 * HTML (they wrap on a phone); plotly draws only the axes and the curves, with no mode bar.
 */
(function () {
  "use strict";
  var me = document.currentScript;
  var staticRoot = me ? me.src.replace(/dpnotes\/dpnotes-widget\.js.*$/, "") : null;
  var mathjaxPath = me && me.getAttribute("data-mathjax");

  function loadMathJax() {
    // the page's math, deferred by the build until the figures are drawn (see dpnotes_sphinx)
    if (!mathjaxPath || !staticRoot || document.querySelector("script[data-dpnotes-mathjax]")) return;
    var s = document.createElement("script");
    s.src = staticRoot + mathjaxPath;
    s.setAttribute("data-dpnotes-mathjax", "1");
    document.head.appendChild(s);
  }

  function decode(b64) {
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return Array.from(new Float32Array(bytes.buffer));
  }

  var DASH = { solid: "solid", dash: "dash", dot: "dot" };
  var INK = /^(black|#000|#000000)$/i; // "ink" traces take the page's text colour

  function themeColours() {
    var css = getComputedStyle(document.documentElement);
    function v(name, fallback) { return (css.getPropertyValue(name) || "").trim() || fallback; }
    var dark = document.documentElement.dataset.theme === "dark";
    return {
      dark: dark,
      text: v("--pst-color-text-base", dark ? "#ced6dd" : "#222832"),
      muted: v("--pst-color-text-muted", dark ? "#9ca4af" : "#48566b"),
      grid: dark ? "rgba(255,255,255,0.14)" : "rgba(0,0,0,0.10)",
      line: v("--pst-color-border", dark ? "#48566b" : "#d1d5da"),
    };
  }

  function Widget(root) {
    this.root = root;
    this.data = JSON.parse(root.querySelector("script.dpnotes-data").textContent);
    this.arrays = this.data.arrays.map(decode);
    this.inputs = Array.prototype.slice.call(root.querySelectorAll("input[type=range]"));
    this.plot = root.querySelector(".dpnotes-plot");
    this.readout = root.querySelector(".dpnotes-readout");
    this.swatches = Array.prototype.slice.call(root.querySelectorAll(".dpnotes-legend line, .dpnotes-legend circle"));
  }

  Widget.prototype.frameIndex = function () {
    var idx = 0, sliders = this.data.sliders;
    for (var j = 0; j < sliders.length; j++) {
      idx = idx * sliders[j].values.length + Number(this.inputs[j].value);
    }
    return idx;
  };

  Widget.prototype.params = function () {
    var out = {}, sliders = this.data.sliders, self = this;
    sliders.forEach(function (s, j) { out[s.name] = s.values[Number(self.inputs[j].value)]; });
    return out;
  };

  Widget.prototype.colour = function (style, theme) {
    return INK.test(style.color) ? theme.text : style.color;
  };

  Widget.prototype.traces = function (theme) {
    var frame = this.data.frames[this.frameIndex()], arrays = this.arrays, self = this;
    return this.data.traces.map(function (style, i) {
      var t = {
        name: style.name, x: arrays[frame[i][0]], y: arrays[frame[i][1]],
        type: "scatter", mode: style.mode, showlegend: false,
      };
      var c = self.colour(style, theme);
      if (style.mode === "markers") t.marker = { color: c, size: 7 };
      else t.line = { color: c, dash: DASH[style.dash] || "solid", width: 2 };
      return t;
    });
  };

  Widget.prototype.layout = function (theme) {
    var d = this.data, narrow = this.plot.clientWidth < 520;
    function axis(label, log, range) {
      // fixed axes over all slider positions, so the reader sees the curves move
      var decades = log ? Math.log10(range[1] / range[0]) : 0;
      return {
        // powers of ten, not SI prefixes ("1p" would read as a unit); labels at 1, 2, 5
        // over a few decades, at powers of ten only over many
        exponentformat: "power", dtick: log ? (decades > 2.5 ? 1 : "D2") : undefined,
        title: { text: label, font: { size: narrow ? 11 : 13 } },
        // the spec's display ranges (dpnotes.widgets.spec.Figure.display_ranges); plotly takes
        // a log axis's range in powers of ten
        type: log ? "log" : "linear", range: log ? range.map(Math.log10) : range, autorange: false,
        fixedrange: true, automargin: true,
        gridcolor: theme.grid, linecolor: theme.line, zerolinecolor: theme.line,
        tickfont: { size: narrow ? 10 : 12 },
      };
    }
    return {
      xaxis: axis(d.xLabel, d.xLog, d.xRange),
      yaxis: axis(d.yLabel, d.yLog, d.yRange),
      margin: narrow ? { l: 48, r: 10, t: 10, b: 44 } : { l: 60, r: 20, t: 14, b: 50 },
      showlegend: false,
      dragmode: false,
      height: narrow ? 300 : 360,
      paper_bgcolor: "rgba(0,0,0,0)",
      plot_bgcolor: "rgba(0,0,0,0)",
      font: { color: theme.text },
      hoverlabel: { namelength: -1 },
    };
  };

  Widget.prototype.updateLabels = function () {
    var sliders = this.data.sliders, parts = [], self = this;
    sliders.forEach(function (s, j) {
      var input = self.inputs[j], text = s.labels[Number(input.value)];
      input.setAttribute("aria-valuetext", s.label + " = " + text);
      var span = input.parentNode.querySelector(".dpnotes-value");
      if (span) span.textContent = text;
      parts.push(s.label + " = " + text);
    });
    this.readout.textContent = parts.join(", ");
  };

  Widget.prototype.draw = function () {
    var theme = themeColours(), self = this;
    this.updateLabels();
    this.swatches.forEach(function (el) {
      var c = self.colour(self.data.traces[Number(el.getAttribute("data-trace"))], theme);
      el.setAttribute(el.tagName.toLowerCase() === "circle" ? "fill" : "stroke", c);
    });
    return window.Plotly.react(this.plot, this.traces(theme), this.layout(theme), {
      displayModeBar: false, displaylogo: false, responsive: true, scrollZoom: false,
      showLink: false, showSendToCloud: false, showEditInChartStudio: false,
    });
  };

  function init() {
    var roots = document.querySelectorAll(".dpnotes-widget");
    if (!roots.length || !window.Plotly) { loadMathJax(); return; }
    window.dpnotesWidgets = window.dpnotesWidgets || {};
    var widgets = [], drawn = [];
    roots.forEach(function (root) {
      var w = new Widget(root);
      widgets.push(w);
      window.dpnotesWidgets[root.id] = w;
      w.inputs.forEach(function (input) {
        input.addEventListener("input", function () { w.draw(); });
      });
      drawn.push(w.draw().then(function () { root.setAttribute("data-ready", "1"); }));
    });
    Promise.all(drawn).then(loadMathJax, loadMathJax);
    // the theme's colour-mode button sets data-theme on <html>: redraw in the new colours
    new MutationObserver(function () { widgets.forEach(function (w) { w.draw(); }); })
      .observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    var timer = null;  // a narrow screen gets smaller type and margins
    window.addEventListener("resize", function () {
      clearTimeout(timer);
      timer = setTimeout(function () { widgets.forEach(function (w) { w.draw(); }); }, 150);
    });
    // print at the page's width, then back
    window.addEventListener("beforeprint", function () {
      widgets.forEach(function (w) { window.Plotly.Plots.resize(w.plot); });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
