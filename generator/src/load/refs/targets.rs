//! Where a `$ref` leads and what it becomes: the file and pointer read (each file once), a
//! component hoisted under a fresh name, or the object copied in place with the reference's
//! own annotations laid over it.

use super::*;

impl Bundler<'_> {
    /// The local reference for the object `reference` (standing at `cx`) points at: a
    /// component it is copied into (once), or its place when that is in the root file.
    /// `None` after an error.
    pub(super) fn hoist_ref(&mut self, reference: &str, kind: Kind, cx: &Cx) -> Option<String> {
        let first = match self.target(reference, &cx.file) {
            Ok(t) => t,
            Err(message) => {
                self.error(cx, message);
                return None;
            }
        };
        let target = match self.follow(reference, cx) {
            Ok(t) => t,
            Err(message) => {
                self.error(cx, message);
                return None;
            }
        };
        if target.0 == self.root {
            return Some(format!("#{}", target.1));
        }
        let home = self.home(kind)?;
        if let Some((k, name)) = self.hoisted.get(&target) {
            let home = self.home(*k).unwrap_or(home);
            return Some(format!("#{}", push(&self.home_pointer(home), name)));
        }
        // A new component, named before its content is walked so that a reference back to it
        // (a cycle across files) meets the name.
        let name = self.fresh_name(kind, &first);
        self.hoisted.insert(target.clone(), (kind, name.clone()));
        // Its place among the new components is taken now: they keep the order in which they
        // were first referred to.
        let slot = self.added.len();
        self.added.push((kind, name.clone(), Value::Null));
        let out = push(&self.home_pointer(home), &name);
        let mut content = self.value_at(&target).unwrap_or(Value::Null);
        self.moves
            .record(&out, &self.place(&target.0, &target.1), true);
        let inner = Cx {
            file: target.0.clone(),
            ptr: target.1.clone(),
            out: out.clone(),
        };
        self.walk(&mut content, kind, &inner);
        self.added[slot].2 = content;
        Some(format!("#{out}"))
    }

    /// Replaces the `$ref` object `v` by a copy of what it points at (a path item, an
    /// operation), its own `summary`/`description` winning.
    pub(super) fn inline(&mut self, v: &mut Value, kind: Kind, reference: &str, cx: &Cx) {
        let target = match self.follow(reference, cx) {
            Ok(t) => t,
            Err(message) => return self.error(cx, message),
        };
        if self.inlining.contains(&target) {
            let what = if kind == Kind::Operation {
                "an operation"
            } else {
                "a path item"
            };
            return self.error(
                cx,
                format!("`{reference}` makes {what} that contains itself (a cycle of `$ref`s)"),
            );
        }
        let mut content = self.value_at(&target).unwrap_or(Value::Null);
        overlay(&mut content, v);
        self.moves
            .record(&cx.out, &self.place(&target.0, &target.1), false);
        let inner = Cx {
            file: target.0.clone(),
            ptr: target.1.clone(),
            out: cx.out.clone(),
        };
        self.inlining.push(target);
        self.walk(&mut content, kind, &inner);
        self.inlining.pop();
        *v = content;
    }

    /// A component name from the place first referred to: the file's name without its
    /// extension for a whole file (`Pet.yaml` → `Pet`), else the pointer's last token
    /// (`#/definitions/Pet` → `Pet`); made unique among the kind's names (`Pet2`).
    pub(super) fn fresh_name(&mut self, kind: Kind, (file, ptr): &Target) -> String {
        let stem = file.rsplit('/').next().unwrap_or(file);
        let stem = match stem.rsplit_once('.') {
            Some((s, ext))
                if ["yaml", "yml", "json"].contains(&ext.to_ascii_lowercase().as_str()) =>
            {
                s
            }
            _ => stem,
        };
        let last = ptr
            .rsplit('/')
            .next()
            .map(crate::load::unescape)
            .unwrap_or_default();
        let base = if ptr.is_empty() {
            stem.to_string()
        } else if last.is_empty()
            || last.chars().all(|c| c.is_ascii_digit())
            || GENERIC.contains(&last.as_str())
        {
            format!("{stem}_{last}")
        } else {
            last
        };
        // The characters 3.1 allows in component names.
        let mut base: String = base
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if base.trim_matches('_').is_empty() {
            base = "Ref".into();
        }
        let taken = self.taken.entry(kind).or_default();
        let mut name = base.clone();
        let mut n = 2;
        while taken.contains(&name) {
            name = format!("{base}{n}");
            n += 1;
        }
        taken.insert(name.clone());
        name
    }

    /// The place `reference` names, written in `from`: its file (relative to `from`'s
    /// directory) and JSON pointer.
    pub(super) fn target(&self, reference: &str, from: &str) -> Result<Target, String> {
        let (path, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        if let Some((scheme, _)) = path.split_once(':')
            && scheme.len() > 1
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            && scheme != "file"
        {
            if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") {
                return Err(format!(
                    "`{reference}` is a remote reference: apigen reads no URL; save the document it names beside this one and refer to the file"
                ));
            }
            return Err(format!(
                "`{reference}`: references with the scheme `{scheme}:` are not supported; refer to a file"
            ));
        }
        let file = if path.is_empty() {
            from.to_string()
        } else {
            join(from, path)
        };
        let pointer = crate::load::source::percent_decode(fragment);
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return Err(format!(
                "`{reference}`: a fragment that is not a JSON pointer (a JSON Schema anchor) is not supported; write the pointer (`#/…`)"
            ));
        }
        Ok((file, pointer))
    }

    /// The place `reference` (standing at `cx`) finally names, following `$ref`s that are
    /// nothing else (`{"$ref": "./b.json"}` as a whole file or entry) to what they point at.
    pub(super) fn follow(&mut self, reference: &str, cx: &Cx) -> Result<Target, String> {
        let mut seen: Vec<Target> = Vec::new();
        let mut from = cx.file.clone();
        let mut reference = reference.to_string();
        loop {
            let target = self.target(&reference, &from)?;
            if seen.contains(&target) || seen.len() > 32 {
                return Err(format!(
                    "`{reference}` is part of a cycle of `$ref`s that never reaches an object"
                ));
            }
            let value = self.lookup(&target).map_err(|why| {
                if from == cx.file {
                    format!("`{reference}`: {why}")
                } else {
                    format!("`{reference}` (in {from}): {why}")
                }
            })?;
            match bare_ref(&value) {
                Some(next) => {
                    seen.push(target.clone());
                    reference = next.to_string();
                    from = target.0;
                }
                None => return Ok(target),
            }
        }
    }

    /// The value at a place, reading its file on first use.
    pub(super) fn lookup(&mut self, (file, ptr): &Target) -> Result<Value, String> {
        if !self.parsed.contains_key(file) {
            let parsed = self.read(file);
            self.parsed.insert(file.clone(), parsed);
        }
        match &self.parsed[file] {
            Err(why) => Err(why.clone()),
            Ok(doc) => doc.pointer(ptr).cloned().ok_or_else(|| {
                format!(
                    "{file} has nothing at `#{}`",
                    if ptr.is_empty() { "" } else { ptr }
                )
            }),
        }
    }

    pub(super) fn value_at(&mut self, target: &Target) -> Option<Value> {
        self.lookup(target).ok()
    }

    pub(super) fn read(&mut self, file: &str) -> Result<Value, String> {
        self.files.push(file.to_string());
        let text = self
            .source
            .read(file)
            .map_err(|e| format!("cannot read {file}: {e}"))?;
        let value = crate::load::to_json_value(&text).map_err(|d| {
            let first = d.0.first().map(|d| d.message.clone()).unwrap_or_default();
            format!("{file}: {first}")
        });
        self.texts.insert(file.to_string(), text);
        value
    }

    /// Adds the components made for other files' objects to the root document.
    pub(super) fn insert_added(&mut self, doc: &mut Value) {
        let Some(obj) = doc.as_object_mut() else {
            return;
        };
        for (kind, name, content) in std::mem::take(&mut self.added) {
            let Some(home) = self.home(kind) else {
                continue;
            };
            let container = if self.swagger2 {
                &mut *obj
            } else {
                let components = obj
                    .entry("components")
                    .or_insert_with(|| Value::Object(Map::new()));
                if !components.is_object() {
                    *components = Value::Object(Map::new());
                }
                components.as_object_mut().expect("made an object above")
            };
            let items = container
                .entry(home)
                .or_insert_with(|| Value::Object(Map::new()));
            if let Some(items) = items.as_object_mut() {
                items.insert(name, content);
            }
        }
    }
}

/// Keys a Reference Object may carry beside `$ref` (3.1): they annotate, and win over the
/// target's own.
pub(super) const ANNOTATIONS: &[&str] = &["$ref", "summary", "description"];

/// Pointer tokens that say nothing about what is there: a name taken from them is prefixed
/// with the file's.
pub(super) const GENERIC: &[&str] = &[
    "schema",
    "items",
    "content",
    "additionalProperties",
    "value",
    "properties",
];

/// The reference of a `$ref` object that holds nothing else but annotations.
pub(super) fn annotated_ref(v: &Value) -> Option<&str> {
    let map = v.as_object()?;
    if map.keys().all(|k| ANNOTATIONS.contains(&k.as_str())) {
        map.get("$ref")?.as_str()
    } else {
        None
    }
}

/// The reference of a `$ref` object that holds nothing else.
pub(super) fn bare_ref(v: &Value) -> Option<&str> {
    let map = v.as_object()?;
    if map.len() == 1 {
        map.get("$ref")?.as_str()
    } else {
        None
    }
}

/// `summary`/`description` of the `$ref` object over the copy of what it points at.
pub(super) fn overlay(content: &mut Value, reference: &Value) {
    if let (Some(content), Some(reference)) = (content.as_object_mut(), reference.as_object()) {
        for key in ["summary", "description"] {
            if let Some(v) = reference.get(key) {
                content.insert(key.into(), v.clone());
            }
        }
    }
}
