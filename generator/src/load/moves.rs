//! Where the up-read document's parts came from: JSON pointers of the normalised document
//! mapped back to the user's document, so every diagnostic names the place the user wrote.

/// One relocation: pointers at or below `now` (in the normalised document) stand for the
/// same place below `was` (in the user's document).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Move {
    now: String,
    was: String,
    /// Whether `now` itself maps to `was` (false: only pointers strictly below it do, because
    /// the object at `now` is a rewrite of something else that keeps its own place).
    whole: bool,
}

/// The relocations the normaliser made, composed: each entry maps straight to the user's
/// document, so one replacement (the longest matching prefix) is always enough.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Moves {
    moves: Vec<Move>,
    /// The relocations of the stage before this one (a Swagger 2.0 conversion, the bundling
    /// of other files), applied after this stage's own.
    earlier: Option<Box<Moves>>,
}

impl Moves {
    /// Records that `now` (and what is below it) was at `was`; nothing when they agree.
    pub fn record(&mut self, now: &str, was: &str, whole: bool) {
        if now != was {
            self.moves.push(Move {
                now: now.to_string(),
                was: was.to_string(),
                whole,
            });
        }
    }

    /// The pointer in the user's document for a pointer of the normalised one.
    pub fn original(&self, pointer: &str) -> String {
        let here = self.own(pointer);
        match &self.earlier {
            Some(earlier) => earlier.original(&here),
            None => here,
        }
    }

    /// These moves, then `earlier`'s (the stage that ran before): one map from the last
    /// stage's pointers to the user's files.
    pub fn after(mut self, earlier: Moves) -> Moves {
        if earlier.is_empty() {
            return self;
        }
        self.earlier = Some(Box::new(match self.earlier.take() {
            Some(mine) => mine.after(earlier),
            None => earlier,
        }));
        self
    }

    fn own(&self, pointer: &str) -> String {
        let found = self
            .moves
            .iter()
            .filter(|m| {
                (m.whole && pointer == m.now)
                    || pointer
                        .strip_prefix(m.now.as_str())
                        .is_some_and(|rest| rest.starts_with('/'))
            })
            .max_by_key(|m| m.now.len());
        match found {
            Some(m) => format!("{}{}", m.was, &pointer[m.now.len()..]),
            None => pointer.to_string(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.earlier.as_ref().is_none_or(|e| e.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_prefix_wins_and_whole_is_respected() {
        let mut m = Moves::default();
        m.record("/x-apigen-webhooks", "/webhooks", true);
        m.record(
            "/x-apigen-webhooks/a/post",
            "/components/pathItems/A/post",
            true,
        );
        m.record(
            "/components/schemas/A",
            "/components/schemas/A/anyOf/0",
            false,
        );
        assert_eq!(m.original("/x-apigen-webhooks/a"), "/webhooks/a");
        assert_eq!(
            m.original("/x-apigen-webhooks/a/post/responses"),
            "/components/pathItems/A/post/responses"
        );
        assert_eq!(m.original("/components/schemas/A"), "/components/schemas/A");
        assert_eq!(
            m.original("/components/schemas/A/properties/b"),
            "/components/schemas/A/anyOf/0/properties/b"
        );
        assert_eq!(
            m.original("/components/schemas/AB"),
            "/components/schemas/AB"
        );
    }

    #[test]
    fn stages_compose() {
        let mut bundled = Moves::default();
        bundled.record("/components/schemas/Pet", "schemas/Pet.yaml#", true);
        let mut normalized = Moves::default();
        normalized.record("/x-apigen-webhooks", "/webhooks", true);
        normalized.record(
            "/components/schemas/Pet/properties/tags",
            "/components/schemas/Pet/properties/tag",
            true,
        );
        let m = normalized.after(bundled);
        assert_eq!(
            m.original("/components/schemas/Pet/properties/tags/items"),
            "schemas/Pet.yaml#/properties/tag/items"
        );
        assert_eq!(m.original("/components/schemas/Pet"), "schemas/Pet.yaml#");
        assert_eq!(m.original("/x-apigen-webhooks/a"), "/webhooks/a");
        assert!(!m.is_empty());
    }
}
