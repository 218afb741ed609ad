// sbekit doc: search over window.SBEKIT_INDEX (from search-index.js), no server needed.
"use strict";
(function () {
  const input = document.getElementById("search");
  const out = document.getElementById("search-results");
  if (!input || !out) return;
  const items = window.SBEKIT_INDEX || [];
  function show(query) {
    out.textContent = "";
    const q = query.trim().toLowerCase();
    if (q.length === 0) return;
    const hits = items.filter(function (it) {
      return it.n.toLowerCase().includes(q) || it.k.toLowerCase().includes(q) ||
        it.d.toLowerCase().includes(q);
    });
    // Names that start with the query first, then the rest in index order.
    hits.sort(function (a, b) {
      return (b.n.toLowerCase().startsWith(q) ? 1 : 0) - (a.n.toLowerCase().startsWith(q) ? 1 : 0);
    });
    for (const it of hits.slice(0, 30)) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = it.h;
      a.textContent = it.n;
      const k = document.createElement("span");
      k.className = "kind";
      k.textContent = it.k;
      li.appendChild(a);
      li.appendChild(k);
      out.appendChild(li);
    }
    if (hits.length === 0) {
      const li = document.createElement("li");
      li.textContent = "No match.";
      out.appendChild(li);
    }
  }
  input.addEventListener("input", function () { show(input.value); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== input) { e.preventDefault(); input.focus(); }
    if (e.key === "Escape") { input.value = ""; show(""); }
  });
})();
