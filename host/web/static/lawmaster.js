// Lawmaster dashboard: live regions over SSE, forms posted as JSON, board cells as input.
// No framework. Every page works without this file; this only makes it live.
(function () {
  "use strict";

  var lastHtml = {};

  // Words the script shows, in the page's language (the server puts them on <body>).
  function say(name, english) {
    return (document.body && document.body.getAttribute("data-text-" + name)) || english;
  }

  function regions() {
    return document.querySelectorAll("[data-region]");
  }

  // What a player opened stays open through a redraw: an open <details>, the element
  // that has focus (a tapped hex) and a scrolled list, each found again in the new
  // drawing by its id or data-key (the pages give them keys that do not change).
  function keyOf(el) {
    if (!el || !el.getAttribute) return null;
    if (el.id) return "#" + el.id;
    var key = el.getAttribute("data-key");
    return key ? "@" + key : null;
  }

  function findKey(root, key) {
    var all = root.querySelectorAll(key.charAt(0) === "#" ? "[id]" : "[data-key]");
    for (var i = 0; i < all.length; i++) {
      if (keyOf(all[i]) === key) return all[i];
    }
    return null;
  }

  function remember(root) {
    var kept = { open: {}, scroll: {}, focus: null };
    root.querySelectorAll("details").forEach(function (d) {
      var key = keyOf(d);
      if (key) kept.open[key] = d.open;
    });
    root.querySelectorAll("[id], [data-key]").forEach(function (el) {
      var key = keyOf(el);
      if (el.scrollTop || el.scrollLeft) kept.scroll[key] = [el.scrollTop, el.scrollLeft];
    });
    var active = document.activeElement;
    if (active && active !== root && root.contains(active)) kept.focus = keyOf(active);
    return kept;
  }

  function restore(root, kept) {
    Object.keys(kept.open).forEach(function (key) {
      var d = findKey(root, key);
      if (d && d.tagName === "DETAILS" && d.open !== kept.open[key]) d.open = kept.open[key];
    });
    Object.keys(kept.scroll).forEach(function (key) {
      var el = findKey(root, key);
      if (el) { el.scrollTop = kept.scroll[key][0]; el.scrollLeft = kept.scroll[key][1]; }
    });
    if (kept.focus) {
      var el = findKey(root, kept.focus);
      if (el && el.focus) el.focus({ preventScroll: true });
    }
  }

  // A live push carries, per changed region, its whole HTML or an edit of the HTML
  // this stream sent before (host/web/delta.py): numbers keep (positive) or drop
  // (negative) that many chunks, strings are inserted, and a list edits the next chunk
  // by characters (its numbers keep or drop characters, its strings are inserted).
  // Chunks: any text before the first tag, then one per tag with the text after it (the
  // server splits the same way); the edited text is split again.
  var chunksOf = {};

  function split(html) {
    return html.match(/<[^<]*|[^<]+/g) || [];
  }

  function patchChunk(chunk, ops) {
    var out = "", at = 0;
    ops.forEach(function (op) {
      if (typeof op === "string") { out += op; }
      else if (op > 0) { out += chunk.slice(at, at + op); at += op; }
      else { at -= op; }
    });
    return out + chunk.slice(at);
  }

  function patch(before, ops) {
    var out = [], at = 0;
    ops.forEach(function (op) {
      if (typeof op === "string") { out.push(op); }
      else if (Array.isArray(op)) { out.push(patchChunk(before[at], op)); at += 1; }
      else if (op > 0) { Array.prototype.push.apply(out, before.slice(at, at + op)); at += op; }
      else { at -= op; }
    });
    return split(out.concat(before.slice(at)).join(""));
  }

  // The whole HTML of each region a push changed, from its whole text or its edit;
  // null when an edit comes for a region this page has no text of (then refresh).
  function pushed(data) {
    var html = {};
    var whole = data.html || {}, diff = data.diff || {};
    Object.keys(whole).forEach(function (name) {
      chunksOf[name] = split(whole[name]);
      html[name] = whole[name];
    });
    var missing = false;
    Object.keys(diff).forEach(function (name) {
      if (!chunksOf[name]) { missing = true; return; }
      chunksOf[name] = patch(chunksOf[name], diff[name]);
      html[name] = chunksOf[name].join("");
    });
    return missing ? null : html;
  }

  // Replace each region the server rendered; leave untouched regions alone so a
  // half-filled form survives an update that did not change it.
  function applyHtml(html) {
    var x = window.scrollX, y = window.scrollY;
    regions().forEach(function (el) {
      var name = el.getAttribute("data-region");
      if (!(name in html)) return;
      if (lastHtml[name] === undefined) {
        // The first text a stream sends for a region is what the page already shows
        // (the page was drawn from it): compare the browser's readings of both, and
        // leave the drawing alone when they agree.
        var parsed = document.createElement("template");
        parsed.innerHTML = html[name];
        lastHtml[name] = parsed.innerHTML === el.innerHTML ? html[name] : el.innerHTML;
      }
      if (lastHtml[name] === html[name]) return;
      var kept = remember(el);
      el.innerHTML = html[name];
      lastHtml[name] = html[name];
      restore(el, kept);
    });
    // The page stays where the player had scrolled it.
    if (window.scrollX !== x || window.scrollY !== y) window.scrollTo(x, y);
    document.dispatchEvent(new CustomEvent("lawmaster:updated"));
  }

  function flash(text, ok) {
    var box = document.getElementById("flash");
    if (!box) return;
    box.textContent = text || "";
    box.hidden = !text;
    box.className = "flash " + (ok ? "flash-ok" : "flash-error");
  }

  // The same field conventions as host/web/actions.py: f: text, i: number,
  // l: list, p: path of cells, b: true/false; "action" is the base JSON object.
  function formToAction(form, submitter) {
    var action = {};
    var data = new FormData(form);
    if (data.has("action")) action = JSON.parse(data.get("action"));
    // A "choice" field (a textarea of extra fields) merges like a pressed choice button.
    var typed = form.querySelector('textarea[name="choice"]');
    if (typed && typed.value.trim()) Object.assign(action, JSON.parse(typed.value));
    if (submitter && submitter.name === "choice" && submitter.value) {
      Object.assign(action, JSON.parse(submitter.value));
    }
    var seen = {};
    data.forEach(function (value, key) {
      var at = key.indexOf(":");
      if (at < 1) return;
      var kind = key.slice(0, at), name = key.slice(at + 1);
      if (seen[key]) return;
      seen[key] = true;
      var values = data.getAll(key).map(function (v) { return String(v).trim(); });
      // l:faces.1, l:faces.2 (one radio group per die): parts of one list, in order.
      var numbered = /^(.+)\.(\d{1,3})$/.exec(name);
      if (kind === "l" && numbered) {
        var whole = numbered[1];
        var parts = (action["\u0000" + whole] = action["\u0000" + whole] || []);
        values.forEach(function (v) { if (v) parts.push([parseInt(numbered[2], 10), v]); });
        return;
      }
      var last = values.length ? values[values.length - 1] : "";
      var value;
      if (kind === "f") value = last;
      else if (kind === "i") value = /^-?\d+$/.test(last) ? parseInt(last, 10) : last;
      else if (kind === "l") value = values.filter(function (v) { return v; });
      else if (kind === "p") value = values.join(" ").split(/[\s,;]+/).filter(Boolean)
        .map(function (c) { return c.toUpperCase(); });
      else if (kind === "b") value = ["1", "true", "on", "yes"].indexOf(last.toLowerCase()) >= 0;
      else return;
      // An empty field is left out, as the server does for plain forms.
      if (value === "" || (Array.isArray(value) && !value.length)) return;
      action[name] = value;
    });
    Object.keys(action).forEach(function (key) {
      if (key.charAt(0) !== "\u0000") return;
      var parts = action[key].sort(function (a, b) { return a[0] - b[0]; });
      delete action[key];
      if (parts.length) action[key.slice(1)] = parts.map(function (p) { return p[1]; });
    });
    return action;
  }

  function seatHeaders() {
    var headers = { "Content-Type": "application/json", "Accept": "application/json" };
    // A seat's input carries its token in a header no other site's page can set.
    var name = document.body.getAttribute("data-token-header");
    var token = document.body.getAttribute("data-token");
    if (name && token) headers[name] = token;
    return headers;
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      headers: seatHeaders(),
      body: JSON.stringify(body),
      credentials: "same-origin",
    }).then(function (response) {
      return response.json().catch(function () {
        return { ok: false, error: say("answered", "the table answered") + " " + response.status };
      });
    });
  }

  // The version the page's regions show (body's data-version, set only once they do).
  function shownVersion() {
    var v = parseInt(document.body.getAttribute("data-version") || "", 10);
    return isNaN(v) ? -1 : v;
  }

  function showVersion(version) {
    if (typeof version === "number") document.body.setAttribute("data-version", String(version));
  }

  function refresh() {
    var url = document.body.getAttribute("data-snapshot");
    if (!url) return;
    fetch(url, { headers: { "Accept": "application/json" } })
      .then(function (r) { return r.json(); })
      // The stream's own texts (chunksOf) stay as they are: its next edit applies to them.
      // An answer older than what a push has drawn meanwhile is dropped: a slow fetch
      // must never put an earlier page back over a later one.
      .then(function (data) {
        if (!(data.ok && data.html)) return;
        var version = data.snapshot ? data.snapshot.version : undefined;
        if (typeof version === "number" && version < shownVersion()) return;
        applyHtml(data.html);
        showVersion(version);
      })
      .catch(function () {});
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("action-form")) return;
    var action;
    try {
      action = formToAction(form, event.submitter);
    } catch (err) {
      event.preventDefault();
      flash(say("bad-json", "That input is not valid JSON."), false);
      return;
    }
    event.preventDefault();
    var buttons = form.querySelectorAll("button");
    buttons.forEach(function (b) { b.disabled = true; });
    // form.action would be the hidden input named "action"; read the attribute.
    post(form.getAttribute("action"), action).then(function (answer) {
      buttons.forEach(function (b) { b.disabled = false; });
      if (answer.ok) {
        flash(answer.pending || "", true);
        // A live page gets an accepted input pushed in a moment (a small edit); an input
        // held for the board changes no state, so nothing is pushed: ask for the page's
        // regions then, as a page whose stream is down does.
        if (answer.pending || !document.body.getAttribute("data-live")) refresh();
      } else {
        flash(answer.error || say("refused", "refused"), false);
      }
    }, function () {
      buttons.forEach(function (b) { b.disabled = false; });
      flash(say("unreachable", "The table cannot be reached."), false);
    });
  });

  // ---- Choosing on the picture ------------------------------------------------
  // A cell or path field (a GW move, a helicopter landing) is filled by tapping the
  // board: a path one step at a time, its route drawn on the board with each step's
  // number. A choice button that names a place (data-on-board) is pressed by tapping
  // that place on the board; the places that can be tapped are ringed. The fields and
  // buttons stay on the page for anyone who cannot tap the board.
  var target = null;

  function fields() {
    return document.querySelectorAll('[data-region="prompts"] .cell-input, [data-region="prompts"] .path-input');
  }

  function currentTarget() {
    if (target && document.body.contains(target)) return target;
    var all = fields();
    // One field asks for the board: it listens without being touched first.
    target = all.length === 1 ? all[0] : null;
    return target;
  }

  function pathOf(field) {
    return field.value.toUpperCase().split(/[\s,;]+/).filter(Boolean);
  }

  function cellXY(name) {
    var m = /^([A-Z])(\d+)$/.exec(name || "");
    return m ? [m[1].charCodeAt(0) - 65, parseInt(m[2], 10)] : null;
  }

  function nextTo(a, b) {
    var p = cellXY(a), q = cellXY(b);
    return p && q && Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) === 1;
  }

  function boardCell(name) {
    return document.querySelector('svg.board g.cell[data-cell="' + name + '"]');
  }

  function cellCentre(name) {
    var g = boardCell(name);
    var r = g && g.querySelector("rect");
    if (!r) return null;
    var x = parseFloat(r.getAttribute("x")), y = parseFloat(r.getAttribute("y"));
    var w = parseFloat(r.getAttribute("width")), h = parseFloat(r.getAttribute("height"));
    return [x + w / 2, y + h / 2];
  }

  function drawRoute() {
    var svg = document.querySelector("svg.board");
    if (!svg) return;
    var old = svg.querySelector("#route");
    if (old) old.remove();
    var field = currentTarget();
    if (!field || !field.classList.contains("path-input")) return;
    var cells = pathOf(field);
    var start = field.getAttribute("data-from");
    var points = (start ? [start] : []).concat(cells).map(cellCentre).filter(Boolean);
    // The board's own namespace: this file names no address.
    var SVGNS = svg.namespaceURI;
    var group = document.createElementNS(SVGNS, "g");
    group.setAttribute("id", "route");
    group.setAttribute("pointer-events", "none");
    if (points.length > 1) {
      var line = document.createElementNS(SVGNS, "polyline");
      line.setAttribute("points", points.map(function (p) { return p.join(","); }).join(" "));
      line.setAttribute("class", "route-line");
      group.appendChild(line);
    }
    cells.forEach(function (name, i) {
      var c = cellCentre(name);
      if (!c) return;
      var dot = document.createElementNS(SVGNS, "circle");
      dot.setAttribute("cx", c[0]); dot.setAttribute("cy", c[1]); dot.setAttribute("r", 11);
      dot.setAttribute("class", "route-dot");
      group.appendChild(dot);
      var text = document.createElementNS(SVGNS, "text");
      text.setAttribute("x", c[0]); text.setAttribute("y", c[1] + 5);
      text.setAttribute("class", "route-step");
      text.textContent = String(i + 1);
      group.appendChild(text);
    });
    svg.appendChild(group);
    var steps = parseInt(field.getAttribute("data-steps") || "0", 10);
    document.body.setAttribute("data-path-steps", String(cells.length) + (steps ? "/" + steps : ""));
  }

  function markPicked() {
    var field = currentTarget();
    var names = field ? pathOf(field) : [];
    document.querySelectorAll("svg.board .cell").forEach(function (cell) {
      cell.classList.toggle("picked", names.indexOf(cell.getAttribute("data-cell")) >= 0);
    });
    document.body.classList.toggle("picking", !!field);
    drawRoute();
  }

  // The places a choice button names are ringed, and a tap on one presses it.
  function choicesAt(place) {
    return Array.prototype.filter.call(
      document.querySelectorAll('[data-region="prompts"] [data-on-board]'),
      function (b) { return b.getAttribute("data-on-board") === place && !b.disabled; });
  }

  function markPickable() {
    var places = {};
    document.querySelectorAll('[data-region="prompts"] [data-on-board]').forEach(function (b) {
      places[b.getAttribute("data-on-board")] = true;
    });
    document.querySelectorAll("svg.board [data-cell], svg.board [data-sector]").forEach(function (el) {
      if (!el.matches("g.cell, g.hex, g.sector")) return;
      var key = el.getAttribute("data-cell") || el.getAttribute("data-sector");
      el.classList.toggle("pickable", !!places[key]);
    });
  }

  // A tap on a place chooses it: the place is marked and the action bar asks to confirm
  // ("B5 ✓"); a second tap on it, or the bar's button, plays the move. Two choices for
  // one place (two dice reach the same space) are both offered there.
  var chosen = null;

  function closeChooser() {
    var box = document.getElementById("chooser");
    if (box) box.remove();
    document.querySelectorAll("svg.board .chosen").forEach(function (el) {
      el.classList.remove("chosen");
    });
    chosen = null;
  }

  function openChooser(place, el, buttons) {
    closeChooser();
    chosen = place;
    el.classList.add("chosen");
    var box = document.createElement("div");
    box.id = "chooser";
    box.className = "chooser";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", say("which", "Which one?"));
    buttons.forEach(function (b) {
      var copy = document.createElement("button");
      copy.type = "button";
      copy.className = "chooser-go";
      copy.textContent = b.textContent.trim() + " \u2713";
      copy.addEventListener("click", function () { closeChooser(); b.click(); });
      box.appendChild(copy);
    });
    var cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "secondary";
    cancel.textContent = say("cancel", "Cancel");
    cancel.addEventListener("click", closeChooser);
    box.appendChild(cancel);
    var bar = document.querySelector(".action-bar") || document.body;
    bar.appendChild(box);
    // Under the bar, unless that would cover the place itself: then along the bottom.
    var placed = el.getBoundingClientRect(), strip = box.getBoundingClientRect();
    if (placed.top < strip.bottom + 8) box.classList.add("chooser-low");
  }

  function tapPlace(el) {
    var name = el.getAttribute("data-cell") || el.getAttribute("data-sector");
    var field = currentTarget();
    if (field && el.getAttribute("data-cell")) {
      name = name.toUpperCase();
      if (field.classList.contains("path-input")) {
        var path = pathOf(field);
        var last = path.length ? path[path.length - 1] : field.getAttribute("data-from");
        var steps = parseInt(field.getAttribute("data-steps") || "0", 10);
        if (path.length && name === path[path.length - 1]) path.pop();
        else if (!last || nextTo(last, name)) {
          if (steps && path.length >= steps) { flash(say("path-full", "That is all your steps."), false); return; }
          path.push(name);
        } else { flash(say("path-next", "Tap a space next to the last one."), false); return; }
        field.value = path.join(" ");
      } else {
        field.value = name;
      }
      flash("", true);
      markPicked();
      return;
    }
    var buttons = choicesAt(name);
    if (!buttons.length) return;
    if (chosen === name && buttons.length === 1) { closeChooser(); buttons[0].click(); return; }
    var mark = document.querySelector(
      'svg.board g.cell[data-cell="' + name + '"], svg.board g.hex[data-cell="' + name +
      '"], svg.board g.sector[data-sector="' + name + '"]') || el;
    openChooser(name, mark, buttons);
  }

  document.addEventListener("focusin", function (event) {
    var el = event.target;
    if (el.classList && (el.classList.contains("cell-input") || el.classList.contains("path-input"))) {
      target = el;
      markPicked();
    }
  });
  document.addEventListener("input", function (event) {
    if (event.target === currentTarget()) markPicked();
  });
  document.addEventListener("reset", function () { setTimeout(markPicked, 0); });
  document.addEventListener("lawmaster:updated", function () {
    if (target && !document.body.contains(target)) target = null;
    // A place chosen and not yet confirmed stays chosen while its choices are there.
    var keep = chosen;
    if (keep && choicesAt(keep).length) {
      var el = document.querySelector('svg.board [data-cell="' + keep + '"], svg.board [data-sector="' + keep + '"]');
      if (el) openChooser(keep, el.closest("g.cell, g.hex, g.sector") || el, choicesAt(keep));
    } else {
      closeChooser();
    }
    markPicked();
    markPickable();
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest) return;
    var place = event.target.closest("svg.board [data-cell], svg.board [data-sector]");
    if (place) tapPlace(place);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" && event.key !== " ") return;
    var place = event.target.closest && event.target.closest("svg.board .pickable");
    if (place) { event.preventDefault(); tapPlace(place); }
  });

  function refreshJoins(joins) {
    // A seat was claimed or released: the table screen's codes change.
    if (joins === document.body.getAttribute("data-joins")) return;
    document.body.setAttribute("data-joins", joins);
    var url = document.body.getAttribute("data-joins-url");
    var region = document.querySelector('[data-region="joins"]');
    if (!url || !region) return;
    fetch(url, { headers: { "Accept": "text/html" } })
      .then(function (r) { return r.text(); })
      .then(function (html) { region.innerHTML = html; })
      .catch(function () {});
  }

  var retryDelay = 1000;
  var everOpened = false;

  function connect(base) {
    if (!window.EventSource) return;
    var badge = document.getElementById("live");
    // The version this page shows: a stream that starts later sends what it missed.
    // Light pushes (diff=1); "last" names a version the table never has, so the stream
    // sends the page's regions whole at once (the text later edits apply to), and with
    // them anything that happened since the page was drawn.
    var url = base + (base.indexOf("?") < 0 ? "?" : "&") + "diff=1&last=99999999999";
    var source = new EventSource(url);
    source.addEventListener("open", function () {
      // A new stream sends its texts whole before any edit.
      chunksOf = {};
      if (everOpened) refresh();
      everOpened = true;
      retryDelay = 1000;
      if (badge) { badge.hidden = false; badge.className = "live"; badge.textContent = say("live", "live"); }
      document.body.setAttribute("data-live", "1");
    });
    source.addEventListener("update", function (event) {
      var data = JSON.parse(event.data);
      var html = pushed(data);
      var version = data.snapshot ? data.snapshot.version : data.version;
      // An edit of a text this page never had: the page asks for itself, and says its
      // version once that answer is drawn (not before).
      if (html === null) { refresh(); } else { applyHtml(html); showVersion(version); }
      if (typeof data.joins === "string") refreshJoins(data.joins);
    });
    source.addEventListener("reload", function () {
      source.close();
      window.location.reload();
    });
    source.addEventListener("error", function () {
      if (badge) { badge.hidden = false; badge.className = "live offline"; badge.textContent = say("offline", "reconnecting…"); }
      document.body.removeAttribute("data-live");
      if (source.readyState === 2) {
        // Refused (a crowd of table screens, a server restarting): the browser gives
        // up on its own, so try again later, waiting longer each time, up to 30 s.
        source.close();
        setTimeout(function () { connect(base); }, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30000);
      }
    });
  }

  function pollProgress(url) {
    function tick() {
      fetch(url, { headers: { "Accept": "application/json" } })
        .then(function (r) { return r.json(); })
        .then(function (data) {
          if (!data.ok) return;
          var p = data.progress;
          document.querySelectorAll("[data-field]").forEach(function (el) {
            var name = el.getAttribute("data-field");
            if (name === "bar") { el.max = p.total || 1; el.value = p.done || 0; }
            else if (name in p) el.textContent = p[name];
          });
          if (!(p.total && p.done >= p.total)) setTimeout(tick, 1000);
        })
        .catch(function () { setTimeout(tick, 3000); });
    }
    tick();
  }

  // Keep the tablet's screen on while a game is shown: a player who looks away for a
  // minute must not come back to a locked tablet. The browser drops the lock when the
  // page is hidden, so it is asked for again each time the page comes back.
  // data-wake says what happened: "on", "off" (refused or released), "unsupported".
  var wakeLock = null;

  function keepAwake() {
    if (!("wakeLock" in navigator) || !navigator.wakeLock.request) {
      document.body.setAttribute("data-wake", "unsupported");
      return;
    }
    if (wakeLock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      document.body.setAttribute("data-wake", "on");
      lock.addEventListener("release", function () {
        wakeLock = null;
        document.body.setAttribute("data-wake", "off");
      });
    }, function () {
      // Refused (battery saver, no user gesture yet): the next tap tries again.
      document.body.setAttribute("data-wake", "off");
    });
  }

  function watchWake() {
    keepAwake();
    document.addEventListener("visibilitychange", keepAwake);
    document.addEventListener("pointerdown", keepAwake);
  }

  document.addEventListener("DOMContentLoaded", function () {
    // Scripts run: the meta refresh of no-script pages is not needed.
    var refreshTag = document.querySelector('meta[http-equiv="refresh"]');
    var events = document.body.getAttribute("data-events");
    if (events) { connect(events); watchWake(); }
    markPicked();
    markPickable();
    var progress = document.body.getAttribute("data-progress");
    if (progress && refreshTag) { refreshTag.remove(); pollProgress(progress); }
  });
})();
