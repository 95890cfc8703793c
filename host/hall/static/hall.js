// The hall screen, live: each pushed region replaces its drawing (see host/hall/app.py).
(function () {
  "use strict";
  var url = document.body.getAttribute("data-events");
  if (!url || !window.EventSource) { return; }
  var source = new EventSource(url);
  function data(event) { try { return JSON.parse(event.data); } catch (e) { return null; } }
  function swap(id, html) {
    var here = document.getElementById(id);
    if (here) { here.innerHTML = html; }
  }
  source.addEventListener("tile", function (event) {
    var d = data(event);
    if (!d) { return; }
    var tile = document.getElementById("tile-" + d.table);
    if (tile) { tile.outerHTML = d.html; } else { window.location.reload(); }
    document.body.setAttribute("data-version", d.version);
  });
  source.addEventListener("tiles", function (event) {
    var d = data(event);
    if (d) { swap("tiles", d.html); document.body.setAttribute("data-version", d.version); }
  });
  source.addEventListener("side", function (event) {
    var d = data(event);
    if (d) { swap("side", d.html); }
  });
  source.addEventListener("banner", function (event) {
    var d = data(event);
    if (d) { swap("banner", d.html); }
  });
})();
