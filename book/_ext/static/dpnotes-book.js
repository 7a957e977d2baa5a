/* Repairs to the theme's page chrome, run before the theme's own scripts (deferred, in order).
 *
 * - Menus: pydata-sphinx-theme and sphinx-book-theme each bind the *first* `.primary-toggle`
 *   and `.secondary-toggle` on the page. The first is a copy in the pydata header, which the
 *   book theme never shows, so on a phone neither menu opened and on a desktop the sidebar
 *   did not collapse. The hidden copies are removed, so the visible buttons are the first.
 * - Buttons whose visible text differs from their aria-label (the search field shows
 *   "Search Ctrl+K" but is named "Search"; a hidden code cell's toggle shows "Show code
 *   cell source" but is named "Toggle hidden content") are named by their text instead.
 * - The bibliography's citation list is marked role="list" but holds anchors beside its
 *   entries; the role is dropped (it is a plain list of entries to a screen reader).
 * - Regions that scroll sideways (wide tables, long output) get a tab stop and a name, so a
 *   keyboard reader can scroll them; so do displayed formulas wider than the page, once MathJax
 *   has typeset them (the site loads MathJax without its menu, which gave every formula a tab stop).
 */
(function () {
  "use strict";
  ["primary-toggle", "secondary-toggle"].forEach(function (cls) {
    var all = Array.prototype.slice.call(document.querySelectorAll("." + cls));
    var outside = all.filter(function (b) { return !b.closest(".bd-header"); });
    if (outside.length) {
      all.filter(function (b) { return b.closest(".bd-header"); }).forEach(function (b) { b.remove(); });
    }
  });

  document.querySelectorAll("button[aria-label], summary[aria-label]").forEach(function (b) {
    if (b.textContent.trim()) b.removeAttribute("aria-label");
  });

  document.querySelectorAll(".citation-list[role=list]").forEach(function (list) {
    list.removeAttribute("role");
  });

  function keyboardScrollable() {
    document.querySelectorAll(".bd-article pre, .bd-article .table-wrapper, .bd-article .output, .bd-article .cell_output > div")
      .forEach(function (el) {
        if (el.hasAttribute("tabindex") || el.scrollWidth <= el.clientWidth + 1) return;
        el.setAttribute("tabindex", "0");
        if (!el.hasAttribute("role")) el.setAttribute("role", "region");
        if (!el.hasAttribute("aria-label")) el.setAttribute("aria-label", "scrollable content");
      });
  }
  function scrollableMath() {
    document.querySelectorAll('.bd-article mjx-container[display="true"]').forEach(function (el) {
      if (!el.hasAttribute("tabindex") && el.scrollWidth > el.clientWidth + 1) el.setAttribute("tabindex", "0");
    });
  }
  // MathJax may not have started yet (chapters with figures start it after the figures are drawn)
  var mj = window.MathJax;
  if (mj && mj.startup && mj.startup.promise) {
    mj.startup.promise.then(scrollableMath);
  } else if (mj) {
    mj.startup = mj.startup || {};
    mj.startup.pageReady = function () { return window.MathJax.startup.defaultPageReady().then(scrollableMath); };
  }
  if (document.readyState === "complete") keyboardScrollable();
  else window.addEventListener("load", keyboardScrollable);
})();
