//! A `tracing` layer that keeps every closed span's name and fields, for tests that read spans
//! as a subscriber receives them (never from log text). Shared by this crate's
//! tests/observe.rs and the reference service's tests/trace.rs (`#[path]`).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;

pub type Fields = BTreeMap<String, String>;

/// Install with `tracing_subscriber::registry().with(spans.clone())`.
#[derive(Default, Clone)]
pub struct Spans {
    open: Arc<Mutex<BTreeMap<u64, (String, Fields)>>>,
    closed: Arc<Mutex<Vec<(String, Fields)>>>,
}

struct Collect<'a>(&'a mut Fields);

impl Visit for Collect<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_owned(), value.to_string());
    }
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> tracing_subscriber::Layer<S> for Spans {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, _: Context<'_, S>) {
        let mut fields = Fields::new();
        attrs.record(&mut Collect(&mut fields));
        let name = attrs.metadata().name().to_owned();
        self.open
            .lock()
            .unwrap()
            .insert(id.into_u64(), (name, fields));
    }
    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        if let Some((_, fields)) = self.open.lock().unwrap().get_mut(&id.into_u64()) {
            values.record(&mut Collect(fields));
        }
    }
    fn on_close(&self, id: Id, _: Context<'_, S>) {
        if let Some(span) = self.open.lock().unwrap().remove(&id.into_u64()) {
            self.closed.lock().unwrap().push(span);
        }
    }
}

impl Spans {
    /// The fields of every closed span named `name`, in the order they closed.
    pub fn named(&self, name: &str) -> Vec<Fields> {
        self.closed
            .lock()
            .unwrap()
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, f)| f.clone())
            .collect()
    }

    /// The fields of the closed `request` span whose request id is `id`.
    pub fn request(&self, id: &str) -> Fields {
        self.named("request")
            .into_iter()
            .find(|f| f.get("http.request_id").map(String::as_str) == Some(id))
            .unwrap_or_else(|| panic!("no closed request span with id {id}"))
    }
}
