/* memgit site: line anchors (#L12, #L10-L14 highlight the blocks holding those lines) and search
   from every page. The index is built when the site is built (assets/search/*.js) and loaded only
   when someone searches. No inline script anywhere: every page loads this file under default-src 'self'. */
(function () {
  "use strict";
  var root = document.body ? document.body.getAttribute("data-root") || "" : "";

  function highlight() {
    var old = document.querySelectorAll(".hl");
    for (var i = 0; i < old.length; i++) old[i].classList.remove("hl");
    var m = /^#L(\d+)(?:-L(\d+))?$/.exec(window.location.hash);
    if (!m) return;
    var start = +m[1], end = m[2] ? +m[2] : start;
    if (end < start) { var t = start; start = end; end = t; }
    var first = null;
    for (var n = start; n <= end && n < start + 5000; n++) {
      var el = document.getElementById("L" + n);
      if (!el) continue;
      var block = el.closest(".blk, .source > div") || el;
      block.classList.add("hl");
      if (!first) first = block;
    }
    if (first) first.scrollIntoView({ block: "center" });
  }

  // ---------------------------------------------------------------- search
  var index = null, waiting = [];
  function load(done) {
    if (index) return done(index);
    waiting.push(done);
    if (waiting.length > 1) return;
    var s = document.createElement("script");
    s.src = root + "assets/search/meta.js";
    s.onload = function () {
      var meta = window.memgitSearchMeta, left = meta.shards.length;
      meta.shards.forEach(function (url) {
        var t = document.createElement("script");
        t.src = root + url;
        t.onload = t.onerror = function () { if (--left === 0) ready(meta); };
        document.head.appendChild(t);
      });
    };
    document.head.appendChild(s);
  }
  function ready(meta) {
    var shards = window.memgitSearch || [], docs = 0, words = 0, stop = {};
    meta.stop.forEach(function (w) { stop[w] = 1; });
    shards.forEach(function (sh) {
      docs += sh.len.length;
      for (var i = 0; i < sh.len.length; i++) words += sh.len[i];
      // a chunk as [url, path, start, kind, date, heading, end, file]; its lines come from the file
      sh.docs = sh.docs.map(function (d) { var f = sh.files[d[0]]; return [f[0], f[1], d[1], f[2], f[3], d[3], d[2], f]; });
    });
    index = { shards: shards, n: docs, avg: words / Math.max(1, docs), stop: stop };
    var w = waiting; waiting = [];
    w.forEach(function (f) { f(index); });
  }
  function tokens(text) { return (text.normalize("NFC").toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []); }
  // The shard's words are sorted: binary search finds a word, or the first word a prefix starts.
  function lower(keys, word) {
    var lo = 0, hi = keys.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (keys[mid] < word) lo = mid + 1; else hi = mid; }
    return lo;
  }
  function postings(sh, term) { var i = lower(sh.keys, term); return sh.keys[i] === term ? sh.post[i] : null; }
  // Postings are packed (search_index.packed): a doc is the gap from the previous one, each 0
  // after it one more occurrence.
  function eachDoc(post, f) {
    var d = post[0], tf = 1;
    for (var i = 1; i < post.length; i++) {
      if (post[i] === 0) { tf++; continue; }
      f(d, tf); d += post[i]; tf = 1;
    }
    f(d, tf);
  }
  function docCount(post) { var n = 1; for (var i = 1; i < post.length; i++) if (post[i] !== 0) n++; return n; }
  function expand(sh, word, prefix) {
    var keys = sh.keys, i = lower(keys, word), out = [];
    if (!prefix) return keys[i] === word ? [word] : [];
    for (; i < keys.length && keys[i].lastIndexOf(word, 0) === 0 && out.length < 50; i++) out.push(keys[i]);
    return out;
  }
  // One typo: a, b differ by one letter changed, added, dropped, or two neighbours swapped
  // (Damerau-Levenshtein distance 1). It also folds most British and American spellings
  // (materialise/materialize, colour/color, centre/center).
  function near(a, b) {
    var la = a.length, lb = b.length, i = 0;
    if (a === b || la - lb > 1 || lb - la > 1) return false;
    while (i < la && i < lb && a.charCodeAt(i) === b.charCodeAt(i)) i++;
    if (la === lb) {
      if (a.slice(i + 1) === b.slice(i + 1)) return true;
      return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
    }
    return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
  }
  var FUZZY_MIN = 4, FUZZY_WEIGHT = 0.5;
  function fuzzy(sh, word) {
    var out = [];
    if (word.length < FUZZY_MIN) return out;
    for (var i = 0; i < sh.keys.length && out.length < 20; i++) if (near(word, sh.keys[i])) out.push(sh.keys[i]);
    return out;
  }
  // BM25 over every shard; a chunk must hold all the words (the last one may be a prefix), else
  // any of them, and the result says so. Dream reports rank below notes and logs.
  function search(ix, query, kind) {
    var all = tokens(query), words = all.filter(function (w) { return !ix.stop[w]; });
    if (!words.length) words = all;
    if (!words.length) return { hits: [], words: [] };
    var open = !/\s$/.test(query), run = function (mode) {
      var hits = [];
      ix.shards.forEach(function (sh) {
        var scores = {}, found = {};
        words.forEach(function (w, wi) {
          var terms = expand(sh, w, open && wi === words.length - 1 && w.length > 1), exact = terms.length;
          terms = terms.concat(fuzzy(sh, w).filter(function (t) { return terms.indexOf(t) < 0; }));
          terms.forEach(function (term, ti) {
            var post = postings(sh, term), df = 0, weight = ti < exact ? 1 : FUZZY_WEIGHT;
            ix.shards.forEach(function (o) { var p = postings(o, term); if (p) df += docCount(p); });
            var idf = Math.log(1 + (ix.n - df + 0.5) / (df + 0.5));
            eachDoc(post, function (d, tf) {
              var len = sh.len[d];
              scores[d] = (scores[d] || 0) + weight * idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len / ix.avg));
              (found[d] = found[d] || {})[wi] = 1;
              (found[d].terms = found[d].terms || {})[term] = 1;
            });
          });
        });
        Object.keys(scores).forEach(function (d) {
          var doc = sh.docs[d], f = found[d];
          if (mode === "and" && Object.keys(f).length - 1 < words.length) return;
          if (kind && kind !== "all" && doc[3] !== kind) return;
          hits.push({ doc: doc, score: scores[d], terms: Object.keys(f.terms) });
        });
      });
      hits.sort(function (a, b) { return ((a.doc[3] === "dream") - (b.doc[3] === "dream")) || (b.score - a.score) || (a.doc[1] < b.doc[1] ? -1 : 1); });
      return hits;
    };
    var hits = run("and"), any = false;
    if (!hits.length && words.length > 1) { hits = run("or"); any = hits.length > 0; }
    return { hits: hits, any: any, words: words, shown: [], dups: 0, exact: true };
  }
  function matches(line, terms) {
    var ws = tokens(line);
    for (var i = 0; i < ws.length; i++) if (terms.indexOf(ws[i]) >= 0) return true;
    return false;
  }
  function marked(parent, text, terms) {
    var re = /[\p{L}\p{N}_]+/gu, at = 0, m;
    while ((m = re.exec(text))) {
      if (terms.indexOf(m[0].normalize("NFC").toLowerCase()) < 0) continue;
      parent.appendChild(document.createTextNode(text.slice(at, m.index)));
      var k = document.createElement("mark"); k.textContent = m[0]; parent.appendChild(k);
      at = m.index + m[0].length;
    }
    parent.appendChild(document.createTextNode(text.slice(at)));
  }
  // Where a hit lands: the first run of lines holding a matched word (not the whole chunk).
  function chunkLines(doc) {
    var f = doc[7];
    if (!f.lines) f.lines = f[5].split("\n");
    return f.lines.slice(doc[2] - f[4], doc[6] - f[4] + 1);
  }
  function place(hit) {
    var lines = chunkLines(hit.doc), first = -1, last = -1;
    for (var i = 0; i < lines.length; i++) if (matches(lines[i], hit.terms)) { if (first < 0) first = last = i; else if (i === last + 1) last = i; else break; }
    if (first < 0) { first = 0; while (first < lines.length - 1 && !lines[first].trim()) first++; last = first; }
    hit.lines = lines; hit.first = first; hit.last = last;
    return hit.doc[1] + ":" + (hit.doc[2] + first);
  }
  // Overlapping chunks find the same line twice: the better one stays. Only as many hits as are
  // shown are placed (a common word matches thousands), so a long list's count is "about".
  function unique(result, limit) {
    var seen = {}, out = [], dups = 0, i = 0, hits = result.hits;
    for (; i < hits.length && out.length < limit; i++) { var k = place(hits[i]); if (seen[k]) dups++; else { seen[k] = 1; out.push(hits[i]); } }
    result.exact = i >= hits.length;
    result.count = hits.length - dups;
    return out;
  }
  function render(list, status, result, query, limit) {
    list.textContent = "";
    var shown = unique(result, limit), n = result.count;
    status.textContent = !query.trim() ? "" : (n ? (result.exact ? "" : "about ") + n + " result" + (n === 1 ? "" : "s") : "No results") + " for “" + query.trim() + "”" +
      (result.any ? ". No chunk holds all the words; showing chunks with any of them." : ".");
    shown.forEach(function (hit) {
      var doc = hit.doc, lines = hit.lines, first = hit.first, last = hit.last;
      var a0 = doc[2] + first, a1 = doc[2] + last;
      var li = document.createElement("li"); li.className = "result";
      var a = document.createElement("a");
      a.href = root + doc[0] + "#L" + a0 + (a1 > a0 ? "-L" + a1 : "");
      a.textContent = (doc[5] || doc[1]);
      var where = document.createElement("span"); where.className = "where";
      where.textContent = doc[1] + ":" + a0 + (doc[4] ? " · " + doc[4] : "") + (doc[3] === "dream" ? " · dream report" : "");
      var p = document.createElement("p"); p.className = "snippet";
      var text = lines.slice(first, Math.min(last + 1, first + 3)).join(" ").trim();
      if (text.length > 220) { var at = Math.max(0, text.toLowerCase().indexOf(hit.terms[0]) - 60); text = (at ? "…" : "") + text.slice(at, at + 220) + "…"; }
      marked(p, text, hit.terms);
      li.appendChild(a); li.appendChild(where); li.appendChild(p); list.appendChild(li);
    });
    return n;
  }

  function setupHeader() {
    var input = document.getElementById("hq"), panel = document.getElementById("hpanel");
    if (!input || !panel) return;
    var list = document.getElementById("hresults"), status = document.getElementById("hstatus"), timer = 0;
    function go() {
      var q = input.value;
      if (!q.trim()) { panel.hidden = true; return; }
      load(function (ix) {
        if (input.value !== q) return;
        var r = search(ix, q, "all");
        render(list, status, r, q, 8);
        if (r.count > 8) {
          var li = document.createElement("li"), a = document.createElement("a");
          li.className = "more"; a.href = root + "search.html?q=" + encodeURIComponent(q.trim());
          a.textContent = "All results"; li.appendChild(a); list.appendChild(li);
        }
        panel.hidden = false;
        document.body.setAttribute("data-search-ready", "1");
      });
    }
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(go, 60); });
    input.addEventListener("focus", function () { load(function () {}); if (input.value.trim()) go(); });
    document.addEventListener("keydown", function (e) {
      var t = e.target, typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
      if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) { e.preventDefault(); input.focus(); input.select(); }
      else if (e.key === "Escape" && !panel.hidden) { panel.hidden = true; input.focus(); }
    });
    document.addEventListener("click", function (e) { if (!panel.contains(e.target) && e.target !== input) panel.hidden = true; });
    // Arrow keys walk from the box through the results and back.
    function step(e) {
      if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
      var links = Array.prototype.slice.call(list.querySelectorAll("a")), at = links.indexOf(document.activeElement);
      if (!links.length || panel.hidden) return;
      e.preventDefault();
      var next = e.key === "ArrowDown" ? at + 1 : at - 1;
      if (next < 0) input.focus(); else links[Math.min(next, links.length - 1)].focus();
    }
    input.addEventListener("keydown", step);
    list.addEventListener("keydown", step);
  }

  function setupPage() {
    var form = document.getElementById("search-form");
    if (!form) return;
    var input = document.getElementById("search-input"), list = document.getElementById("search-results");
    var status = document.getElementById("search-status"), timer = 0;
    function kind() { var c = form.querySelector("input[name=kind]:checked"); return c ? c.value : "all"; }
    function go() {
      var q = input.value, k = kind();
      try { history.replaceState(null, "", "?q=" + encodeURIComponent(q) + (k !== "all" ? "&kind=" + k : "")); } catch (e) { /* file:// may refuse */ }
      load(function (ix) {
        if (input.value !== q) return;
        render(list, status, search(ix, q, k), q, 100);
        document.body.setAttribute("data-search-ready", "1");
      });
    }
    form.addEventListener("submit", function (e) { e.preventDefault(); go(); });
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(go, 60); });
    form.addEventListener("change", function (e) { if (e.target.name === "kind") go(); });
    var params = new URLSearchParams(window.location.search);
    var k = params.get("kind"), box = k && form.querySelector("input[name=kind][value=" + k.replace(/\W/g, "") + "]");
    if (box) box.checked = true;
    if (params.get("q")) input.value = params.get("q");
    var h = document.getElementById("hq"); if (h && params.get("q")) h.value = "";
    load(function () { if (input.value.trim()) go(); document.body.setAttribute("data-search-ready", "1"); });
  }

  window.addEventListener("hashchange", highlight);
  document.addEventListener("DOMContentLoaded", function () {
    highlight();
    setupHeader();
    setupPage();
    document.addEventListener("click", function (e) {
      // A source line's number is drawn by the stylesheet (::before): a click left of its text sets #Ln.
      var row = e.target;
      if (!row.parentNode || !row.parentNode.classList || !row.parentNode.classList.contains("source") || !row.id) return;
      var gutter = parseFloat(getComputedStyle(row, "::before").width) || 0;
      if (e.clientX - row.getBoundingClientRect().left <= gutter) location.hash = "#" + row.id;
    });
  });
})();
