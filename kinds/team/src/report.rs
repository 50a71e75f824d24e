//! The team's result as Markdown, for the report download: the tree in order, each product with
//! its accepted version (or its latest, marked as not accepted), then the presentation. Raw model
//! text: the export makes it safe for any viewer.

use std::fmt::Write as _;

use super::TeamState;

/// The report of `s` as it stands. People by name, never by their ids (a report is read by
/// people; the prompts use the ids).
pub fn markdown(s: &TeamState) -> String {
    let name = |id: &str| -> String {
        s.members
            .iter()
            .find(|m| m.id == id)
            .map_or_else(|| id.to_string(), |m| m.name.clone())
    };
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", s.team_name);
    let _ = writeln!(out, "> {}\n", s.request.trim().replace('\n', "\n> "));
    if let Some(c) = &s.charter {
        let _ = writeln!(
            out,
            "**Mission.** {}\n\n**Objectives.** {}\n\n**Constraints.** {}\n",
            c.mission.trim(),
            c.objectives.trim(),
            c.constraints.trim()
        );
    }
    for (depth, p) in s.tree.walk() {
        if depth == 0 {
            continue;
        }
        let level = (depth + 1).min(6);
        let _ = writeln!(out, "{} {} ({})\n", "#".repeat(level), p.name, p.id);
        let accepted = p
            .accepted_version
            .as_deref()
            .and_then(|v| s.tree.version(v));
        let latest = p.latest_version().and_then(|v| s.tree.version(v));
        match (accepted, latest) {
            (Some(v), _) => {
                let _ = writeln!(
                    out,
                    "_Accepted version {} by {}, round {}._\n",
                    v.id,
                    name(&v.author),
                    v.round
                );
                let _ = writeln!(out, "{}\n", v.content.trim());
            }
            (None, Some(v)) => {
                let _ = writeln!(
                    out,
                    "_Not accepted yet. Latest version {} by {}, round {}._\n",
                    v.id,
                    name(&v.author),
                    v.round
                );
                let _ = writeln!(out, "{}\n", v.content.trim());
            }
            (None, None) => {
                let _ = writeln!(
                    out,
                    "_No version yet._ Definition of done: {}\n",
                    p.dod.trim()
                );
            }
        }
    }
    if !s.presentation.is_empty() {
        out.push_str("## Presentation\n\n");
        for m in &s.presentation {
            let _ = writeln!(out, "**{}:** {}\n", name(&m.as_agent), m.content.trim());
        }
    }
    out
}
