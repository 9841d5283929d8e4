/* memgit site: line anchors (#L12, #L10-L14) and the offline search page.
   No inline script anywhere: this file is loaded by every page under default-src 'self'. */
(function () {
  "use strict";

  function highlight() {
    var old = document.querySelectorAll(".line.hl");
    for (var i = 0; i < old.length; i++) old[i].classList.remove("hl");
    var m = /^#L(\d+)(?:-L(\d+))?$/.exec(window.location.hash);
    if (!m) return;
    var start = parseInt(m[1], 10), end = m[2] ? parseInt(m[2], 10) : start;
    if (end < start) { var t = start; start = end; end = t; }
    var first = null;
    for (var n = start; n <= end; n++) {
      var el = document.getElementById("L" + n);
      if (!el) continue;
      el.classList.add("hl");
      if (!first) first = el;
    }
    if (first) first.scrollIntoView({ block: "center" });
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function snippet(text, terms) {
    var lower = text.toLowerCase(), at = -1;
    for (var i = 0; i < terms.length && at < 0; i++) at = lower.indexOf(terms[i].toLowerCase());
    var from = Math.max(0, at - 80);
    return (from > 0 ? "…" : "") + text.slice(from, from + 240) + (text.length > from + 240 ? "…" : "");
  }

  function setupSearch() {
    var form = document.getElementById("search-form");
    if (!form || typeof MiniSearch === "undefined") return;
    var input = document.getElementById("search-input");
    var status = document.getElementById("search-status");
    var list = document.getElementById("search-results");
    var docs = [], shards = window.memgitSearch || [];
    for (var s = 0; s < shards.length; s++) {
      for (var d = 0; d < shards[s].length; d++) {
        var r = shards[s][d];
        docs.push({ id: docs.length, url: r[0], path: r[1], start: r[2], end: r[3], text: r[4] });
      }
    }
    var index = new MiniSearch({ fields: ["text", "path"], storeFields: ["url", "path", "start", "end", "text"] });

    function run(query) {
      list.textContent = "";
      if (!query.trim()) { status.textContent = docs.length + " chunks indexed."; return; }
      var hits = index.search(query, { prefix: true, fuzzy: 0.1, boost: { path: 0.5 }, combineWith: "AND" });
      if (!hits.length) hits = index.search(query, { prefix: true, fuzzy: 0.2 });
      status.textContent = hits.length + " result" + (hits.length === 1 ? "" : "s") + " for “" + query + "”";
      hits.slice(0, 50).forEach(function (hit) {
        var li = el("li", "result");
        var a = el("a", "result-link", hit.path + ":" + hit.start + "-" + hit.end);
        a.setAttribute("href", hit.url);
        li.appendChild(a);
        li.appendChild(el("p", "snippet", snippet(hit.text, hit.terms || [])));
        list.appendChild(li);
      });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var q = input.value;
      try { history.replaceState(null, "", "?q=" + encodeURIComponent(q)); } catch (e) { /* file:// may refuse */ }
      if (document.body.hasAttribute("data-search-ready")) run(q);
    });
    var params = new URLSearchParams(window.location.search);
    if (params.get("q")) input.value = params.get("q");
    // A large memory takes seconds to index: build it in slices so the page stays responsive.
    status.textContent = "Preparing the search index (" + docs.length + " chunks)…";
    index.addAllAsync(docs, { chunkSize: 500 }).then(function () {
      run(input.value);
      document.body.setAttribute("data-search-ready", "1");
    });
  }

  window.addEventListener("hashchange", highlight);
  document.addEventListener("DOMContentLoaded", function () {
    highlight();
    setupSearch();
  });
})();
