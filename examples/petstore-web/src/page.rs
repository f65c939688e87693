//! The page's behaviour: reads the form, calls the generated client, writes the results into
//! the document (text only, never HTML, so a pet's name cannot inject markup).

use std::time::Duration;

use petstore_client::client::{CreatePetError, ListPetsError, ListPetsOptions};
use petstore_client::types::{self, NewPet, PetStatus};
use petstore_client::{Client, Error, RateLimit};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element, Event, HtmlFormElement, HtmlInputElement, HtmlSelectElement};

/// Where the page looks for the service unless `?api=` says otherwise.
const DEFAULT_API: &str = "http://127.0.0.1:8080/v1";

#[wasm_bindgen(start)]
pub fn start() -> Result<(), JsValue> {
    let doc = document();
    let query = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    input(&doc, "api").set_value(&query_param(&query, "api").unwrap_or_else(|| DEFAULT_API.into()));
    if let Some(key) = query_param(&query, "key") {
        input(&doc, "key").set_value(&key);
    }

    on(&doc, "add-form", "submit", |event: Event| {
        event.prevent_default();
        wasm_bindgen_futures::spawn_local(add());
    })?;
    on(&doc, "status-filter", "change", |_| {
        wasm_bindgen_futures::spawn_local(refresh())
    })?;
    on(&doc, "refresh", "click", |_| {
        wasm_bindgen_futures::spawn_local(refresh())
    })?;
    wasm_bindgen_futures::spawn_local(refresh());
    Ok(())
}

/// Lists the animals with the selected status.
async fn refresh() {
    let doc = document();
    let Some(client) = client(&doc) else { return };
    let status = status_of(&select(&doc, "status-filter").value());
    let result = client
        .list_pets_with(ListPetsOptions {
            status,
            limit: Some(100),
        })
        .await;
    show_rate_limit(&doc, &client.last_rate_limit());
    match result {
        Ok(pets) => {
            set_text(&doc, "error", "");
            let list = element(&doc, "pets");
            list.set_text_content(None);
            for pet in pets.iter() {
                let item = doc.create_element("li").expect("li");
                item.set_attribute("data-id", &pet.id.to_string()).ok();
                item.set_text_content(Some(&format!("#{} {}", pet.id, pet.name)));
                let status = doc.create_element("span").expect("span");
                status.set_class_name("status");
                status.set_text_content(Some(pet.status.as_ref().map_or("", PetStatus::as_str)));
                item.append_child(&status).ok();
                list.append_child(&item).ok();
            }
            if pets.is_empty() {
                let item = doc.create_element("li").expect("li");
                item.set_text_content(Some("no animals"));
                list.append_child(&item).ok();
            }
        }
        Err(e) => {
            set_text(&doc, "notice", "");
            set_text(&doc, "error", &describe(&e));
        }
    }
}

/// Adds the animal of the form, then lists again.
async fn add() {
    let doc = document();
    let Some(client) = client(&doc) else { return };
    let name = input(&doc, "name").value();
    let category_id = input(&doc, "category").value().trim().parse().unwrap_or(0);
    let new = NewPet {
        name: name.trim().to_owned(),
        category_id,
        status: status_of(&select(&doc, "new-status").value()),
    };
    let result = client.create_pet(&new).await;
    show_rate_limit(&doc, &client.last_rate_limit());
    match result {
        Ok(pet) => {
            set_text(&doc, "error", "");
            set_text(&doc, "notice", &format!("Added #{} {}", pet.id, pet.name));
            if let Some(form) = doc
                .get_element_by_id("add-form")
                .and_then(|f| f.dyn_into::<HtmlFormElement>().ok())
            {
                form.reset();
            }
            refresh().await;
        }
        Err(e) => {
            set_text(&doc, "notice", "");
            set_text(&doc, "error", &describe(&e));
        }
    }
}

/// A client for the URL and key on the page; an unusable URL is shown as the error.
fn client(doc: &Document) -> Option<Client> {
    let api = input(doc, "api").value();
    let key = input(doc, "key").value();
    let mut builder = Client::builder(api.trim());
    if !key.trim().is_empty() {
        builder = builder.bearer_auth(key.trim());
    }
    match builder.build() {
        Ok(client) => Some(client),
        Err(e) => {
            set_text(doc, "error", &format!("cannot use this API URL: {e}"));
            None
        }
    }
}

/// The operations' error enums carry the document's error body; they are `non_exhaustive`
/// (a status the document adds later), so a variant this page does not know has none.
trait Documented {
    fn body(&self) -> Option<&types::Error>;
}

impl Documented for ListPetsError {
    fn body(&self) -> Option<&types::Error> {
        match self {
            Self::BadRequest(e) | Self::Unauthorized(e) | Self::TooManyRequests(e) => Some(e),
            _ => None,
        }
    }
}

impl Documented for CreatePetError {
    fn body(&self) -> Option<&types::Error> {
        match self {
            Self::BadRequest(e)
            | Self::Unauthorized(e)
            | Self::PayloadTooLarge(e)
            | Self::UnsupportedMediaType(e)
            | Self::Conflict(e)
            | Self::UnprocessableEntity(e)
            | Self::TooManyRequests(e) => Some(e),
            _ => None,
        }
    }
}

/// What the user reads: the server's own message where there is one.
fn describe<E: Documented>(error: &Error<E>) -> String {
    let mut text = match error {
        Error::Api { status, body, .. } => match body.body() {
            Some(e) => format!("{} {}: {}", status.as_u16(), e.code, e.message),
            None => format!("the server answered HTTP {}", status.as_u16()),
        },
        Error::UnexpectedStatus { status, .. } => {
            format!("the server answered HTTP {}", status.as_u16())
        }
        Error::Decode {
            status, message, ..
        } => format!(
            "could not read the server's HTTP {} answer: {message}",
            status.as_u16()
        ),
        // A browser reports a refused CORS check as a network error, nothing more.
        Error::Transport(e) => format!(
            "could not reach the service ({e}); is it running, and does it allow this page's origin (--cors-origin)?"
        ),
        Error::InvalidRequest(m) => format!("could not send the request: {m}"),
        // Past the operation's sunset (x-deprecation): say what to use instead.
        Error::Gone {
            operation,
            replacement,
            ..
        } => match replacement {
            Some(r) => format!("{operation} has been removed (HTTP 410); use {r} instead"),
            None => format!("{operation} has been removed (HTTP 410)"),
        },
    };
    if let Some(delay) = error.retry_after() {
        text.push_str(&format!(" (retry after {})", seconds(delay)));
    }
    text
}

fn show_rate_limit(doc: &Document, state: &RateLimit) {
    let text = match (state.limit, state.remaining) {
        (Some(limit), Some(remaining)) => {
            let reset = state
                .reset
                .and_then(|r| r.duration_since(web_time::SystemTime::now()).ok())
                .map(|d| format!(", window resets in {}", seconds(d)))
                .unwrap_or_default();
            format!("Rate limit: {remaining} of {limit} requests left{reset}")
        }
        _ => "Rate limit: not reported".to_owned(),
    };
    set_text(doc, "rate-limit", &text);
}

fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs() + u64::from(d.subsec_nanos() > 0))
}

fn status_of(value: &str) -> Option<PetStatus> {
    match value {
        "available" => Some(PetStatus::Available),
        "pending" => Some(PetStatus::Pending),
        "sold" => Some(PetStatus::Sold),
        _ => None,
    }
}

/// `name`'s value in a `?a=b&c=d` query string (percent-decoded by the browser's rules).
fn query_param(search: &str, name: &str) -> Option<String> {
    let params = web_sys::UrlSearchParams::new_with_str(search).ok()?;
    params.get(name).filter(|v| !v.is_empty())
}

fn document() -> Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a page has a document")
}

fn element(doc: &Document, id: &str) -> Element {
    doc.get_element_by_id(id)
        .unwrap_or_else(|| panic!("index.html has #{id}"))
}

fn input(doc: &Document, id: &str) -> HtmlInputElement {
    element(doc, id).dyn_into().expect("an input")
}

fn select(doc: &Document, id: &str) -> HtmlSelectElement {
    element(doc, id).dyn_into().expect("a select")
}

fn set_text(doc: &Document, id: &str, text: &str) {
    element(doc, id).set_text_content(Some(text));
}

/// Calls `handler` on every `event` of element `id`, for the page's lifetime.
fn on(
    doc: &Document,
    id: &str,
    event: &str,
    handler: impl FnMut(Event) + 'static,
) -> Result<(), JsValue> {
    let closure = Closure::<dyn FnMut(Event)>::new(handler);
    element(doc, id).add_event_listener_with_callback(event, closure.as_ref().unchecked_ref())?;
    // The listener lives as long as the page.
    closure.forget();
    Ok(())
}
