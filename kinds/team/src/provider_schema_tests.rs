//! The provider forms of the team's step schemas (`roundtable_engine::provider_schema`), checked
//! against each family's published rules: here, beside the schemas they read, since the engine
//! names no kind.

use roundtable_engine::engine::{IdChoice, SchemaForm};
use roundtable_engine::provider_rules::Family;
use roundtable_engine::provider_schema::*;
use serde_json::{json, Value};

use crate::answer_schema::{step_schema, SchemaFlavor};
use crate::wire::Step;

/// Every step's form in every family meets that family's published rules (the narrowed
/// forms of a large session: `tests/provider_rules.rs`).
#[test]
fn the_forms_and_the_checkers_walk_the_same_places() {
    // The forms' walk and the checkers' walk read one list of the keywords that hold
    // subschemas: over every plain step schema and every family's form they visit the same
    // positions, so a keyword the checker reads cannot be one the form leaves unvisited.
    for step in Step::ALL {
        let plain = step_schema(step, SchemaFlavor::Plain);
        let mut forms = vec![plain.clone()];
        forms.extend(Family::ALL.map(|f| for_family(f, &plain).schema));
        for schema in forms {
            let mut walked = 0;
            walk_schemas(&mut schema.clone(), &mut |_| walked += 1);
            assert_eq!(
                walked,
                roundtable_engine::provider_rules::nodes(&schema).len(),
                "{step}"
            );
        }
    }
}

#[test]
fn every_steps_form_meets_its_familys_rules() {
    for step in Step::ALL {
        let plain = step_schema(step, SchemaFlavor::Plain);
        for family in Family::ALL {
            let fitted = for_family(family, &plain);
            let breaks = roundtable_engine::provider_rules::check(family, &fitted.schema);
            assert!(breaks.is_empty(), "{step} {family:?}: {breaks:?}");
            assert_eq!(fitted.form, SchemaForm::Full, "{step} {family:?}");
        }
    }
}

#[test]
fn grammars_leave_string_lengths_and_long_limits_to_the_validator() {
    let g = grammar(&step_schema(Step::Write, SchemaFlavor::Plain));
    let text = g.to_string();
    assert!(!text.contains("\"maxLength\""), "{text}");
    assert!(text.contains("\"minLength\""), "{text}");
    let p = grammar(&step_schema(Step::Reflect, SchemaFlavor::Plain)).to_string();
    assert!(p.contains("\"minItems\""), "{p}");
}

#[test]
fn openai_tree_operations_are_one_object_with_every_action() {
    let s = openai_strict(&step_schema(Step::PlanAssign, SchemaFlavor::Plain));
    let op = &s["$defs"]["TreeOperation"];
    assert!(op.get("anyOf").is_none(), "{op}");
    assert_eq!(
        op["properties"]["action"]["enum"],
        json!(["ADD", "REMOVE", "MOVE", "UPDATE"])
    );
    assert_eq!(
        op["required"],
        json!([
            "action",
            "newId",
            "parentId",
            "product",
            "productId",
            "reason"
        ])
    );
}

#[test]
fn strict_maps_become_pairs_that_turn_back_into_the_map() {
    let plain = step_schema(Step::Bootstrap, SchemaFlavor::Plain);
    let choices = [IdChoice::new("personas/@keys", ["chair-1", "operative-1"])];
    let s = openai_strict(&narrow(&plain, &choices));
    let personas = &s["properties"]["personas"];
    // (nullable: the flattened root leaves a branch's fields optional)
    assert_eq!(personas["type"], json!(["array", "null"]));
    assert_eq!(
        personas["items"]["properties"]["key"]["enum"],
        json!(["chair-1", "operative-1"])
    );
    let answer = r#"{"responseType":"final_output","personas":[{"key":"chair-1","value":"Leads."}],"operativeDomains":[]}"#;
    let back: Value = serde_json::from_str(&plain_answer(&plain, answer).unwrap()).unwrap();
    assert_eq!(back["personas"], json!({"chair-1": "Leads."}));
    assert_eq!(back["operativeDomains"], json!({}));
    // Gemini and grammars keep the map, with the keys named.
    let g = gemini(&narrow(&plain, &choices));
    assert_eq!(
        g["properties"]["personas"]["additionalProperties"],
        json!(false)
    );
    assert!(g["properties"]["personas"]["properties"]["operative-1"].is_object());
}

#[test]
fn the_flattened_root_keeps_every_branch_and_requires_only_the_tag() {
    let plain = step_schema(Step::PlanAssign, SchemaFlavor::Plain);
    let s = gemini(&plain);
    assert_eq!(
        s["properties"]["responseType"]["enum"],
        json!(["request_context", "halt", "final_output"])
    );
    assert_eq!(s["required"], json!(["responseType"]));
    let props = s["properties"].as_object().unwrap();
    assert!(props.contains_key("contextRequests"));
    assert!(props.contains_key("halt"));
    assert!(props.contains_key("treeOperations"), "{:?}", props.keys());
    // the tree operations keep their tag as a one-value enum
    let ops = s["$defs"]["TreeOperation"]["anyOf"].as_array().unwrap();
    let actions: Vec<&Value> = ops
        .iter()
        .map(|o| &o["properties"]["action"]["enum"][0])
        .collect();
    assert_eq!(
        actions,
        [
            &json!("ADD"),
            &json!("REMOVE"),
            &json!("MOVE"),
            &json!("UPDATE")
        ]
    );
}

#[test]
fn constant_unions_become_enums_that_keep_their_meanings() {
    let plain = step_schema(Step::PlanAssign, SchemaFlavor::Plain);
    let s = openai_strict(&plain);
    let halt_type = &s["$defs"]["HaltType"];
    assert_eq!(halt_type["enum"], json!(["question", "done"]));
    let text = halt_type["description"].as_str().unwrap();
    assert!(text.contains("done: The chair declares"), "{text}");
}
