// Who's winning (issue 37): draws the figure of templates/winning.html, asks for narrower
// ones while the server works them out, and the GM's what-if. Self-contained: it reads the
// block's own data and the JSON API only.
(function () {
  "use strict";
  var root = document.getElementById("tracker");
  if (!root) { return; }
  var api = "/api/encounters/" + root.dataset.eid + "/";

  function pct(p) { return (100 * p).toFixed(1) + "%"; }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // One figure: each side's chance (a bar, the figure, its 95 % interval), the rounds
  // still to begin, how it was worked out and who plays whom for it.
  function figureNodes(f, note) {
    var box = document.createDocumentFragment();
    var table = el("table", "winning-sides");
    Object.keys(f.sides).forEach(function (side) {
      var c = f.sides[side];
      var row = el("tr", "side");
      row.dataset.side = side;
      row.appendChild(el("th", "", side));
      var cell = el("td", "bar-cell");
      var bar = el("div", "bar");
      var fill = el("div", "fill");
      fill.style.width = Math.round(100 * c.p) + "%";
      bar.appendChild(fill);
      cell.appendChild(bar);
      row.appendChild(cell);
      row.appendChild(el("td", "chance", pct(c.p)));
      row.appendChild(el("td", "hint", f.exact ? "exact" : pct(c.ci95[0]) + " – " + pct(c.ci95[1])));
      table.appendChild(row);
    });
    if (f.no_winner.p >= 0.0005) {  // shown where it reads 0.1 % or more
      var none = el("tr", "side");
      none.appendChild(el("th", "", "no winner"));
      none.appendChild(el("td", ""));
      none.appendChild(el("td", "chance", pct(f.no_winner.p)));
      none.appendChild(el("td", "hint", f.exact ? "exact" : pct(f.no_winner.ci95[0]) + " – " + pct(f.no_winner.ci95[1])));
      table.appendChild(none);
    }
    box.appendChild(table);
    var r = f.rounds_left;
    box.appendChild(el("p", "rounds", "Rounds still to begin: " + r.mean.toFixed(1) +
      (f.exact ? "" : " (" + r.ci95[0].toFixed(1) + " – " + r.ci95[1].toFixed(1) + ")")));
    box.appendChild(el("p", "hint how", f.method_words + (note ? " · " + note : "")));
    box.appendChild(el("p", "hint who", "From " + f.where + ". Played by: " + f.played_by_words + "."));
    return box;
  }

  function draw(w) {
    var box = document.getElementById("winning-figure");
    if (!box || !w) { return; }
    box.textContent = "";
    if (!w.shown) { box.appendChild(el("p", "hint", w.why)); return; }
    if (!w.figure) { box.appendChild(el("p", "hint", "Working it out…")); return; }
    var note = !w.current ? "updating for the latest change…" : (w.final ? "" : "narrowing…");
    box.classList.toggle("stale", !w.current);
    box.appendChild(figureNodes(w.figure, note));
  }

  var latest = null;

  function fromBlock() {
    var block = document.getElementById("winning");
    if (!block) { return; }
    var w = JSON.parse(block.dataset.winning || "null");
    // the panel was drawn again: keep a newer figure than the one it was drawn with
    if (latest && w && w.figure && latest.figure && latest.version === w.version &&
        latest.figure.sample > w.figure.sample) { w = latest; }
    draw(w);
  }

  function winningPanel() {
    var block = document.getElementById("winning");
    if (!block) { return; }
    var w = JSON.parse(block.dataset.winning || "null");
    if (w && (!w.shown || (w.current && w.final))) { return; }
    fetch(api + "winning", {credentials: "same-origin"}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (data) {
      if (!data || !document.getElementById("winning")) { return; }
      latest = data;
      document.getElementById("winning").dataset.winning = JSON.stringify(data);
      draw(data);
    }).catch(function () { /* asked again at the next beat */ });
  }

  var panel = document.getElementById("panel");
  if (panel && window.MutationObserver) {
    new MutationObserver(function (changes) {
      if (changes.some(function (c) { return c.target === panel; })) { fromBlock(); }
    }).observe(panel, {childList: true});
  }
  fromBlock();
  setInterval(winningPanel, 1000);

  function whatIfBody(data) {
    var kind = data.get("kind");
    var who = data.get("combatant");
    if (kind === "leave") { return {leave: who}; }
    if (kind === "join") { return {join: JSON.parse(String(data.get("entry") || "{}"))}; }
    var raw = String(data.get("value") || "").trim();
    var values = {};
    values[who] = {};
    values[who][String(data.get("field") || "").trim()] = /^-?\d+$/.test(raw) ? parseInt(raw, 10) : raw;
    return {values: values};
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.dataset || !form.dataset.winningForm) { return; }
    ev.preventDefault();
    ev.stopPropagation();
    var out = document.getElementById("what-if-figure");
    var body;
    try { body = whatIfBody(new FormData(form)); } catch (e) {
      out.textContent = "";
      out.appendChild(el("p", "error", "the entry is not JSON: " + e.message));
      return;
    }
    out.textContent = "";
    out.appendChild(el("p", "hint", "Working it out…"));
    fetch(api + "what-if", {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (data) {
        out.textContent = "";
        if (!r.ok) { out.appendChild(el("p", "error", data.error || ("error " + r.status))); return; }
        out.appendChild(figureNodes(data, ""));
      });
    }).catch(function (err) { out.textContent = err.message; });
  }, true);

  document.addEventListener("change", function (ev) {
    var box = ev.target;
    if (box.id !== "winning-players") { return; }
    fetch(api + "winning", {
      method: "PUT", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({players: box.checked})
    });
  });
}());
