//! The dialectic's result as Markdown, for the report download: the query, the thesis, each
//! critique under its critic's name with the contradictions it found, then the synthesis with its
//! research proposals (or the single shot's three parts). Raw model text: the export makes it
//! safe for any viewer.

use std::fmt::Write as _;

use super::answer::{Contradiction, ResearchProposal};
use super::DialecticState;

/// The report of `s` as it stands (a phase not written yet is left out).
pub fn markdown(s: &DialecticState) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Dialectic\n");
    let _ = writeln!(out, "> {}\n", s.config.query.trim().replace('\n', "\n> "));
    if let Some(shot) = &s.single_shot {
        section(&mut out, "Thesis", &shot.thesis);
        section(&mut out, "Antithesis", &shot.antithesis);
        contradictions(&mut out, &shot.contradictions);
        section(&mut out, "Synthesis", &shot.synthesis);
        proposals(&mut out, &shot.research_proposals);
        return out;
    }
    if let Some(t) = &s.thesis {
        section(
            &mut out,
            &format!("Thesis — {}", s.config.thesis.name),
            &t.thesis,
        );
    }
    for c in s.critiques_in_order() {
        section(
            &mut out,
            &format!("Antithesis — {}", c.critic.name),
            &c.antithesis.antithesis,
        );
        contradictions(&mut out, &c.antithesis.contradictions);
    }
    if let Some(syn) = &s.synthesis {
        section(
            &mut out,
            &format!("Synthesis — {}", s.config.synthesis.name),
            &syn.synthesis,
        );
        if let Some(result) = &syn.result {
            let pretty = serde_json::to_string_pretty(result).unwrap_or_default();
            let _ = writeln!(out, "```json\n{pretty}\n```\n");
        }
        proposals(&mut out, &syn.research_proposals);
    }
    out
}

fn section(out: &mut String, heading: &str, body: &str) {
    let _ = writeln!(out, "## {heading}\n\n{}\n", body.trim());
}

fn contradictions(out: &mut String, list: &[Contradiction]) {
    if list.is_empty() {
        return;
    }
    let _ = writeln!(out, "**Contradictions**\n");
    for c in list {
        let _ = writeln!(out, "- {} — *{}*", c.description.trim(), c.evidence.trim());
    }
    out.push('\n');
}

fn proposals(out: &mut String, list: &[ResearchProposal]) {
    if list.is_empty() {
        return;
    }
    let _ = writeln!(out, "**Research proposals**\n");
    for p in list {
        let _ = writeln!(
            out,
            "- {} (would show: {})",
            p.proposal.trim(),
            p.testable_prediction.trim()
        );
    }
    out.push('\n');
}
