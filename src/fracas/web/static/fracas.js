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

  var noticeBox = document.getElementById("notice");

  function showError(text) {
    errorBox.textContent = text || "";
    errorBox.hidden = !text;
  }

  function showNotice(text) {
    noticeBox.textContent = text || "";
    noticeBox.hidden = !text;
  }

  // A refused roll is told in one line beside the dice box (the whole message on hover),
  // not above the page where it would push the box out of sight; the next try clears it.
  function showDiceError(text) {
    var box = document.getElementById("dice-error");
    if (!box) { return false; }
    // what was wrong first: the roll's name is the prompt just above the box
    var prompt = asked();
    text = String(text || "").replace(/^dice: /, "");
    if (prompt && text.indexOf(prompt + ": ") === 0) { text = text.slice(prompt.length + 2); }
    box.textContent = text || "";
    box.title = text || "";
    box.hidden = !text;
    return true;
  }

  // The whole log, or only its last lines (a phone): kept while the panel is redrawn.
  var logOpen = false;
  function applyLog() {
    var log = document.getElementById("log");
    if (log) { log.classList.toggle("log-open", logOpen); }
    var toggle = document.getElementById("log-toggle");
    if (toggle) {
      toggle.dataset.label = toggle.dataset.label || toggle.textContent;
      toggle.textContent = logOpen ? "Last lines only" : toggle.dataset.label;
    }
  }

  // Connection lost and regained: said once each, then gone (no stale error left behind).
  // Lost is the server out of reach, or its database (a 503: the table's own message,
  // and the page asks again after the Retry-After it gave); regained is the next view
  // that loads.
  var connectionBox = document.getElementById("connection");
  var lost = false;
  var backTimer = null;
  var retryTimer = null;
  // What is said stays until the connection is back, unless it is the
  // answer to something the reader did (a change not saved).
  function connectionLost(text, mine) {
    if ((lost && !mine) || !connectionBox) { return; }
    lost = true;
    clearTimeout(backTimer);
    connectionBox.className = "lost";
    connectionBox.textContent = text || "Connection lost — trying again…";
    connectionBox.hidden = false;
  }
  function connectionBack() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (!lost || !connectionBox) { return; }
    lost = false;
    showError("");
    connectionBox.className = "back";
    connectionBox.textContent = "Connected again.";
    backTimer = setTimeout(function () { connectionBox.hidden = true; }, 2500);
  }
  // The database full, gone or restarting (503): its message, and a new try later.
  function unavailable(text, seconds, mine) {
    connectionLost(text, mine);
    if (retryTimer === null) {
      retryTimer = setTimeout(function () { retryTimer = null; refresh(); },
                              1000 * Math.max(1, seconds || 2));
    }
  }
  function retryAfter(r) { return parseInt(r.headers.get("Retry-After"), 10); }

  // A GM's hand edit goes into the log before the turn under way, out of sight at the
  // log's end: what it did is told here.
  var EDITS = {harm: true, conditions: true, adjust: true, order: true, hold: true};

  function toNewest() {
    var log = panel.querySelector("ol.log");
    if (log) { log.scrollTop = log.scrollHeight; }
  }
  toNewest();

  // Swap in the panel only when it is newer (or when forced): a panel replaced under the
  // reader's finger would lose the button they are pressing.
  // The steps of an action being composed (web.compose): the server draws the step this
  // draft is at; a new version of the encounter starts from no steps again.
  var draft = "";

  // A press under way on the panel (a finger or a mouse button down): the panel is not
  // swapped until the click it makes has been handled. Swapped between the press and the
  // release, the click would fall between the old button and its copy and be lost (the
  // odds filling in redraw the panel while the reader's finger is on an option). The
  // swap put off is made then; a panel the same as the one shown is not swapped at all.
  var pressing = false;
  var presses = 0;  // a release ends only the press it belongs to
  var putOff = null;
  var shown = null;
  function releasedLater(ms) {
    var press = presses;
    setTimeout(function () {
      if (press !== presses || !pressing) { return; }
      pressing = false;
      if (putOff) { var again = putOff; putOff = null; again(); }
    }, ms);
  }
  // a press ends after its click has been handled; a release with no click after it (a
  // finger that scrolled instead) ends it a little later; one never released where this
  // page hears it (let go outside the window) ends after 10 s
  panel.addEventListener("pointerdown", function () {
    presses += 1;
    pressing = true;
    releasedLater(10000);
  }, true);
  document.addEventListener("click", function () { releasedLater(0); }, true);
  document.addEventListener("pointercancel", function () { releasedLater(0); }, true);
  document.addEventListener("pointerup", function () { releasedLater(500); }, true);

  // Someone typing in a form or with a section opened: the odds wait, the form stays.
  function busy() {
    var el = document.activeElement;
    return !!(panel.querySelector("details[open]") || (el && panel.contains(el) &&
      /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName)));
  }

  // What the GM has chosen or typed in the tools' forms survives a redraw of the panel
  // (another screen's answer, the odds coming in): the combatant picked in Edit, a
  // condition half typed. A form just sent keeps only its choices of combatant.
  // The dice typed are kept while the same roll is asked.
  var KEPT = ["adjust", "condition", "free-action", "invite", "add-combatant", "dice-form"];

  function asked() {
    var prompt = document.getElementById("prompt");
    return prompt ? prompt.textContent : "";
  }
  var sent = null;

  function typed() {
    var out = {fields: [], focus: null, prompt: asked()};
    KEPT.forEach(function (id) {
      var form = document.getElementById(id);
      if (!form) { return; }
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || el.type === "submit" || el.type === "button") { return; }
        if (id === sent && el.tagName !== "SELECT") { return; }
        var key = [id, el.name, el.type === "checkbox" ? el.value : ""];
        out.fields.push([key, el.type === "checkbox" ? el.checked : el.value]);
        if (el === document.activeElement) { out.focus = key; }
      });
    });
    if (sent !== "free-action" && document.getElementById("free") &&
        document.getElementById("free").open) {
      out.freeOpen = true;
    }
    sent = null;
    return out;
  }

  function retype(kept) {
    function find(key) {
      var form = document.getElementById(key[0]);
      if (!form) { return null; }
      return Array.prototype.find.call(form.elements, function (el) {
        return el.name === key[1] && (key[2] === "" || el.value === key[2]);
      }) || null;
    }
    kept.fields.forEach(function (pair) {
      if (pair[0][0] === "dice-form" && asked() !== kept.prompt) { return; }
      var el = find(pair[0]);
      if (!el) { return; }
      if (el.type === "checkbox") { el.checked = pair[1]; }
      else if (el.tagName !== "SELECT" || Array.prototype.some.call(el.options, function (o) {
        return o.value === pair[1]; })) { el.value = pair[1]; }
    });
    if (kept.freeOpen && document.getElementById("free")) {
      document.getElementById("free").open = true;
    }
    var focused = kept.focus && (kept.focus[0] !== "dice-form" || asked() === kept.prompt) &&
      find(kept.focus);
    if (focused) { focused.focus(); }
  }

  function refresh(force, soft) {
    // the draft this panel is asked for: a step taken (or the draft dropped) while it was
    // on its way makes it stale, and it is not shown (an odds poll sent just before a
    // step's click, answered after it, would otherwise undo the step)
    var drawn = draft;
    var url = "/e/" + eid + "/panel" + (drawn ? "?draft=" + encodeURIComponent(drawn) : "");
    return fetch(url, {credentials: "same-origin"}).then(function (r) {
      if (r.status === 503) {
        return r.text().then(function (page) {
          var box = document.createElement("div");
          box.innerHTML = page;
          var told = box.querySelector("#message");
          unavailable(told ? told.textContent : "", retryAfter(r));
          return null;
        });
      }
      if (!r.ok) { throw new Error("could not load the encounter (" + r.status + ")"); }
      connectionBack();
      return r.text();
    }).then(function (html) {
      if (html === null || drawn !== draft) { return; }
      var box = document.createElement("div");
      box.innerHTML = html;
      var fresh = box.querySelector(".panel");
      var v = parseInt(fresh.dataset.version, 10);
      if (soft && v === version && busy()) {
        setTimeout(function () { refresh(true, true); }, 1000);
        return;
      }
      if ((v > version || (force && v >= version)) && pressing) {
        putOff = function () { refresh(true, soft); };
        return;
      }
      if (v > version || (force && v >= version && html !== shown)) {
        version = v;
        root.dataset.version = String(v);
        var kept = typed();
        panel.innerHTML = html;
        shown = html;
        retype(kept);
        applyLog();
        toNewest();
      }
      // the choice came before its odds: ask again shortly, the odds fill in
      if (v === version && fresh.dataset.oddsPending) {
        setTimeout(function () { refresh(true, true); }, 300);
      }
    }).catch(function (err) {
      if (err instanceof TypeError) { connectionLost(); } else { showError(err.message); }
    });
  }

  function send(path, body, method) {
    body.version = version;
    draft = "";
    showError("");
    showNotice("");
    showDiceError("");
    var dice = !!(body.answer && body.answer.dice);
    return fetch(api + path, {
      method: method || "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (data) {
        if (r.status === 503) {
          // not saved (the database away): said where the connection's state is told
          unavailable(data.error, retryAfter(r), true);
          return null;
        }
        if (r.status === 409) {
          // sent for an older version: the panel is brought up to date just below
          showError("Someone acted first: the table has moved on" +
            (data.moved_on ? " to " + data.moved_on : "") +
            " — here it is as it stands now; choose again.");
        } else if (!r.ok) {
          var message = data.error || ("error " + r.status);
          if (!(dice && showDiceError(message))) { showError(message); }
        }
        else if (EDITS[path] && data.new_events && data.new_events.length) {
          showNotice("Done: " + data.new_events.map(function (e) { return e.text; }).join("; "));
        }
        return refresh();
      });
    }).catch(function (err) {
      if (err instanceof TypeError) { connectionLost(); } else { showError(err.message); }
    });
  }

  function copy(el) {
    // the invite link is never shown: it goes to the clipboard only
    var text = el.dataset.copy;
    var done = function () { el.textContent = "Copied"; setTimeout(function () {
      el.textContent = "Copy invite link"; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { showError("could not copy"); });
      return;
    }
    var box = document.createElement("textarea");
    box.value = text;
    box.style.position = "fixed"; box.style.opacity = "0";
    document.body.appendChild(box);
    box.select();
    try { document.execCommand("copy"); done(); } catch (e) { showError("could not copy"); }
    document.body.removeChild(box);
  }

  document.addEventListener("click", function (ev) {
    var toggle = ev.target.closest("[data-log-toggle]");
    if (toggle) {
      logOpen = !logOpen;
      applyLog();
      return;
    }
    var el = ev.target.closest("[data-answer], [data-post], [data-gm], [data-policy], [data-copy], [data-draft], [data-move]");
    if (!el) { return; }
    ev.preventDefault();
    if (el.dataset.draft) {
      draft = el.dataset.draft;
      refresh(true);
    } else if (el.dataset.copy) {
      copy(el);
    } else if (el.dataset.answer) {
      send("decisions", {answer: JSON.parse(el.dataset.answer)});
    } else if (el.dataset.policy) {
      var policy = document.getElementById("policy").value;
      if (el.dataset.policy === "turn") {
        send("decisions", {answer: {policy: policy}});
      } else {
        send("controllers", {combatant: el.dataset.who, controller: policy});
      }
    } else if (el.dataset.move) {
      send("order", {combatant: el.dataset.move, where: el.dataset.where,
                     other: el.dataset.other});
    } else if (el.dataset.gm) {
      send(el.dataset.gm, {});
    } else {
      send(el.dataset.post, el.dataset.post === "end" ? {} : {steps: 1});
    }
  });

  document.addEventListener("change", function (ev) {
    var el = ev.target;
    if (el.dataset && el.dataset.controller) {
      send("controllers", {combatant: el.dataset.controller, controller: el.value});
    } else if (el.dataset && el.dataset.dice !== undefined) {
      // who rolls a combatant's dice (data-dice empty: every combatant the GM runs)
      send("dice", el.dataset.dice ? {combatant: el.dataset.dice, roller: el.value}
                                   : {roller: el.value});
    }
  });

  function whole(value) {
    var text = String(value || "").trim();
    return text === "" ? null : parseInt(text, 10);
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    ev.preventDefault();
    sent = form.id || null;
    var data = new FormData(form, ev.submitter);
    if (form.dataset.harm) {
      var amount = whole(data.get("amount")) || 0;
      var body = {combatant: form.dataset.harm};
      body[data.get("kind") === "heal" ? "heal" : "damage"] = amount;
      send("harm", body);
    } else if (form.dataset.free) {
      var effects = [];
      var to = data.get("to");
      if (whole(data.get("damage"))) { effects.push({damage: whole(data.get("damage")), to: to}); }
      if (whole(data.get("heal"))) { effects.push({heal: whole(data.get("heal")), to: to}); }
      if (String(data.get("condition") || "").trim()) {
        effects.push({condition: String(data.get("condition")).trim(), to: to,
                      rounds: whole(data.get("rounds")) || 0});
      }
      var roll = String(data.get("roll") || "").trim();
      send("free-action", {description: String(data.get("description") || ""),
                           roll: roll || null, value: roll ? whole(data.get("value")) : null,
                           target: roll ? whole(data.get("target")) : null,
                           needs: data.get("needs") || "at least",
                           hidden: !!(roll && data.get("hidden")), effects: effects});
    } else if (form.dataset.form === "condition") {
      send("conditions", {combatant: data.get("combatant"), condition: data.get("condition"),
                          rounds: whole(data.get("rounds")) || 0, clear: !!data.get("clear")});
    } else if (form.dataset.form === "join") {
      send("join", {entry_yaml: String(data.get("entry") || ""), place: data.get("place")});
    } else if (form.dataset.dice) {
      var values = String(data.get("dice") || "").split(/[\s,]+/).filter(Boolean).map(function (x) {
        // 00 stays as typed: percentile dice show 100 so, and the die reads it
        return /^-?\d+$/.test(x) && x !== "00" ? parseInt(x, 10) : x;
      });
      send("decisions", {answer: {dice: values}});
    } else if (form.dataset.form === "settings") {
      fetch(api + "settings", {
        method: "PUT", credentials: "same-origin", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({others: data.get("others"), allies: data.get("allies"),
                              hidden: data.getAll("hidden"), past: data.getAll("past"),
                              hide_odds: !!data.get("hide_odds")})
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

  // The live channel: a version newer than the page's brings the panel up to date. Cut
  // (the server or its database restarting, a 503 when it connects), it is opened again
  // by the page itself, sooner at first and then every few seconds, and the panel is
  // fetched then too: every stream begins with the version stored now, so the page
  // catches up on whatever it missed meanwhile.
  var wait = 1000;
  function listen() {
    var source = new EventSource(api + "stream");
    source.addEventListener("open", function () { wait = 1000; });
    source.addEventListener("version", function (ev) {
      var v = JSON.parse(ev.data).version;
      if (v > version) { draft = ""; refresh(); }
    });
    source.addEventListener("unavailable", function (ev) {
      unavailable(JSON.parse(ev.data).error);
    });
    source.addEventListener("available", function () { refresh(); });
    source.onerror = function () {
      source.close();
      setTimeout(function () { refresh(); listen(); }, wait);
      wait = Math.min(2 * wait, 8000);
    };
  }
  listen();
}());
