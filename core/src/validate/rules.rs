//! Rules on a team answer that its JSON Schema cannot say and that need no session state: who a
//! halt may be addressed to, a charter that is not blank, a product not both accepted and
//! rejected, content that is real text. They run on the typed answer after the shape is checked,
//! so the JS API's `validateStep` and the engine refuse the same answers. Rules that need the
//! session (which members are operatives, what was assigned) are the team protocol's
//! (`protocol::team::check_output`).

use std::collections::BTreeSet;

use super::fields::quote;
use super::Violation;
use crate::schema::{limits, FinalOutput, Halt, HaltType, Step, StepAnswer};

/// Who a halt may be addressed to: the person, by id or as everyone.
pub const HALT_RECIPIENTS: &[&str] = &["user-1", "u:all"];

fn violation(
    path: String,
    message: String,
    expected: &str,
    received: String,
    hint: &str,
) -> Violation {
    Violation {
        path,
        message,
        expected: expected.into(),
        received,
        hint: hint.into(),
    }
}

/// Every violation of these rules in `answer`, in answer order.
pub fn check(step: Step, answer: &StepAnswer) -> Vec<Violation> {
    let mut errors = Vec::new();
    match answer {
        StepAnswer::Halt { halt } => check_halt(step, halt, &mut errors),
        StepAnswer::FinalOutput { output } => check_output(output, &mut errors),
        StepAnswer::RequestContext { .. } => {}
    }
    errors
}

fn check_halt(step: Step, halt: &Halt, errors: &mut Vec<Violation>) {
    if step == Step::Bootstrap && halt.halt_type == HaltType::Done {
        errors.push(violation(
            "/halt/type".into(),
            "Bootstrap cannot end the session: nothing has been planned or written yet".into(),
            "\"question\"",
            "\"done\"".into(),
            "ask the person a question, or answer with the charter and the initial products",
        ));
    }
    if halt.to.is_empty() {
        errors.push(violation(
            "/halt/to".into(),
            "a halt must be addressed to the person".into(),
            "[\"user-1\"]",
            "[]".into(),
            "address it to [\"user-1\"]",
        ));
    }
    for (i, to) in halt.to.iter().enumerate() {
        if !HALT_RECIPIENTS.contains(&to.as_str()) {
            errors.push(violation(
                format!("/halt/to/{i}"),
                format!("{to} cannot answer a halt: only the person can"),
                "\"user-1\" or \"u:all\"",
                quote(to),
                "address halts to the person; talk to team members with remarks or collabs",
            ));
        }
    }
}

fn blank(path: &str, what: &str, text: &str, errors: &mut Vec<Violation>) {
    if text.trim().is_empty() {
        errors.push(violation(
            path.into(),
            format!("the {what} field is empty"),
            "a non-empty text",
            quote(text),
            &format!("write the {what}; the whole team works from it"),
        ));
    }
}

fn check_output(output: &FinalOutput, errors: &mut Vec<Violation>) {
    match output {
        FinalOutput::Bootstrap(b) => {
            blank("/mission", "mission", &b.mission, errors);
            blank("/objectives", "objectives", &b.objectives, errors);
            blank("/constraints", "constraints", &b.constraints, errors);
        }
        FinalOutput::PlanAssign(p) => {
            if let Some(o) = &p.bootstrap_overrides {
                if let Some(m) = &o.mission {
                    blank("/bootstrapOverrides/mission", "mission", m, errors);
                }
                if let Some(m) = &o.objectives {
                    blank("/bootstrapOverrides/objectives", "objectives", m, errors);
                }
            }
            let mut decided = BTreeSet::new();
            for (i, d) in p.acceptance.iter().enumerate() {
                if !decided.insert(d.product_id.as_str()) {
                    errors.push(violation(
                        format!("/acceptance/{i}/productId"),
                        format!("{} is decided twice in one answer", d.product_id),
                        "each product at most once in acceptance",
                        quote(&d.product_id),
                        "keep one decision per product: accept it or reject it",
                    ));
                }
            }
            for (i, v) in p.chair_versions.iter().flatten().enumerate() {
                check_content(&format!("/chairVersions/{i}/content"), &v.content, errors);
            }
        }
        FinalOutput::Write(w) => {
            for (i, v) in w.versions.iter().enumerate() {
                check_content(
                    &format!("/versions/{i}/newVersion/content"),
                    &v.new_version.content,
                    errors,
                );
            }
        }
        _ => {}
    }
}

/// A product's content: at least [`limits::CONTENT_MIN`] characters that are not blank, no control
/// characters but line breaks and tabs, and not JSON hidden in a code fence.
fn check_content(path: &str, content: &str, errors: &mut Vec<Violation>) {
    let visible = content.trim().chars().count();
    let problem = if visible < limits::CONTENT_MIN {
        Some((
            format!(
                "the content has {visible} characters of text, fewer than {}",
                limits::CONTENT_MIN
            ),
            "write the product itself, in full",
        ))
    } else if content
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        Some((
            "the content holds control characters (such as NUL)".into(),
            "write plain Markdown text; remove the control characters",
        ))
    } else if fenced_json(content) {
        Some((
            "the content is a JSON block in a code fence, not the product's text".into(),
            "write the product as Markdown text; never put JSON inside content",
        ))
    } else {
        None
    };
    if let Some((message, hint)) = problem {
        errors.push(violation(
            path.into(),
            message,
            &format!(
                "Markdown text of at least {} characters",
                limits::CONTENT_MIN
            ),
            quote(content),
            hint,
        ));
    }
}

/// Whether `text` is one fenced code block whose body is JSON.
fn fenced_json(text: &str) -> bool {
    let t = text.trim();
    let Some(rest) = t.strip_prefix("```") else {
        return false;
    };
    let Some(body) = rest.strip_suffix("```") else {
        return false;
    };
    let body = body.split_once('\n').map_or("", |(_, b)| b);
    super::check::is_json_container(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fenced_json_is_found_and_prose_is_not() {
        assert!(fenced_json("```json\n{\"a\": 1}\n```"));
        assert!(fenced_json("  ```\n[1, 2]\n```  "));
        assert!(!fenced_json("```\nnot json at all\n```"));
        assert!(!fenced_json(
            "# Title\n\n```json\n{\"a\": 1}\n```\n\nAnd prose after it."
        ));
    }
}
