//! Unit tests of the envelope's capped lists: recent activity past its caps (every line listed,
//! grouped or counted, never dropped) and the lists that keep what needs attention first.

use super::*;

fn item(round: u32, step: Step, who: &str, what: &str, about: ActivityKind) -> ActivityItem {
    ActivityItem {
        round,
        step,
        who: who.into(),
        what: what.into(),
        about,
    }
}

/// 30 members each remark on something and write a version in round 2: 60 groups, past
/// [`RECENT_MAX`]. The versions written stay listed; the rest is counted after the list.
#[test]
fn past_the_line_cap_the_oldest_groups_are_counted_and_the_versions_written_stay() {
    let members: Vec<String> = (1..=30).map(|i| format!("operative-{i}")).collect();
    let order: Vec<&str> = members.iter().map(String::as_str).collect();
    let mut log = vec![item(
        1,
        Step::Write,
        "operative-1",
        "wrote v1 of p1",
        ActivityKind::Wrote {
            version_id: "v1".into(),
        },
    )];
    for (i, m) in members.iter().enumerate() {
        log.push(item(
            2,
            Step::PlanAssign,
            m,
            &format!("edited p{i}"),
            ActivityKind::Other,
        ));
    }
    for (i, m) in members.iter().enumerate() {
        log.push(item(
            2,
            Step::Write,
            m,
            &format!("wrote v{} of p{i}", i + 2),
            ActivityKind::Wrote {
                version_id: format!("v{}", i + 2),
            },
        ));
    }
    let (lines, counts) = recent_activity(&log, 2, 1, &Shown::default(), &order);
    assert_eq!(lines.len(), RECENT_MAX);
    assert!(
        lines.iter().all(|l| l.what.starts_with("wrote ")),
        "versions written are kept longest"
    );
    // 30 "other" lines and 10 versions written did not fit: all counted, in round 2.
    let other: usize = counts
        .iter()
        .filter(|c| c.not_listed && c.from_round == 2)
        .map(|c| c.counts.split(", ").count())
        .sum();
    assert_eq!(other, 30 + 10, "{counts:?}");
    assert!(counts
        .iter()
        .any(|c| c.who == "operative-1" && c.counts == "1 other action, 1 version"));
    // Round 1 (before the listed rounds) is counted whole, as its own span.
    assert!(counts.iter().any(|c| !c.not_listed
        && c.from_round == 1
        && c.who == "operative-1"
        && c.counts == "1 version"));
}

/// One member's many lines of one kind are one line naming [`GROUP_MAX`] of them, then "and N
/// more".
#[test]
fn one_members_lines_of_one_kind_group_into_one_line() {
    let log: Vec<ActivityItem> = (1..=14)
        .map(|i| {
            item(
                3,
                Step::PlanAssign,
                "chair",
                &format!("accepted v{i} of p{i}"),
                ActivityKind::Accepted,
            )
        })
        .collect();
    let (lines, counts) = recent_activity(&log, 2, 1, &Shown::default(), &["chair"]);
    assert!(counts.is_empty());
    assert_eq!(lines.len(), 1);
    assert_eq!(
        lines[0].what,
        "accepted v1 of p1, v2 of p2, v3 of p3, v4 of p4, v5 of p5, v6 of p6, v7 of p7, v8 of p8, v9 of p9, v10 of p10 and 4 more"
    );
}

/// Rounds long before the listed ones share one span; the last few keep one span each.
#[test]
fn old_rounds_share_one_count_line() {
    let log: Vec<ActivityItem> = (1..=7)
        .map(|r| {
            item(
                r,
                Step::Write,
                "operative-1",
                &format!("wrote v{r} of p1"),
                ActivityKind::Wrote {
                    version_id: format!("v{r}"),
                },
            )
        })
        .collect();
    let (lines, counts) = recent_activity(&log, 7, 3, &Shown::default(), &["operative-1"]);
    assert_eq!(lines.len(), 1);
    let spans: Vec<(u32, u32, &str)> = counts
        .iter()
        .map(|c| (c.from_round, c.to_round, c.counts.as_str()))
        .collect();
    assert_eq!(
        spans,
        vec![
            (1, 3, "3 versions"),
            (4, 4, "1 version"),
            (5, 5, "1 version"),
            (6, 6, "1 version"),
        ]
    );
}

/// Past the cap, what needs attention stays (in order) and the rest is counted.
#[test]
fn a_capped_list_keeps_what_needs_attention_first() {
    let verdicts: Vec<&str> = (0..50)
        .map(|i| {
            if i % 10 == 0 {
                "needs_revision"
            } else {
                "approved"
            }
        })
        .collect();
    let (kept, (left, left_plain)) = keep_first(verdicts.clone(), 8, |v| *v != "approved");
    assert_eq!(kept.len(), 8);
    assert_eq!(kept.iter().filter(|v| **v == "needs_revision").count(), 5);
    assert_eq!((left, left_plain), (42, 42));
    let (kept, left) = keep_first(verdicts, 3, |v| *v != "approved");
    assert_eq!(kept, vec!["needs_revision"; 3]);
    assert_eq!(left, (47, 45));
    let (kept, left) = keep_first(vec![1, 2], 3, |_| false);
    assert_eq!((kept, left), (vec![1, 2], (0, 0)));
}
