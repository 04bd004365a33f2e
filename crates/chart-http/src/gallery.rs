//! `GET /examples`: one self-contained HTML page (no CDN, no external file) that renders every
//! built-in example live through `POST /render` and shows its title and config.
//!
//! An engine switch picks skia, browser, or both side by side (also `?engine=skia|browser|both`
//! in the page's URL). Images are rendered at devicePixelRatio 2 and shown at their CSS size,
//! so their text is sharp on any screen. Each image, once loaded, carries
//! `data-loaded="true"`, and each failed render a `status error` line: the integration test
//! `gallery` loads the page in headless Chromium and checks both.

use chart_raster::examples::Example;
use serde_json::json;

/// JSON for a `<script type="application/json">` block: `<`, `>` and `&` become `\u003c`…
/// so no value (a title, a config string, the API key) can close the element or open a
/// comment; `JSON.parse` gives the same text back.
fn script_safe_json(v: &serde_json::Value) -> String {
    let s = serde_json::to_string(v).unwrap_or_else(|_| "null".into());
    s.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// The page. When `api_key` is set it is embedded (escaped as above) and sent as `X-API-Key`
/// by the page's render calls.
pub fn page(examples: &[Example], api_key: Option<&str>) -> String {
    let data = json!({
        "apiKey": api_key,
        "examples": examples.iter().map(|e| json!({
            "name": e.name,
            "title": e.title,
            "width": e.width,
            "height": e.height,
            "config": e.config,
        })).collect::<Vec<_>>(),
    });
    let mut html = String::with_capacity(64 * 1024);
    html.push_str(HEAD);
    html.push_str("<script id=\"data\" type=\"application/json\">");
    html.push_str(&script_safe_json(&data));
    html.push_str("</script>\n");
    html.push_str(SCRIPT);
    html
}

const HEAD: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>chart-raster examples</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
header { padding: 16px 24px; background: #1d2330; color: #fff; }
header h1 { margin: 0; font-size: 20px; }
header p { margin: 4px 0 0; color: #b8c0d0; font-size: 14px; }
main { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 16px; padding: 16px 24px; }
article { background: #fff; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.12); padding: 12px; }
article h2 { font-size: 15px; margin: 0 0 8px; }
.panes { display: flex; gap: 8px; }
.pane { flex: 1; min-width: 0; }
.pane h3 { font-size: 12px; margin: 0 0 4px; color: #667; font-weight: normal; }
.img { min-height: 120px; display: flex; align-items: center; justify-content: center; background: #fafafa; }
.img img { max-width: 100%; height: auto; }
header label { color: #b8c0d0; font-size: 14px; }
.status { font-size: 12px; color: #667; margin: 6px 0; white-space: pre-wrap; }
.error { color: #b00020; }
details pre { font-size: 11px; max-height: 320px; overflow: auto; background: #f6f8fa; padding: 8px; }
</style>
</head>
<body>
<header><h1>chart-raster examples</h1><p>Every chart below is rendered live by this server through <code>POST /render</code> (PNG at devicePixelRatio 2).
<label>Engine <select id="engine"><option value="skia">skia</option><option value="browser">browser (Chart.js in Chromium)</option><option value="both">both, side by side</option></select></label></p></header>
<main id="gallery"></main>
"#;

const SCRIPT: &str = r#"<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("data").textContent);
  var gallery = document.getElementById("gallery");
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  var select = document.getElementById("engine");
  var wanted = new URLSearchParams(location.search).get("engine");
  if (wanted === "skia" || wanted === "browser" || wanted === "both") select.value = wanted;
  function render(ex, engine, box, status) {
    var headers = { "Content-Type": "application/json" };
    if (data.apiKey) headers["X-API-Key"] = data.apiKey;
    // dpr 2, shown at the CSS size: sharp text on any screen.
    var body = JSON.stringify({ chart: ex.config, width: ex.width, height: ex.height, devicePixelRatio: 2, engine: engine });
    var t0 = performance.now();
    return fetch("/render", { method: "POST", headers: headers, body: body }).then(function (r) {
      var ms = Math.round(performance.now() - t0);
      if (!r.ok) {
        return r.json().then(function (j) { throw new Error(r.status + ": " + (j && j.error)); });
      }
      var msgs = r.headers.get("X-Chart-Messages");
      var hit = r.headers.get("X-Cache-Hit");
      return r.blob().then(function (b) {
        var img = el("img");
        img.alt = ex.title + " (" + engine + ")";
        img.width = ex.width;
        img.onload = function () {
          img.setAttribute("data-loaded", "true");
          img.setAttribute("data-natural-size", img.naturalWidth + "x" + img.naturalHeight);
        };
        img.src = URL.createObjectURL(b);
        box.textContent = "";
        box.appendChild(img);
        var lines = [ms + " ms, cache " + (hit === "true" ? "hit" : "miss")];
        if (msgs) {
          JSON.parse(msgs).forEach(function (m) { lines.push("[" + m.level + "] " + m.message); });
        }
        status.textContent = lines.join("\n");
      });
    }).catch(function (e) {
      status.textContent = String(e.message || e);
      status.className = "status error";
    });
  }
  var queue = [];
  var generation = 0;
  function build() {
    generation += 1;
    queue.length = 0;
    gallery.textContent = "";
    var engines = select.value === "both" ? ["skia", "browser"] : [select.value];
    data.examples.forEach(function (ex) {
      var card = el("article");
      card.setAttribute("data-example", ex.name);
      card.appendChild(el("h2", null, ex.title));
      var panes = el("div", "panes");
      engines.forEach(function (engine) {
        var pane = el("div", "pane");
        pane.setAttribute("data-engine", engine);
        if (engines.length > 1) pane.appendChild(el("h3", null, engine));
        var box = el("div", "img", "rendering…");
        pane.appendChild(box);
        var status = el("div", "status");
        pane.appendChild(status);
        panes.appendChild(pane);
        queue.push(function () { return render(ex, engine, box, status); });
      });
      card.appendChild(panes);
      var details = el("details");
      details.appendChild(el("summary", null, ex.name + " — config (" + ex.width + "×" + ex.height + ")"));
      details.appendChild(el("pre", null, JSON.stringify(ex.config, null, 2)));
      card.appendChild(details);
      gallery.appendChild(card);
    });
    // A few renders at a time, so the page does not queue everything on the server at once;
    // a switch of engine drops the jobs of the previous one.
    var mine = generation;
    function worker() {
      if (mine !== generation) return;
      var job = queue.shift();
      if (job) return job().then(worker);
    }
    for (var i = 0; i < 4; i++) worker();
  }
  select.addEventListener("change", function () {
    var u = new URL(location.href);
    u.searchParams.set("engine", select.value);
    history.replaceState(null, "", u);
    build();
  });
  build();
})();
</script>
</body>
</html>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_values_cannot_close_the_script() {
        let ex = Example {
            name: "x",
            title: "</script><script>alert(1)</script>".into(),
            config: serde_json::Map::new(),
            width: 10.0,
            height: 10.0,
        };
        let page = page(&[ex], Some("k\"</script>&"));
        assert_eq!(
            page.matches("</script>").count(),
            2,
            "only the page's own two"
        );
        assert!(page.contains(r#"\u003c/script\u003e\u003cscript\u003ealert(1)"#));
        assert!(page.contains(r#""apiKey":"k\"\u003c/script\u003e\u0026""#));
    }
}
