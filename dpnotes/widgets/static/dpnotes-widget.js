/* dpnotes static widgets: redraw precomputed curves when a slider moves (no kernel). */
(function () {
  "use strict";
  var here = document.currentScript && document.currentScript.src;
  var plotlyUrl = here ? here.replace(/dpnotes\/dpnotes-widget\.js.*$/, "plotly/plotly.min.js") : null;
  var plotlyPromise = null;

  function loadPlotly() {
    if (window.Plotly) return Promise.resolve(window.Plotly);
    if (plotlyPromise) return plotlyPromise;
    plotlyPromise = new Promise(function (resolve, reject) {
      // plotly.js registers itself with an AMD loader when one is present; load it as a global.
      var savedDefine = window.define;
      window.define = undefined;
      var s = document.createElement("script");
      s.src = plotlyUrl;
      s.onload = function () { window.define = savedDefine; resolve(window.Plotly); };
      s.onerror = function () { window.define = savedDefine; reject(new Error("plotly.js failed to load")); };
      document.head.appendChild(s);
    });
    return plotlyPromise;
  }

  function decode(b64) {
    var bin = atob(b64), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return Array.from(new Float32Array(bytes.buffer));
  }

  var DASH = { solid: "solid", dash: "dash", dot: "dot" };

  function Widget(root) {
    this.root = root;
    this.data = JSON.parse(root.querySelector("script.dpnotes-data").textContent);
    this.arrays = this.data.arrays.map(decode);
    this.inputs = Array.prototype.slice.call(root.querySelectorAll("input[type=range]"));
    this.plot = root.querySelector(".dpnotes-plot");
    this.readout = root.querySelector(".dpnotes-readout");
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

  Widget.prototype.traces = function () {
    var frame = this.data.frames[this.frameIndex()], arrays = this.arrays;
    return this.data.traces.map(function (style, i) {
      var t = {
        name: style.name, x: arrays[frame[i][0]], y: arrays[frame[i][1]],
        type: "scatter", mode: style.mode,
      };
      if (style.mode === "markers") t.marker = { color: style.color, size: 7 };
      else t.line = { color: style.color, dash: DASH[style.dash] || "solid", width: 2 };
      return t;
    });
  };

  Widget.prototype.layout = function () {
    var d = this.data;
    var layout = {
      title: { text: d.title, font: { size: 14 } },
      xaxis: { title: { text: d.xLabel }, type: d.xLog ? "log" : "linear" },
      yaxis: { title: { text: d.yLabel }, type: d.yLog ? "log" : "linear" },
      margin: { l: 60, r: 20, t: 40, b: 50 },
      legend: { orientation: "h", y: -0.25 },
      height: 380,
    };
    function axisRange(r, log, pad) {
      if (log) return [Math.log10(r[0]) - pad, Math.log10(r[1]) + pad];
      var w = (r[1] - r[0]) || 1;
      return [r[0] - 0.05 * w, r[1] + 0.05 * w];
    }
    // fixed axes over all slider positions, so the reader sees the curves move
    layout.xaxis.range = axisRange(d.xRange, d.xLog, 0);
    layout.yaxis.range = axisRange(d.yRange, d.yLog, Math.log10(1.3));
    layout.xaxis.autorange = false;
    layout.yaxis.autorange = false;
    return layout;
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
    this.updateLabels();
    return window.Plotly.react(this.plot, this.traces(), this.layout(),
      { displaylogo: false, responsive: true });
  };

  function init() {
    var roots = document.querySelectorAll(".dpnotes-widget");
    if (!roots.length) return;
    window.dpnotesWidgets = window.dpnotesWidgets || {};
    loadPlotly().then(function () {
      roots.forEach(function (root) {
        var w = new Widget(root);
        window.dpnotesWidgets[root.id] = w;
        w.inputs.forEach(function (input) {
          input.addEventListener("input", function () { w.draw(); });
        });
        w.draw().then(function () { root.setAttribute("data-ready", "1"); });
      });
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
