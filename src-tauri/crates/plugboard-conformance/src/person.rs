//! The stand-in for the person at the window's dialogs. What a server asks a person reaches the queue the window
//! reads (`plugboard_core::person`), and this answers it as a person would who accepts every form as the window
//! shows it, pre-filled with the schema's `default`s (the window's forms start from those and nothing else), who
//! declines to write a message in an LLM's place or to open a page, and who shares no folder. The suite's servers
//! check what a client sends back (SEP-1034's defaults, a multi-round-trip tool's answers). It answers only through
//! the queue, as the window does, and must never run inside the app: there, only the person answers.

use std::sync::Arc;

use plugboard_core::person::{FormAction, PendingRequest, PersonError, PersonEvent, PersonRequests, RequestKind};
use serde_json::Value;
use tokio::sync::broadcast::error::RecvError;
use tokio::task::JoinHandle;

/// Answers every request of `person`'s queue from now on, until aborted.
pub fn stand_in(person: Arc<PersonRequests>) -> JoinHandle<()> {
    // Subscribed before the task runs, so a request queued meanwhile is not missed.
    let mut events = person.subscribe();
    tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(PersonEvent::Arrived(request)) => answer(&person, &request),
                Ok(_) => {}
                // The arrivals missed are still waiting in the queue.
                Err(RecvError::Lagged(_)) => person.pending().iter().for_each(|request| answer(&person, request)),
                Err(RecvError::Closed) => return,
            }
        }
    })
}

fn answer(person: &PersonRequests, request: &PendingRequest) {
    let id = request.id;
    let answered = match &request.ask {
        RequestKind::Elicitation { schema, .. } => {
            let form = prefilled(schema);
            println!("the person accepts the form as shown: {form}");
            person.answer_elicitation(id, FormAction::Accept, Some(&form))
        }
        RequestKind::Sampling { .. } => {
            println!("the person declines to write a message");
            person.answer_sampling(id, None)
        }
        RequestKind::Roots => {
            println!("the person shares no folder");
            person.answer_roots(id, Some(&[]))
        }
        RequestKind::OpenLink { .. } => {
            println!("the person declines to open a page");
            person.answer_link(id, FormAction::Decline)
        }
        other => {
            println!("the person has no answer to {other:?}");
            return;
        }
    };
    match answered {
        // Answered already (met again after a lag), or withdrawn by the server meanwhile.
        Ok(()) | Err(PersonError::NotFound { .. }) => {}
        Err(refused) => println!("the window refused the person's answer: {refused}"),
    }
}

/// The form as the window shows it, as JSON text: each property's `default`, and no value for a property without one.
fn prefilled(schema: &str) -> String {
    let schema: Value = serde_json::from_str(schema).unwrap_or_default();
    Value::Object(plugboard_core::transport::schema_defaults(&schema)).to_string()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use plugboard_core::person::{Asked, PersonAnswer};
    use serde_json::json;

    use super::*;

    /// The form keeps each property's default, of whatever type, an object property's own defaults within it, and
    /// leaves out a property without one.
    #[test]
    fn the_form_is_its_defaults() {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "score": {"type": "number", "default": 95.5},
                "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
                "verified": {"type": "boolean", "default": true},
                "nickname": {"type": "string"},
                "address": {"type": "object", "properties": {"city": {"type": "string", "default": "Lyon"}}}
            }
        });
        let form: Value = serde_json::from_str(&prefilled(&schema.to_string())).expect("JSON");
        let defaults = json!({"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": true});
        let mut with_address = defaults.as_object().expect("an object").clone();
        with_address.insert("address".into(), json!({"city": "Lyon"}));
        assert_eq!(form, Value::Object(with_address));
        assert_eq!(prefilled(r#"{"type": "object"}"#), "{}");
    }

    /// Through the queue the window reads: a form is accepted with its defaults, sampling is declined, roots are
    /// answered with no folder.
    #[tokio::test]
    async fn answers_through_the_queue() {
        let person = Arc::new(PersonRequests::new(Duration::from_secs(5)));
        let task = stand_in(Arc::clone(&person));
        let never = std::future::pending::<()>;

        let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean", "default": true}}}).to_string();
        let form = RequestKind::Elicitation { message: "confirm?".into(), schema };
        let content = json!({"ok": true}).as_object().cloned();
        let accepted = Asked::Answered(PersonAnswer::Form { action: FormAction::Accept, content });
        assert_eq!(person.ask("s", form, never()).await, accepted);

        let sampling = RequestKind::Sampling { messages: Vec::new(), system_prompt: None, max_tokens: 10 };
        assert_eq!(person.ask("s", sampling, never()).await, Asked::Answered(PersonAnswer::Sampling(None)));
        let no_folder = Asked::Answered(PersonAnswer::Roots(Some(Vec::new())));
        assert_eq!(person.ask("s", RequestKind::Roots, never()).await, no_folder);
        task.abort();
    }
}
