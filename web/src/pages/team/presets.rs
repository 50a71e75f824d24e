//! Team presets for the new-session form: the domains spec 003 names (research lab, startup
//! crew, book authors, legal team, debate squad), each a chair, operatives with a role, and
//! optionally an inspector and an envoy.

use roundtable_core::protocol::team::TeamRole;

/// One member of a preset, before a provider is chosen.
#[derive(Debug, Clone, Copy)]
pub struct PresetMember {
    /// Display name.
    pub name: &'static str,
    /// Free-text role.
    pub role: &'static str,
    /// Place in the protocol.
    pub team_role: TeamRole,
}

/// A ready-made team.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// Stable id for tests and the `aria-pressed` state.
    pub id: &'static str,
    /// Button label.
    pub label: &'static str,
    /// Team name.
    pub team_name: &'static str,
    /// What the team is for.
    pub description: &'static str,
    /// An example request, shown as the placeholder.
    pub example: &'static str,
    /// The members, chair first.
    pub members: &'static [PresetMember],
    /// Words in a request that this team fits (matched at word starts, lower case).
    pub fits: &'static [&'static str],
}

const fn m(name: &'static str, role: &'static str, team_role: TeamRole) -> PresetMember {
    PresetMember {
        name,
        role,
        team_role,
    }
}

use TeamRole::{Chair, Envoy, Inspector, Operative};

/// Every preset, in the order the form shows them. The first fits any request and is the one
/// suggested when no other fits.
pub const PRESETS: &[Preset] = &[
    Preset {
        id: "project-crew",
        label: "Project crew",
        team_name: "Project Crew",
        description: "A small team that plans and organises a practical project or event: the plan, the logistics, the budget and the checklist.",
        example: "Plan a book swap in the village hall for 40 people with a £50 budget.",
        members: &[
            m("Sam Okafor", "Project lead", Chair),
            m("Mia Lund", "Organiser", Operative),
            m("Jon Berg", "Logistics and budget", Operative),
            m("Ines Duarte", "Reviewer", Inspector),
        ],
        fits: &[],
    },
    Preset {
        id: "research-lab",
        label: "Research lab",
        team_name: "Research Lab",
        description: "An academic group that turns a question into a literature review, a method and findings.",
        example: "Survey what is known about sleep and memory consolidation in adults, and propose a small study.",
        members: &[
            m("Dr. Ada Chen", "Principal investigator", Chair),
            m("Ravi Patel", "Literature reviewer", Operative),
            m("Lena Novak", "Methods and statistics", Operative),
            m("Tomás Ruiz", "Peer reviewer", Inspector),
        ],
        fits: &["research", "study", "studies", "literature", "survey", "hypothes", "experiment", "paper", "evidence", "scientific", "thesis"],
    },
    Preset {
        id: "startup-crew",
        label: "Startup crew",
        team_name: "Startup Crew",
        description: "A founding team that turns an idea into a product brief, a go-to-market plan and a pitch.",
        example: "Plan the launch of a mobile app that helps neighbours share tools.",
        members: &[
            m("Maya Brooks", "CEO", Chair),
            m("Jon Park", "Product lead", Operative),
            m("Sara Okafor", "Growth marketer", Operative),
            m("Leo Grant", "Engineering lead", Operative),
            m("Nina Hale", "Investor-minded critic", Inspector),
            m("Ola Berg", "Pitch presenter", Envoy),
        ],
        fits: &["launch", "startup", "start-up", "product", "market", "pitch", "customer", "pricing", "app ", "business", "investor"],
    },
    Preset {
        id: "book-authors",
        label: "Book authors",
        team_name: "Writers' Room",
        description: "Co-authors who outline, draft and edit a book chapter by chapter.",
        example: "Write the outline and first chapter of a cosy mystery set in a lighthouse.",
        members: &[
            m("Iris Vale", "Lead author", Chair),
            m("Theo Marsh", "Plot and structure", Operative),
            m("June Ito", "Characters and dialogue", Operative),
            m("Paul Reed", "Copy editor", Inspector),
        ],
        fits: &["novel", "chapter", "story", "stories", "manuscript", "fiction", "poem", "screenplay", "write a book", "memoir"],
    },
    Preset {
        id: "legal-team",
        label: "Legal team",
        team_name: "Legal Team",
        description: "Counsel who research, draft and review a memo or contract.",
        example: "Draft a plain-language privacy policy for a small online shop in the EU.",
        members: &[
            m("Helen Ward", "Senior counsel", Chair),
            m("Omar Aziz", "Research associate", Operative),
            m("Clara Stein", "Drafting associate", Operative),
            m("Victor Lang", "Compliance reviewer", Inspector),
            m("Rosa Diaz", "Client liaison", Envoy),
        ],
        fits: &["legal", "contract", "law", "policy", "privacy", "compliance", "gdpr", "terms", "licence", "license", "lease"],
    },
    Preset {
        id: "debate-squad",
        label: "Debate squad",
        team_name: "Debate Squad",
        description: "A split team that argues both sides of a motion and a judge who weighs them.",
        example: "Should cities ban cars from their centres? Prepare both cases and a verdict.",
        members: &[
            m("Judge Amara Lee", "Moderator", Chair),
            m("Ben Carter", "Proposition speaker", Operative),
            m("Eva Rossi", "Opposition speaker", Operative),
            m("Sam Kline", "Fact checker", Inspector),
        ],
        fits: &["debate", "should ", "motion", "pros and cons", "argue", "for and against", "versus"],
    },
];

/// The preset that fits a request best: the one with most of its `fits` words at a word start
/// in the request (ties go to the earlier preset), else the general first one. A book swap is
/// a project, not a research lab.
pub fn suggest(request: &str) -> &'static Preset {
    let lower = format!(" {}", request.to_lowercase());
    let hits = |p: &Preset| {
        p.fits
            .iter()
            .filter(|w| {
                lower.match_indices(**w).any(|(i, _)| {
                    lower[..i]
                        .chars()
                        .next_back()
                        .is_none_or(|c| !c.is_alphanumeric())
                })
            })
            .count()
    };
    PRESETS
        .iter()
        .fold((&PRESETS[0], 0), |(best, n), p| {
            let h = hits(p);
            if h > n {
                (p, h)
            } else {
                (best, n)
            }
        })
        .0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suggested_preset_fits_the_request() {
        let id = |r: &str| suggest(r).id;
        assert_eq!(
            id("Plan a book swap in the village hall for 40 people."),
            "project-crew"
        );
        assert_eq!(
            id("Survey the literature on sleep and memory"),
            "research-lab"
        );
        assert_eq!(
            id("Plan the launch of our app to the first customers"),
            "startup-crew"
        );
        assert_eq!(
            id("Write the first chapter of a cosy mystery novel"),
            "book-authors"
        );
        assert_eq!(
            id("Draft a privacy policy and terms for our shop"),
            "legal-team"
        );
        assert_eq!(
            id("Should cities ban cars? Prepare the debate."),
            "debate-squad"
        );
        assert_eq!(id(""), "project-crew");
        // Every preset's own example fits it.
        for p in PRESETS {
            assert_eq!(suggest(p.example).id, p.id, "{}", p.example);
        }
    }
}
