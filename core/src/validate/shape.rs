//! The shape of every step's answer as static data, walked by the checker while it parses.
//!
//! This is the same contract as the JSON Schema that [`crate::step_schema`] derives from
//! [`crate::schema`], written out once as constants so that checking needs no allocation and no
//! `serde_json::Value`. A test at the bottom of this file walks both side by side and fails when
//! they drift apart (a field added to a wire type but not here, a limit changed in one place only).
//! What a schema cannot say is here too, marked as such: which ids must exist ([`IdKind`]), that
//! Write content is not JSON ([`Ty::Content`]).

use crate::schema::limits;
use crate::schema::Step;

/// What a value must be.
#[derive(Debug)]
pub(crate) enum Ty {
    /// Anything at all (unknown fields): only the JSON syntax is checked.
    Any,
    /// A string of at most `max` chars.
    Text { max: usize },
    /// One of these exact strings.
    Enum(&'static [&'static str]),
    /// A string naming something that must exist (checked only when the session's ids are known).
    Id(IdKind),
    /// Write `newVersion.content`: at least [`limits::CONTENT_MIN`] chars, and not JSON.
    Content,
    /// An integer in `min..=max`.
    Int { min: i64, max: i64 },
    /// `true` or `false`.
    Bool,
    /// An array of `item`, with `min..=max` entries.
    Array {
        item: &'static Ty,
        min: usize,
        max: usize,
    },
    /// An object with known fields.
    Object(&'static Obj),
    /// An object with free keys and values of one type (`personas`).
    Map(&'static Ty),
    /// An object whose fields depend on the string value of one tag field.
    Union(&'static Union),
}

/// Which kind of id a string names, i.e. which set of [`crate::validate::Known`] it must be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IdKind {
    /// An existing product.
    Product,
    /// An existing product, or a `new-N` added by any ADD of the same answer.
    ProductOrNew,
    /// Inside a tree operation: an existing product or a `new-N` added by an earlier ADD.
    TreeProduct,
    /// The `newId` of an ADD: `new-N`, unique in the answer.
    NewId,
    /// An existing version.
    Version,
    /// An existing collab.
    Collab,
    /// An existing member.
    Member,
    /// A member or one of the special addresses (`user`, `team`, `u:all`, …).
    Recipient,
}

/// One field of an object.
#[derive(Debug)]
pub(crate) struct Field {
    /// Wire name.
    pub name: &'static str,
    /// Its type.
    pub ty: Ty,
    /// Must be present.
    pub required: bool,
    /// May be `null` (the `Option` fields of the wire types).
    pub nullable: bool,
}

/// An object with known fields.
#[derive(Debug)]
pub(crate) struct Obj {
    /// The fields, at most 64 (a bit each in the checker).
    pub fields: &'static [Field],
}

/// A tagged union: the value of field `tag` picks the variant.
#[derive(Debug)]
pub(crate) struct Union {
    /// The tag's wire name (`action`, `responseType`).
    pub tag: &'static str,
    /// Tag value → the object shape (which lists the tag itself as a field).
    pub variants: &'static [(&'static str, &'static Obj)],
}

const fn req(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: true,
        nullable: false,
    }
}
/// An `Option` field: may be absent or `null`.
const fn opt(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: false,
        nullable: true,
    }
}
/// A `#[serde(default)]` list: may be absent, but not `null`.
const fn dflt(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: false,
        nullable: false,
    }
}

const TEXT: Ty = Ty::Text { max: usize::MAX };
const fn text(max: usize) -> Ty {
    Ty::Text { max }
}
const fn list(item: &'static Ty) -> Ty {
    Ty::Array {
        item,
        min: 0,
        max: usize::MAX,
    }
}
const SCALE: Ty = Ty::Int {
    min: limits::SCALE_MIN,
    max: limits::SCALE_MAX,
};

/// The values of each wire enum, in the order the spec lists them.
pub(crate) mod enums {
    /// `responseType`.
    pub const RESPONSE_TYPE: &[&str] = &["request_context", "halt", "final_output"];
    /// `contextRequests[].need`.
    pub const CONTEXT_NEED: &[&str] = &[
        "full_content",
        "version_history",
        "all_feedback",
        "peer_content",
    ];
    /// `halt.type`.
    pub const HALT_TYPE: &[&str] = &["question", "done"];
    /// `halt.to[]`: only the person answers a halt.
    pub const HALT_TO: &[&str] = &["user-1", "u:all"];
    /// `collabs[].type`.
    pub const COLLAB_TYPE: &[&str] = &[
        "feedback",
        "question",
        "suggestion",
        "endorsement",
        "concern",
    ];
    /// `remarks[].type`.
    pub const REMARK_TYPE: &[&str] = &[
        "question",
        "suggestion",
        "observation",
        "note",
        "missing_detail",
        "blocker",
        "comment",
    ];
    /// A product's `type`.
    pub const PRODUCT_TYPE: &[&str] = &["Content", "Decision", "Collection", "Orchestration"];
    /// `attachedContext[].include[]`.
    pub const ATTACHMENT: &[&str] = &["content", "feedback"];
    /// `feedbackResponses[].action`.
    pub const FEEDBACK_ACTION: &[&str] = &["accept", "defer", "reject"];
    /// `reflections[].dodStatus`.
    pub const DOD_STATUS: &[&str] = &["met", "partially_met", "not_met"];
    /// `reviews[].assessment`.
    pub const REVIEW: &[&str] = &["approved", "needs_revision"];
    /// `inspections[].assessment`.
    pub const INSPECTION: &[&str] = &["approved", "needs_revision", "blocked"];
    /// `findings[].category`.
    pub const CATEGORY: &[&str] = &[
        "security",
        "completeness",
        "coherence",
        "integration",
        "quality",
    ];
}

// ---- shared parts -------------------------------------------------------------------------

static CONTEXT_REQUEST: Obj = Obj {
    fields: &[
        req("productId", Ty::Id(IdKind::Product)),
        req("need", Ty::Enum(enums::CONTEXT_NEED)),
        req("reason", text(limits::CONTEXT_REASON_MAX)),
    ],
};

static HALT: Obj = Obj {
    fields: &[
        req("type", Ty::Enum(enums::HALT_TYPE)),
        req(
            "to",
            Ty::Array {
                item: &Ty::Enum(enums::HALT_TO),
                min: 1,
                max: usize::MAX,
            },
        ),
        req("message", text(limits::HALT_MESSAGE_MAX)),
        opt("options", list(&TEXT)),
    ],
};

static COLLAB: Obj = Obj {
    fields: &[
        req("refersToProduct", Ty::Id(IdKind::Product)),
        req("type", Ty::Enum(enums::COLLAB_TYPE)),
        req("importance", SCALE),
        req("comment", text(limits::COLLAB_COMMENT_MAX)),
        req("shortestSummary", text(limits::COLLAB_SUMMARY_MAX)),
        opt("refersToVersion", Ty::Id(IdKind::Version)),
        opt("referencesProductIds", list(&Ty::Id(IdKind::Product))),
        opt("addresseeIds", list(&Ty::Id(IdKind::Member))),
        opt("respondingToCollabIds", list(&Ty::Id(IdKind::Collab))),
    ],
};

static REMARK: Obj = Obj {
    fields: &[
        req("recipients", list(&Ty::Id(IdKind::Recipient))),
        req("type", Ty::Enum(enums::REMARK_TYPE)),
        req("content", text(limits::REMARK_CONTENT_MAX)),
        opt("isBlocker", Ty::Bool),
    ],
};

static COLLAB_TY: Ty = Ty::Object(&COLLAB);
static REMARK_TY: Ty = Ty::Object(&REMARK);
const COLLABS: Field = dflt("collabs", list(&COLLAB_TY));
const REMARKS: Field = dflt("remarks", list(&REMARK_TY));

// ---- tree operations ----------------------------------------------------------------------

static NEW_PRODUCT: Obj = Obj {
    fields: &[
        req("name", text(limits::PRODUCT_NAME_MAX)),
        req("type", Ty::Enum(enums::PRODUCT_TYPE)),
        req("dod", text(limits::PRODUCT_DOD_MAX)),
        opt("description", TEXT),
        opt("assignee", Ty::Id(IdKind::Member)),
    ],
};

static PRODUCT_PATCH: Obj = Obj {
    fields: &[
        opt("name", text(limits::PRODUCT_NAME_MAX)),
        opt("type", Ty::Enum(enums::PRODUCT_TYPE)),
        opt("dod", text(limits::PRODUCT_DOD_MAX)),
        opt("description", TEXT),
        opt("assignee", Ty::Id(IdKind::Member)),
    ],
};

static OP_ADD: Obj = Obj {
    fields: &[
        req("action", Ty::Enum(&["ADD"])),
        req("newId", Ty::Id(IdKind::NewId)),
        req("parentId", Ty::Id(IdKind::TreeProduct)),
        req("product", Ty::Object(&NEW_PRODUCT)),
        opt("reason", TEXT),
    ],
};
static OP_REMOVE: Obj = Obj {
    fields: &[
        req("action", Ty::Enum(&["REMOVE"])),
        req("productId", Ty::Id(IdKind::TreeProduct)),
        req("reason", TEXT),
    ],
};
static OP_MOVE: Obj = Obj {
    fields: &[
        req("action", Ty::Enum(&["MOVE"])),
        req("productId", Ty::Id(IdKind::TreeProduct)),
        req("parentId", Ty::Id(IdKind::TreeProduct)),
        opt("reason", TEXT),
    ],
};
static OP_UPDATE: Obj = Obj {
    fields: &[
        req("action", Ty::Enum(&["UPDATE"])),
        req("productId", Ty::Id(IdKind::TreeProduct)),
        req("product", Ty::Object(&PRODUCT_PATCH)),
        opt("reason", TEXT),
    ],
};
static TREE_OPERATION: Union = Union {
    tag: "action",
    variants: &[
        ("ADD", &OP_ADD),
        ("REMOVE", &OP_REMOVE),
        ("MOVE", &OP_MOVE),
        ("UPDATE", &OP_UPDATE),
    ],
};

// ---- PlanAssign ---------------------------------------------------------------------------

static DIRECTIVE: Obj = Obj {
    fields: &[
        req("objective", TEXT),
        req("dod", TEXT),
        req("why", TEXT),
        opt("context", TEXT),
    ],
};
static ATTACHED_CONTEXT: Obj = Obj {
    fields: &[
        req("productId", Ty::Id(IdKind::Product)),
        req("include", list(&Ty::Enum(enums::ATTACHMENT))),
        req("reason", TEXT),
    ],
};
static ASSIGNMENT: Obj = Obj {
    fields: &[
        req("productId", Ty::Id(IdKind::ProductOrNew)),
        req("assignee", Ty::Id(IdKind::Member)),
        req("directive", Ty::Object(&DIRECTIVE)),
        opt("attachedContext", list(&Ty::Object(&ATTACHED_CONTEXT))),
    ],
};
static ACCEPTANCE: Obj = Obj {
    fields: &[
        req("productId", Ty::Id(IdKind::ProductOrNew)),
        req("accepted", Ty::Bool),
        opt("versionId", Ty::Id(IdKind::Version)),
        opt("rejectionReason", TEXT),
    ],
};
static CHAIR_VERSION: Obj = Obj {
    fields: &[
        req("productId", Ty::Id(IdKind::ProductOrNew)),
        req("content", TEXT),
        req("changeSummary", TEXT),
    ],
};
static DOMAIN_PATCH: Obj = Obj {
    fields: &[
        opt("responsibility", text(limits::DOMAIN_RESPONSIBILITY_MAX)),
        opt("area", text(limits::DOMAIN_AREA_MAX)),
    ],
};
static OVERRIDES: Obj = Obj {
    fields: &[
        opt("mission", text(limits::MISSION_MAX)),
        opt("objectives", text(limits::OBJECTIVES_MAX)),
        opt("personas", Ty::Map(&text(limits::PERSONA_MAX))),
        opt("operativeDomains", Ty::Map(&Ty::Object(&DOMAIN_PATCH))),
    ],
};
static PLAN_THINKING: Obj = Obj {
    fields: &[req("roundStrategy", TEXT), req("acceptanceRationale", TEXT)],
};
static PLAN_ASSIGN: Obj = Obj {
    fields: &[
        req("responseType", Ty::Enum(&["final_output"])),
        req("thinking", Ty::Object(&PLAN_THINKING)),
        dflt("treeOperations", list(&Ty::Union(&TREE_OPERATION))),
        dflt("assignments", list(&Ty::Object(&ASSIGNMENT))),
        dflt("acceptance", list(&Ty::Object(&ACCEPTANCE))),
        opt("chairVersions", list(&Ty::Object(&CHAIR_VERSION))),
        REMARKS,
        opt("bootstrapOverrides", Ty::Object(&OVERRIDES)),
    ],
};

// ---- Bootstrap ----------------------------------------------------------------------------

static BOOT_THINKING: Obj = Obj {
    fields: &[req("interpretation", TEXT), req("scopeDecisions", TEXT)],
};
static DOMAIN: Obj = Obj {
    fields: &[req("responsibility", TEXT), req("area", TEXT)],
};
static INITIAL_PRODUCT: Obj = Obj {
    fields: &[
        req("name", text(limits::PRODUCT_NAME_MAX)),
        req("type", Ty::Enum(enums::PRODUCT_TYPE)),
        req("dod", TEXT),
        opt("owner", Ty::Id(IdKind::Member)),
    ],
};
static BOOTSTRAP: Obj = Obj {
    fields: &[
        req("responseType", Ty::Enum(&["final_output"])),
        req("thinking", Ty::Object(&BOOT_THINKING)),
        req("mission", text(limits::MISSION_MAX)),
        req("objectives", TEXT),
        req("constraints", TEXT),
        req("personas", Ty::Map(&text(limits::PERSONA_MAX))),
        req("operativeDomains", Ty::Map(&Ty::Object(&DOMAIN))),
        req("initialProducts", list(&Ty::Object(&INITIAL_PRODUCT))),
        opt("missingDetails", list(&TEXT)),
    ],
};

// ---- Reflect ------------------------------------------------------------------------------

static FEEDBACK_RESPONSE: Obj = Obj {
    fields: &[
        req("collabId", Ty::Id(IdKind::Collab)),
        req("action", Ty::Enum(enums::FEEDBACK_ACTION)),
        req("rationale", TEXT),
        opt("plannedChange", TEXT),
    ],
};
static REFLECTION: Obj = Obj {
    fields: &[
        req("refersToProduct", Ty::Id(IdKind::Product)),
        req("dodStatus", Ty::Enum(enums::DOD_STATUS)),
        opt("dodGaps", list(&TEXT)),
        req("feedbackResponses", list(&Ty::Object(&FEEDBACK_RESPONSE))),
        req("nextVersionDelta", TEXT),
        opt("blockers", list(&TEXT)),
    ],
};
static REFLECT: Obj = Obj {
    fields: &[
        req("responseType", Ty::Enum(&["final_output"])),
        req("reflections", list(&Ty::Object(&REFLECTION))),
        COLLABS,
        REMARKS,
    ],
};

// ---- Write --------------------------------------------------------------------------------

static NEW_VERSION: Obj = Obj {
    fields: &[
        req("contentTitle", text(limits::CONTENT_TITLE_MAX)),
        req("content", Ty::Content),
        req("changeSummary", TEXT),
    ],
};
static WRITTEN_VERSION: Obj = Obj {
    fields: &[
        req("productId", Ty::Id(IdKind::Product)),
        req("newVersion", Ty::Object(&NEW_VERSION)),
    ],
};
static WRITE: Obj = Obj {
    fields: &[
        req("responseType", Ty::Enum(&["final_output"])),
        dflt("versions", list(&Ty::Object(&WRITTEN_VERSION))),
        COLLABS,
        REMARKS,
    ],
};

// ---- PeerReview ---------------------------------------------------------------------------

static REVIEW: Obj = Obj {
    fields: &[
        req("productId", Ty::Id(IdKind::Product)),
        req("versionId", Ty::Id(IdKind::Version)),
        req("assessment", Ty::Enum(enums::REVIEW)),
        req("summary", TEXT),
    ],
};
static PEER_REVIEW: Obj = Obj {
    fields: &[
        req("responseType", Ty::Enum(&["final_output"])),
        req("reviews", list(&Ty::Object(&REVIEW))),
        COLLABS,
        REMARKS,
    ],
};

// ---- Inspection ---------------------------------------------------------------------------

static FINDING: Obj = Obj {
    fields: &[
        req("category", Ty::Enum(enums::CATEGORY)),
        req("severity", SCALE),
        req("issue", TEXT),
        req("recommendation", TEXT),
        opt("dodCriterion", TEXT),
    ],
};
static INSPECTION: Obj = Obj {
    fields: &[
        req("productId", Ty::Id(IdKind::Product)),
        req("versionId", Ty::Id(IdKind::Version)),
        req("assessment", Ty::Enum(enums::INSPECTION)),
        req("findings", list(&Ty::Object(&FINDING))),
    ],
};
static INSPECTION_OUT: Obj = Obj {
    fields: &[
        req("responseType", Ty::Enum(&["final_output"])),
        req("inspections", list(&Ty::Object(&INSPECTION))),
        COLLABS,
        REMARKS,
    ],
};

// ---- Presentation -------------------------------------------------------------------------

static MESSAGE: Obj = Obj {
    fields: &[req("content", TEXT), req("asAgent", Ty::Id(IdKind::Member))],
};
static PRESENTATION: Obj = Obj {
    fields: &[
        req("responseType", Ty::Enum(&["final_output"])),
        req(
            "messages",
            Ty::Array {
                item: &Ty::Object(&MESSAGE),
                min: limits::MESSAGES_MIN,
                max: limits::MESSAGES_MAX,
            },
        ),
    ],
};

// ---- the three answers --------------------------------------------------------------------

static REQUEST_CONTEXT: Obj = Obj {
    fields: &[
        req("responseType", Ty::Enum(&["request_context"])),
        req(
            "contextRequests",
            Ty::Array {
                item: &Ty::Object(&CONTEXT_REQUEST),
                min: limits::CONTEXT_REQUESTS_MIN,
                max: limits::CONTEXT_REQUESTS_MAX,
            },
        ),
    ],
};
static HALT_ANSWER: Obj = Obj {
    fields: &[
        req("responseType", Ty::Enum(&["halt"])),
        req("halt", Ty::Object(&HALT)),
    ],
};

/// The object a `final_output` answer of `step` must be.
pub(crate) fn final_output(step: Step) -> &'static Obj {
    match step {
        Step::Bootstrap => &BOOTSTRAP,
        Step::Reflect => &REFLECT,
        Step::PlanAssign => &PLAN_ASSIGN,
        Step::Write => &WRITE,
        Step::PeerReview => &PEER_REVIEW,
        Step::Inspection => &INSPECTION_OUT,
        Step::Presentation => &PRESENTATION,
    }
}

/// The object an answer of `step` with this `responseType` must be, or `None` when the step ×
/// responseType matrix forbids it (or the value is not a response type at all).
pub(crate) fn answer(step: Step, response_type: &str) -> Option<&'static Obj> {
    match response_type {
        "request_context" => Some(&REQUEST_CONTEXT),
        "halt" if step.allows_halt() => Some(&HALT_ANSWER),
        "final_output" => Some(final_output(step)),
        _ => None,
    }
}

/// The response types `step` allows, for messages.
pub(crate) fn allowed_response_types(step: Step) -> &'static [&'static str] {
    if step.allows_halt() {
        enums::RESPONSE_TYPE
    } else {
        &["request_context", "final_output"]
    }
}

#[cfg(test)]
mod tests {
    //! The shapes above must say exactly what `step_schema(step, Plain)` says.
    use super::*;
    use crate::{step_schema, SchemaFlavor};
    use serde_json::Value;

    /// Follows `$ref` (possibly inside `anyOf [ref, null]`) and reports whether null was allowed.
    fn resolve<'a>(root: &'a Value, mut node: &'a Value) -> (&'a Value, bool) {
        let mut nullable = false;
        if let Some(any) = node.get("anyOf").and_then(Value::as_array) {
            nullable = any
                .iter()
                .any(|b| b.get("type") == Some(&Value::from("null")));
            node = any
                .iter()
                .find(|b| b.get("type") != Some(&Value::from("null")))
                .unwrap();
        }
        if let Some(types) = node.get("type").and_then(Value::as_array) {
            nullable |= types.contains(&Value::from("null"));
        }
        while let Some(r) = node.get("$ref").and_then(Value::as_str) {
            let name = r.trim_start_matches("#/$defs/");
            let target = &root["$defs"][name];
            // A `$ref` with sibling keywords (the root's final_output branch) is merged by hand.
            if node.get("properties").is_some() {
                break;
            }
            node = target;
        }
        (node, nullable)
    }

    fn base_type(node: &Value) -> Option<String> {
        match node.get("type") {
            Some(Value::String(t)) => Some(t.clone()),
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .find(|t| *t != "null")
                .map(String::from),
            _ => None,
        }
    }

    fn enum_values(node: &Value) -> Option<Vec<String>> {
        if let Some(values) = node.get("enum").and_then(Value::as_array) {
            return values
                .iter()
                .map(|v| v.as_str().map(String::from))
                .collect();
        }
        let branches = node.get("oneOf")?.as_array()?;
        branches
            .iter()
            .map(|b| b.get("const").and_then(Value::as_str).map(String::from))
            .collect()
    }

    fn compare_ty(root: &Value, node: &Value, ty: &Ty, at: &str) {
        let (node, _) = resolve(root, node);
        match ty {
            Ty::Any => {}
            Ty::Text { max } => {
                assert_eq!(base_type(node).as_deref(), Some("string"), "{at}");
                let schema_max = node
                    .get("maxLength")
                    .and_then(Value::as_u64)
                    .map(|m| m as usize);
                assert_eq!(schema_max.unwrap_or(usize::MAX), *max, "{at} maxLength");
                assert!(node.get("minLength").is_none(), "{at} minLength");
            }
            Ty::Id(_) => {
                assert_eq!(base_type(node).as_deref(), Some("string"), "{at}");
                assert!(node.get("maxLength").is_none(), "{at}");
            }
            Ty::Content => {
                assert_eq!(
                    node["minLength"].as_u64(),
                    Some(limits::CONTENT_MIN as u64),
                    "{at}"
                );
                assert_eq!(
                    node["maxLength"].as_u64(),
                    Some(limits::CONTENT_MAX as u64),
                    "{at}"
                );
            }
            Ty::Enum(values) => {
                let schema_values = enum_values(node)
                    .or_else(|| {
                        node.get("const")
                            .and_then(Value::as_str)
                            .map(|c| vec![c.to_string()])
                    })
                    .unwrap_or_else(|| panic!("{at}: no enum in {node}"));
                assert_eq!(
                    schema_values,
                    values.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
                    "{at}"
                );
            }
            Ty::Int { min, max } => {
                assert_eq!(base_type(node).as_deref(), Some("integer"), "{at}");
                assert_eq!(node["minimum"].as_i64(), Some(*min), "{at}");
                assert_eq!(node["maximum"].as_i64(), Some(*max), "{at}");
            }
            Ty::Bool => assert_eq!(base_type(node).as_deref(), Some("boolean"), "{at}"),
            Ty::Array { item, min, max } => {
                assert_eq!(base_type(node).as_deref(), Some("array"), "{at}");
                assert_eq!(
                    node.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize,
                    *min,
                    "{at}"
                );
                let smax = node
                    .get("maxItems")
                    .and_then(Value::as_u64)
                    .map(|m| m as usize);
                assert_eq!(smax.unwrap_or(usize::MAX), *max, "{at}");
                compare_ty(root, &node["items"], item, &format!("{at}/items"));
            }
            Ty::Map(value) => {
                assert_eq!(base_type(node).as_deref(), Some("object"), "{at}");
                compare_ty(
                    root,
                    &node["additionalProperties"],
                    value,
                    &format!("{at}/*"),
                );
            }
            Ty::Object(obj) => compare_obj(root, node, obj, at),
            Ty::Union(u) => {
                let branches = node["oneOf"].as_array().unwrap();
                assert_eq!(branches.len(), u.variants.len(), "{at}");
                for (branch, (tag, obj)) in branches.iter().zip(u.variants) {
                    assert_eq!(
                        branch["properties"][u.tag]["const"],
                        Value::from(*tag),
                        "{at}"
                    );
                    compare_obj(root, branch, obj, &format!("{at}[{tag}]"));
                }
            }
        }
    }

    fn compare_obj(root: &Value, node: &Value, obj: &Obj, at: &str) {
        let props = node["properties"]
            .as_object()
            .unwrap_or_else(|| panic!("{at}: {node}"));
        let required: Vec<&str> = node
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut names: Vec<&str> = obj.fields.iter().map(|f| f.name).collect();
        names.sort_unstable();
        let mut schema_names: Vec<&str> = props.keys().map(String::as_str).collect();
        schema_names.sort_unstable();
        assert_eq!(names, schema_names, "{at}: field names");
        assert!(obj.fields.len() <= 64, "{at}");
        for f in obj.fields {
            let at = format!("{at}/{}", f.name);
            assert_eq!(required.contains(&f.name), f.required, "{at} required");
            let (_, nullable) = resolve(root, &props[f.name]);
            assert_eq!(nullable, f.nullable, "{at} nullable");
            compare_ty(root, &props[f.name], &f.ty, &at);
        }
    }

    #[test]
    fn shapes_match_the_plain_json_schema_of_every_step() {
        for step in Step::ALL {
            let root = step_schema(step, SchemaFlavor::Plain);
            let branches = root["oneOf"].as_array().unwrap();
            let tags: Vec<&str> = branches
                .iter()
                .map(|b| b["properties"]["responseType"]["const"].as_str().unwrap())
                .collect();
            assert_eq!(tags, allowed_response_types(step), "{step}");
            for branch in branches {
                let tag = branch["properties"]["responseType"]["const"]
                    .as_str()
                    .unwrap();
                let obj = answer(step, tag).unwrap();
                // Merge the branch's own properties with the `$ref`'d output struct.
                let mut merged = branch.clone();
                if let Some(r) = branch.get("$ref").and_then(Value::as_str) {
                    let target = &root["$defs"][r.trim_start_matches("#/$defs/")];
                    let props = merged["properties"].as_object_mut().unwrap();
                    for (k, v) in target["properties"].as_object().unwrap() {
                        props.insert(k.clone(), v.clone());
                    }
                    let mut req: Vec<Value> = merged["required"].as_array().unwrap().clone();
                    req.extend(target["required"].as_array().cloned().unwrap_or_default());
                    merged["required"] = Value::Array(req);
                }
                merged["properties"]["responseType"]["type"] = Value::from("string");
                compare_obj(&root, &merged, obj, &format!("{step}[{tag}]"));
            }
            assert!(answer(step, "halt").is_some() == step.allows_halt());
        }
    }
}
