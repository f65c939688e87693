//! Owns serving the document a server was generated from: `ServerConfig::serve_document`
//! (off by default) answers `{prefix}.json`, `{prefix}.yaml` and `{prefix}.html`, a page
//! listing the document's operations that works offline (no asset from anywhere else: the page
//! is this file's, and it reads `{prefix}.json` from the same server).

use axum::Router;
use axum::response::Response;
use axum::routing::get;
use http::StatusCode;

use super::response;

/// The document as the generated crate holds it (`document::DOCUMENT`): the text it was
/// generated from (a document split over several files bundled into one), as JSON and as YAML.
#[derive(Debug)]
pub struct Document {
    /// The document as JSON (served at `{prefix}.json`).
    pub json: &'static str,
    /// The document as YAML (served at `{prefix}.yaml`).
    pub yaml: &'static str,
    /// `info.title`, the page's title.
    pub title: &'static str,
}

/// `routes` with the document's three routes under `prefix` (`"/openapi"`).
pub(crate) fn routes(routes: Router, document: &'static Document, prefix: &str) -> Router {
    let prefix = prefix.trim_end_matches('/');
    let json_path = format!("{prefix}.json");
    let page = page(document.title, &json_path);
    routes
        .route(
            &json_path,
            get(move || async move { text(document.json, "application/json") }),
        )
        .route(
            &format!("{prefix}.yaml"),
            get(move || async move { text(document.yaml, "application/yaml") }),
        )
        .route(
            &format!("{prefix}.html"),
            get(move || {
                let page = page.clone();
                async move { response::text(StatusCode::OK, "text/html; charset=utf-8", page) }
            }),
        )
}

fn text(body: &'static str, content_type: &str) -> Response {
    response::bytes(
        StatusCode::OK,
        content_type,
        axum::body::Bytes::from_static(body.as_bytes()),
    )
}

/// The page: the title, then every operation (method, path, id, summary) by tag, read from
/// `json_path` by a script of its own.
fn page(title: &str, json_path: &str) -> String {
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    PAGE.replace("{{TITLE}}", &escape(title))
        .replace("{{JSON}}", &escape(json_path))
}

const PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{TITLE}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; }
table { border-collapse: collapse; width: 100%; }
td, th { border-bottom: 1px solid #ddd; padding: .3rem .5rem; text-align: left; vertical-align: top; }
code { font-size: .95em; }
.deprecated { text-decoration: line-through; }
</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<p>The document: <a href="{{JSON}}">JSON</a>. <span id="status">Reading it…</span></p>
<div id="operations"></div>
<script>
(async () => {
  const status = document.getElementById("status");
  try {
    const doc = await (await fetch("{{JSON}}")).json();
    const byTag = new Map();
    const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];
    for (const [path, item] of Object.entries(doc.paths || {})) {
      for (const [method, op] of Object.entries(item || {})) {
        if (!methods.includes(method) || typeof op !== "object") continue;
        const tag = (op.tags && op.tags[0]) || "operations";
        if (!byTag.has(tag)) byTag.set(tag, []);
        byTag.get(tag).push({ method, path, op });
      }
    }
    const root = document.getElementById("operations");
    let count = 0;
    for (const [tag, ops] of byTag) {
      const h = document.createElement("h2");
      h.textContent = tag;
      root.appendChild(h);
      const table = document.createElement("table");
      for (const { method, path, op } of ops) {
        const row = table.insertRow();
        row.className = "operation" + (op.deprecated ? " deprecated" : "");
        row.dataset.operationId = op.operationId || "";
        const cells = [method.toUpperCase(), path, op.operationId || "", op.summary || ""];
        for (const [i, value] of cells.entries()) {
          const cell = row.insertCell();
          if (i < 3) {
            const code = document.createElement("code");
            code.textContent = value;
            cell.appendChild(code);
          } else {
            cell.textContent = value;
          }
        }
        count++;
      }
      root.appendChild(table);
    }
    status.textContent = count + " operations.";
  } catch (e) {
    status.textContent = "The document could not be read: " + e;
  }
})();
</script>
</body>
</html>
"#;
