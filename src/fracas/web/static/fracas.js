// fracas tracker: follow the live channel, swap in the panel, post decisions to the API.
(function () {
  "use strict";
  var root = document.getElementById("tracker");
  if (!root) { return; }
  var eid = root.dataset.eid;
  var version = parseInt(root.dataset.version, 10);
  var panel = document.getElementById("panel");
  var errorBox = document.getElementById("error");
  var api = "/api/encounters/" + eid + "/";

  function showError(text) {
    errorBox.textContent = text || "";
    errorBox.hidden = !text;
  }

  function toNewest() {
    var log = panel.querySelector("ol.log");
    if (log) { log.scrollTop = log.scrollHeight; }
  }
  toNewest();

  // Swap in the panel only when it is newer (or when forced): a panel replaced under the
  // reader's finger would lose the button they are pressing.
  function refresh(force) {
    return fetch("/e/" + eid + "/panel", {credentials: "same-origin"}).then(function (r) {
      if (!r.ok) { throw new Error("could not load the encounter (" + r.status + ")"); }
      return r.text();
    }).then(function (html) {
      var box = document.createElement("div");
      box.innerHTML = html;
      var fresh = box.querySelector(".panel");
      var v = parseInt(fresh.dataset.version, 10);
      if (v > version || (force && v >= version)) {
        version = v;
        root.dataset.version = String(v);
        panel.innerHTML = html;
        toNewest();
      }
    }).catch(function (err) { showError(err.message); });
  }

  function send(path, body, method) {
    body.version = version;
    showError("");
    return fetch(api + path, {
      method: method || "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (data) {
        if (!r.ok) { showError(data.error || ("error " + r.status)); }
        return refresh();
      });
    }).catch(function (err) { showError(err.message); });
  }

  document.addEventListener("click", function (ev) {
    var el = ev.target.closest("[data-answer], [data-post]");
    if (!el) { return; }
    ev.preventDefault();
    if (el.dataset.answer) {
      send("decisions", {answer: JSON.parse(el.dataset.answer)});
    } else {
      send(el.dataset.post, el.dataset.post === "end" ? {} : {steps: 1});
    }
  });

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    ev.preventDefault();
    var data = new FormData(form);
    if (form.dataset.dice) {
      var values = String(data.get("dice") || "").split(/[\s,]+/).filter(Boolean).map(function (x) {
        return /^-?\d+$/.test(x) ? parseInt(x, 10) : x;
      });
      send("decisions", {answer: {dice: values}});
    } else if (form.dataset.form === "settings") {
      fetch(api + "settings", {
        method: "PUT", credentials: "same-origin", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({others: data.get("others"), hidden: data.getAll("hidden")})
      }).then(function (r) { return r.json().then(function (d) {
        if (!r.ok) { showError(d.error); } return refresh(); }); });
    } else if (form.dataset.form === "players") {
      fetch(api + "players", {
        method: "POST", credentials: "same-origin", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({name: data.get("name"), combatants: data.getAll("combatants")})
      }).then(function (r) { return r.json().then(function (d) {
        if (!r.ok) { showError(d.error); } return refresh(true); }); });
    } else if (form.dataset.form === "combatants") {
      send("combatants", {entry_yaml: String(data.get("entry") || "")});
    } else if (form.dataset.form === "adjust") {
      var raw = String(data.get("value"));
      var value = /^-?\d+$/.test(raw) ? parseInt(raw, 10) : raw === "true" ? true
        : raw === "false" ? false : raw;
      send("adjust", {combatant: data.get("combatant"), field: data.get("field"), value: value});
    }
  });

  function listen() {
    var source = new EventSource(api + "stream");
    source.addEventListener("version", function (ev) {
      var v = JSON.parse(ev.data).version;
      if (v > version) { refresh(); }
    });
    source.onerror = function () {
      source.close();
      setTimeout(function () { refresh(); listen(); }, 1000);
    };
  }
  listen();
}());
