//! The product tree: operations applied all-or-nothing, ids, removal and restore, tier rendering,
//! and a property test on random operation sequences.

use proptest::prelude::*;
use roundtable_core::protocol::team::tree::{
    ProductStatus, ProductTree, Tier, TreeError, TreeProblem, VersionDraft, ROOT_ID,
};
use roundtable_core::protocol::team::wire::{
    CollabOutput, CollabType, InitialProduct, NewProduct, ProductPatch, ProductType, TreeOperation,
};

fn initial(name: &str) -> InitialProduct {
    InitialProduct {
        name: name.into(),
        product_type: ProductType::Content,
        dod: format!("{name} is written"),
        owner: Some("operative-1".into()),
    }
}

/// A tree: p0 root, p1 "Agenda", p2 "Budget", p3 "Venue" under the root.
fn sample() -> ProductTree {
    let mut tree = ProductTree::new("Workshop");
    for name in ["Agenda", "Budget", "Venue"] {
        tree.add_initial(&initial(name)).unwrap();
    }
    tree
}

fn add(new_id: &str, parent: &str, name: &str) -> TreeOperation {
    TreeOperation::Add {
        new_id: new_id.into(),
        parent_id: parent.into(),
        product: NewProduct {
            name: name.into(),
            product_type: ProductType::Content,
            dod: "done".into(),
            description: None,
            assignee: None,
        },
        reason: None,
    }
}

fn mv(id: &str, parent: &str) -> TreeOperation {
    TreeOperation::Move {
        product_id: id.into(),
        parent_id: parent.into(),
        reason: None,
    }
}

fn remove(id: &str) -> TreeOperation {
    TreeOperation::Remove {
        product_id: id.into(),
        reason: "not needed".into(),
    }
}

fn update(id: &str, patch: ProductPatch) -> TreeOperation {
    TreeOperation::Update {
        product_id: id.into(),
        product: patch,
        reason: None,
    }
}

fn draft(author: &str) -> VersionDraft {
    VersionDraft {
        title: "Draft".into(),
        content: "Some content that is long enough to read.".into(),
        change_summary: "first draft".into(),
        author: author.into(),
        round: 1,
        directive: None,
        reflection_note: None,
    }
}

/// Applies `ops` to the sample tree and returns the error's index and problem, or panics if the
/// list applied. Also checks that a failed list changed nothing.
fn check_fails(ops: &[TreeOperation]) -> (usize, TreeProblem) {
    let mut tree = sample();
    let before = tree.clone();
    match tree.apply(ops) {
        Ok(_) => panic!("expected {ops:?} to fail"),
        Err(TreeError::Operation { index, reason, .. }) => {
            assert_eq!(tree, before, "a failed list must change nothing");
            (index, reason)
        }
        Err(other) => panic!("unexpected error {other:?}"),
    }
}

fn parent_of(tree: &ProductTree, id: &str) -> Option<String> {
    tree.product(id).unwrap().parent.clone()
}

#[test]
fn ids_are_stable_and_in_creation_order() {
    let mut tree = sample();
    let applied = tree
        .apply(&[
            add("new-1", "p1", "Morning"),
            add("new-2", "new-1", "Coffee"),
        ])
        .unwrap();
    assert_eq!(applied.new_ids["new-1"], "p4");
    assert_eq!(applied.new_ids["new-2"], "p5");
    assert_eq!(parent_of(&tree, "p5").as_deref(), Some("p4"));
    let v1 = tree.add_version("p1", draft("operative-1")).unwrap();
    let v2 = tree.add_version("p2", draft("operative-1")).unwrap();
    assert_eq!((v1.as_str(), v2.as_str()), ("v1", "v2"));
}

#[test]
fn later_operations_may_use_new_ids() {
    let mut tree = sample();
    tree.apply(&[
        add("new-1", ROOT_ID, "Logistics"),
        mv("p3", "new-1"),
        update(
            "new-1",
            ProductPatch {
                dod: Some("all booked".into()),
                ..Default::default()
            },
        ),
    ])
    .unwrap();
    assert_eq!(parent_of(&tree, "p3").as_deref(), Some("p4"));
    assert_eq!(tree.product("p4").unwrap().dod, "all booked");
}

#[test]
fn move_under_own_descendant_fails_and_names_the_operation() {
    let mut tree = sample();
    tree.apply(&[add("new-1", "p1", "Morning")]).unwrap();
    let before = tree.clone();
    let err = tree.apply(&[mv("p2", "p3"), mv("p1", "p4")]).unwrap_err();
    assert_eq!(tree, before);
    assert_eq!(
        err,
        TreeError::Operation {
            index: 1,
            action: "MOVE",
            reason: TreeProblem::Cycle {
                product: "p1".into(),
                parent: "p4".into()
            },
        }
    );
    assert_eq!(
        err.to_string(),
        "operation 1 (MOVE) failed, nothing was applied: p1 cannot move under p4, which is itself or one of its descendants"
    );
    let (index, reason) = check_fails(&[mv("p1", "p1")]);
    assert_eq!(
        (index, reason),
        (
            0,
            TreeProblem::Cycle {
                product: "p1".into(),
                parent: "p1".into()
            }
        )
    );
}

#[test]
fn the_root_cannot_move_or_go() {
    assert_eq!(check_fails(&[remove(ROOT_ID)]).1, TreeProblem::Root);
    assert_eq!(check_fails(&[mv(ROOT_ID, "p1")]).1, TreeProblem::Root);
}

#[test]
fn no_duplicate_sibling_names_case_and_space_insensitive() {
    let (index, reason) = check_fails(&[
        add("new-1", ROOT_ID, "Catering"),
        add("new-2", ROOT_ID, " catering "),
    ]);
    assert_eq!(index, 1);
    // The clashing sibling was added by the same answer: named as the answer named it.
    assert!(
        matches!(reason, TreeProblem::DuplicateSibling { ref existing, .. } if existing == "new-1")
    );
    let (_, reason) = check_fails(&[update(
        "p2",
        ProductPatch {
            name: Some("AGENDA".into()),
            ..Default::default()
        },
    )]);
    assert!(matches!(reason, TreeProblem::DuplicateSibling { .. }));
    // the same name under another parent is fine
    let mut tree = sample();
    tree.apply(&[add("new-1", "p1", "Agenda")]).unwrap();
}

#[test]
fn no_orphans_unknown_or_removed_parents_fail() {
    assert_eq!(
        check_fails(&[add("new-1", "p9", "X")]).1,
        TreeProblem::UnknownProduct("p9".into())
    );
    assert_eq!(
        check_fails(&[add("new-1", "new-2", "X")]).1,
        TreeProblem::UnknownProduct("new-2".into())
    );
    assert_eq!(
        check_fails(&[remove("p1"), mv("p2", "p1")]),
        (1, TreeProblem::RemovedProduct("p1".into()))
    );
    assert_eq!(
        check_fails(&[add("n1", "p1", "X")]).1,
        TreeProblem::BadNewId("n1".into())
    );
    assert_eq!(
        check_fails(&[add("new-1", "p1", "X"), add("new-1", "p1", "Y")]),
        (1, TreeProblem::DuplicateNewId("new-1".into()))
    );
    assert_eq!(
        check_fails(&[add("new-1", "p1", "  ")]).1,
        TreeProblem::EmptyName
    );
}

#[test]
fn remove_takes_the_subtree_out_and_keeps_versions_restorable() {
    let mut tree = sample();
    tree.apply(&[add("new-1", "p1", "Morning")]).unwrap();
    let v = tree.add_version("p4", draft("operative-1")).unwrap();
    tree.apply(&[remove("p1")]).unwrap();
    assert_eq!(tree.product("p1").unwrap().status, ProductStatus::Removed);
    assert_eq!(tree.product("p4").unwrap().status, ProductStatus::Removed);
    assert!(!tree.known().products.contains("p4"));
    assert!(tree.version(&v).is_some(), "versions stay in history");
    assert!(!tree.render(|_| Tier::Minimal).contains("Morning"));
    // a new sibling may now take the removed name, which blocks the restore
    tree.apply(&[add("new-1", ROOT_ID, "Agenda")]).unwrap();
    assert!(matches!(
        tree.restore("p1"),
        Err(TreeError::Change(TreeProblem::DuplicateSibling { .. }))
    ));
    tree.apply(&[remove("p5")]).unwrap();
    tree.restore("p1").unwrap();
    assert_eq!(
        tree.product("p4").unwrap().status,
        ProductStatus::InProgress
    );
    assert!(tree.render(|_| Tier::Minimal).contains("Morning"));
    assert!(matches!(
        tree.restore("p1"),
        Err(TreeError::Change(TreeProblem::NotRestorable(_)))
    ));
}

#[test]
fn update_with_null_assignee_unassigns_and_absent_keeps() {
    let mut tree = sample();
    assert_eq!(
        tree.product("p1").unwrap().assignee.as_deref(),
        Some("operative-1")
    );
    tree.apply(&[update(
        "p1",
        ProductPatch {
            dod: Some("new dod".into()),
            ..Default::default()
        },
    )])
    .unwrap();
    assert_eq!(
        tree.product("p1").unwrap().assignee.as_deref(),
        Some("operative-1")
    );
    tree.apply(&[update(
        "p1",
        ProductPatch {
            assignee: Some(None),
            ..Default::default()
        },
    )])
    .unwrap();
    assert_eq!(tree.product("p1").unwrap().assignee, None);
    // and the wire form: `"assignee": null` vs no field
    let with_null: TreeOperation =
        serde_json::from_str(r#"{"action":"UPDATE","productId":"p1","product":{"assignee":null}}"#)
            .unwrap();
    let without: TreeOperation =
        serde_json::from_str(r#"{"action":"UPDATE","productId":"p1","product":{}}"#).unwrap();
    assert!(
        matches!(with_null, TreeOperation::Update { ref product, .. } if product.assignee == Some(None))
    );
    assert!(
        matches!(without, TreeOperation::Update { ref product, .. } if product.assignee.is_none())
    );
}

#[test]
fn acceptance_follows_versions() {
    let mut tree = sample();
    let v1 = tree.add_version("p1", draft("operative-1")).unwrap();
    tree.accept("p1", &v1).unwrap();
    assert_eq!(tree.product("p1").unwrap().status, ProductStatus::Accepted);
    tree.add_version("p1", draft("operative-1")).unwrap();
    assert_eq!(
        tree.product("p1").unwrap().status,
        ProductStatus::InProgress
    );
    assert_eq!(tree.product("p1").unwrap().selected_version(), Some("v1"));
    let err = tree.accept("p2", &v1).unwrap_err();
    assert!(matches!(
        err,
        TreeError::Change(TreeProblem::VersionOfOtherProduct { .. })
    ));
    tree.reject("p1", "too short").unwrap();
    assert_eq!(
        tree.product("p1").unwrap().rejection_reason.as_deref(),
        Some("too short")
    );
    assert!(
        tree.render(|_| Tier::Minimal)
            .contains("Last rejection: too short"),
        "the next writer sees why"
    );
}

#[test]
fn duplicate_comments_are_refused() {
    let mut tree = sample();
    let collab = CollabOutput {
        refers_to_product: "p1".into(),
        collab_type: CollabType::Suggestion,
        importance: 5,
        comment: "Add a lunch break.".into(),
        shortest_summary: "lunch".into(),
        refers_to_version: None,
        references_product_ids: None,
        addressee_ids: None,
        responding_to_collab_ids: None,
    };
    assert_eq!(tree.add_collab("operative-2", 1, &collab).unwrap(), "c1");
    assert!(matches!(
        tree.add_collab("operative-2", 1, &collab),
        Err(TreeError::Change(TreeProblem::DuplicateCollab { .. }))
    ));
    assert_eq!(tree.add_collab("operative-3", 1, &collab).unwrap(), "c2");
}

#[test]
fn render_tiers() {
    let mut tree = sample();
    tree.apply(&[add("new-1", "p1", "Morning session")])
        .unwrap();
    let v = tree
        .add_version(
            "p1",
            VersionDraft {
                content: "## Agenda\n- 9:00 welcome\n- 9:30 talks".into(),
                ..draft("operative-1")
            },
        )
        .unwrap();
    tree.set_reflection_note(&v, "needs timings".into())
        .unwrap();
    tree.add_collab(
        "operative-2",
        1,
        &CollabOutput {
            refers_to_product: "p1".into(),
            collab_type: CollabType::Concern,
            importance: 7,
            comment: "The morning is too packed.".into(),
            shortest_summary: "too packed".into(),
            refers_to_version: Some(v.clone()),
            references_product_ids: None,
            addressee_ids: Some(vec!["operative-1".into()]),
            responding_to_collab_ids: None,
        },
    )
    .unwrap();
    let minimal = tree.render(|_| Tier::Minimal);
    let extra = tree.render(|p| {
        if p.id == "p1" {
            Tier::Extra
        } else {
            Tier::Minimal
        }
    });
    let full = tree.render(|p| {
        if p.id == "p1" {
            Tier::Full
        } else {
            Tier::Minimal
        }
    });
    assert!(!minimal.contains("9:00 welcome") && extra.contains("9:00 welcome"));
    assert!(!extra.contains("too packed") && full.contains("too packed"));
    insta::assert_snapshot!("render_minimal", minimal);
    insta::assert_snapshot!("render_full_p1", full);
}

/// A random operation over a small id space, so that many of them are valid and many are not.
fn any_op() -> impl Strategy<Value = TreeOperation> {
    let id = prop_oneof![
        (0u8..12).prop_map(|n| format!("p{n}")),
        (1u8..4).prop_map(|n| format!("new-{n}"))
    ];
    let name = prop::sample::select(vec!["A", "B", "C", "a", "D"]).prop_map(String::from);
    prop_oneof![
        (
            (1u8..4).prop_map(|n| format!("new-{n}")),
            id.clone(),
            name.clone()
        )
            .prop_map(|(n, p, name)| add(&n, &p, &name)),
        id.clone().prop_map(|p| remove(&p)),
        (id.clone(), id.clone()).prop_map(|(p, q)| mv(&p, &q)),
        (
            id,
            prop::option::of(name),
            prop::option::of(prop::option::of(Just("operative-2".to_string())))
        )
            .prop_map(|(p, name, assignee)| update(
                &p,
                ProductPatch {
                    name,
                    assignee,
                    ..Default::default()
                }
            )),
    ]
}

/// Every live product reaches the root through live parents, no cycle, ids unique, siblings'
/// names unique.
fn assert_invariants(tree: &ProductTree) {
    let products = tree.products();
    let mut ids = std::collections::BTreeSet::new();
    for (i, p) in products.iter().enumerate() {
        assert_eq!(p.id, format!("p{i}"));
        assert!(ids.insert(p.id.clone()));
        if p.status == ProductStatus::Removed {
            continue;
        }
        let mut cursor = p.parent.clone();
        let mut steps = 0;
        while let Some(parent) = cursor {
            let parent = tree.product(&parent).expect("parent exists");
            assert_ne!(
                parent.status,
                ProductStatus::Removed,
                "live {} under removed {}",
                p.id,
                parent.id
            );
            steps += 1;
            assert!(steps <= products.len(), "cycle through {}", p.id);
            cursor = parent.parent.clone();
        }
        assert!(p.id == ROOT_ID || steps > 0);
        let clash = products.iter().any(|q| {
            q.id != p.id
                && q.status != ProductStatus::Removed
                && q.parent == p.parent
                && q.name.trim().to_lowercase() == p.name.trim().to_lowercase()
        });
        assert!(!clash, "duplicate sibling name {}", p.name);
    }
    assert_eq!(tree.walk().len(), tree.known().products.len());
}

proptest! {
    #[test]
    fn random_operation_lists_keep_the_tree_sound(lists in prop::collection::vec(prop::collection::vec(any_op(), 1..5), 1..12)) {
        let mut tree = sample();
        for ops in lists {
            let before = tree.clone();
            match tree.apply(&ops) {
                Ok(applied) => {
                    for id in applied.new_ids.values() {
                        prop_assert!(tree.product(id).is_some());
                    }
                }
                Err(_) => prop_assert_eq!(&tree, &before, "a failed list changed the tree"),
            }
            assert_invariants(&tree);
        }
    }
}

#[test]
fn many_initial_products_are_added_in_one_pass_and_a_duplicate_still_refuses_them_all() {
    let mut tree = ProductTree::new("Catalogue");
    let mut list: Vec<InitialProduct> = (0..2000).map(|i| initial(&format!("Part {i}"))).collect();
    let ids = tree.add_initials(&list).unwrap();
    assert_eq!(ids.len(), 2000);
    assert_eq!(tree.walk().len(), 2001);
    // A name already used (case and spaces aside), in a later batch or inside the same one.
    let before = tree.clone();
    assert!(tree.add_initials(&[initial("  part 17 ")]).is_err());
    list.truncate(30);
    for p in &mut list {
        p.name = format!("New {}", p.name);
    }
    list.push(initial("NEW PART 3"));
    assert!(tree.add_initials(&list).is_err());
    assert_eq!(tree, before, "nothing of a refused batch is added");
}

#[test]
fn the_tree_is_at_most_twelve_levels_deep() {
    use roundtable_core::protocol::team::wire::limits::TREE_DEPTH_MAX;
    // p1 is at depth 1; a chain of ADDs under it reaches depth TREE_DEPTH_MAX and no further.
    let chain = |n: usize| -> Vec<TreeOperation> {
        (1..=n)
            .map(|i| {
                let parent = if i == 1 {
                    "p1".to_string()
                } else {
                    format!("new-{}", i - 1)
                };
                add(&format!("new-{i}"), &parent, &format!("Level {}", i + 1))
            })
            .collect()
    };
    let mut tree = sample();
    tree.apply(&chain(TREE_DEPTH_MAX - 1)).unwrap();
    let deepest = tree.walk().iter().map(|(d, _)| *d).max().unwrap();
    assert_eq!(deepest, TREE_DEPTH_MAX);

    // One more level is refused, naming the operation, its new id and the depth.
    let (index, problem) = check_fails(&chain(TREE_DEPTH_MAX));
    assert_eq!(index, TREE_DEPTH_MAX - 1);
    assert_eq!(
        problem,
        TreeProblem::TooDeep {
            product: format!("new-{TREE_DEPTH_MAX}"),
            parent: format!("new-{}", TREE_DEPTH_MAX - 1),
            depth: TREE_DEPTH_MAX + 1,
        }
    );

    // A MOVE counts the levels below the product moved: p2 with a child under the deepest-but-one
    // product would put the child one level too deep.
    let mut ops = chain(TREE_DEPTH_MAX - 2);
    ops.push(add("new-99", "p2", "Child of Budget"));
    ops.push(mv("p2", &format!("new-{}", TREE_DEPTH_MAX - 2)));
    let (index, problem) = check_fails(&ops);
    assert_eq!(index, ops.len() - 1);
    assert!(
        matches!(problem, TreeProblem::TooDeep { ref product, depth, .. } if product == "p2" && depth == TREE_DEPTH_MAX + 1),
        "{problem:?}"
    );
    // Without the child it fits exactly.
    let mut ops = chain(TREE_DEPTH_MAX - 2);
    ops.push(mv("p2", &format!("new-{}", TREE_DEPTH_MAX - 2)));
    sample().apply(&ops).unwrap();
}
