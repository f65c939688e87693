//! Who may call an operation and until when: its security requirements (the schemes each
//! alternative needs) and its deprecation (`deprecated`, `x-sunset`, the `Sunset` date).

use super::*;

pub(super) fn security(
    requirements: Option<&Vec<openapiv3::SecurityRequirement>>,
    schemes: &[SecurityScheme],
    at: &str,
    sink: &mut Sink,
) -> Vec<Vec<String>> {
    let Some(requirements) = requirements else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, req) in requirements.iter().enumerate() {
        let mut names: Vec<String> = Vec::new();
        let mut usable = true;
        for name in req.keys() {
            if schemes.iter().any(|s| &s.name == name) {
                names.push(name.clone());
            } else {
                sink.warn(
                    push(&push(at, "security"), &i.to_string()),
                    format!("security scheme `{name}` is not defined (or not supported); this alternative is ignored"),
                );
                usable = false;
            }
        }
        if usable {
            out.push(names);
        }
    }
    if out.is_empty() && !requirements.is_empty() && requirements.iter().all(|r| !r.is_empty()) {
        // Every alternative was unusable: keep the operation closed rather than open.
        out.push(vec!["<unsupported>".to_string()]);
    }
    out
}

/// The deprecation note and the response headers derived from `x-deprecation`.
pub(super) fn deprecation(
    deprecated: bool,
    ext: Option<extensions::DeprecationExt>,
    routes: &BTreeMap<String, String>,
    base_path: &str,
    at: &str,
    sink: &mut Sink,
) -> (Option<Deprecation>, Vec<(String, String)>) {
    if !deprecated && ext.is_none() {
        return (None, Vec::new());
    }
    let Some(ext) = ext else {
        return (
            Some(Deprecation {
                note: "This operation is deprecated in the API description.".into(),
                sunset: None,
                replacement: None,
            }),
            Vec::new(),
        );
    };
    let mut headers = Vec::new();
    if let Some(since) = ext.since {
        headers.push(("deprecation".to_string(), format!("@{since}")));
    }
    if let Some((imf, _)) = &ext.sunset {
        headers.push(("sunset".to_string(), imf.clone()));
    }
    let successor = ext
        .replacement
        .as_ref()
        .and_then(|id| match routes.get(id) {
            Some(path) => Some((id.clone(), path.clone())),
            None => {
                sink.error(
                    push(at, "replacement"),
                    format!("no operation has the operationId `{id}`"),
                );
                None
            }
        });
    if let Some((_, path)) = &successor {
        headers.push((
            "link".to_string(),
            format!("<{base_path}{path}>; rel=\"successor-version\""),
        ));
    }
    let note = match (&ext.note, &ext.sunset, &successor) {
        (Some(n), _, _) => n.clone(),
        (None, Some((_, day)), Some((id, _))) => format!("Removed on {day}; use `{id}` instead."),
        (None, Some((_, day)), None) => format!("Removed on {day}."),
        (None, None, Some((id, _))) => format!("Use `{id}` instead."),
        (None, None, None) => "This operation is deprecated in the API description.".into(),
    };
    let sunset = ext
        .sunset_at
        .zip(ext.sunset.as_ref())
        .map(|(at, (_, day))| Sunset {
            at,
            day: day.clone(),
        });
    let replacement = successor.map(|(id, _)| id);
    (
        Some(Deprecation {
            note,
            sunset,
            replacement,
        }),
        headers,
    )
}
