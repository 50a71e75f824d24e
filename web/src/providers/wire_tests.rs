//! Every family's request builder against its provider's documented request, and every stream
//! decoder over recorded payloads cut at random chunk boundaries, faults included.

use proptest::prelude::*;
use roundtable_core::protocol::team::answer_schema::{step_schema, SchemaFlavor};
use roundtable_core::protocol::team::wire::Step;
use roundtable_core::protocol::{ChatRole, Message};
use serde_json::{json, Value};

use super::{
    anthropic, gemini, ndjson, ollama, openai, sse, Ask, Completion, HttpCall, ProviderError,
    ProviderId, StopReason, StreamDecoder,
};

const KEY: &str = "sk-test-SECRET";

fn messages() -> Vec<Message> {
    vec![
        Message::new(ChatRole::System, "You are the chair."),
        Message::new(ChatRole::User, "Plan the round."),
        Message::new(ChatRole::Assistant, "{\"bad\":1}"),
        Message::new(ChatRole::User, "Fix these violations."),
    ]
}

/// The request an adapter builds for a call held to the plain `schema`, which the runner fits
/// to the provider's family once (`provider_schema::for_family`) before the adapter sends it.
fn build(provider: ProviderId, model: &str, schema: Option<&Value>) -> HttpCall {
    let messages = messages();
    let fitted = schema.and_then(|plain| {
        super::schema::family(provider)
            .map(|family| roundtable_core::provider_schema::for_family(family, plain).schema)
    });
    let ask = Ask {
        provider,
        base: provider.default_base(),
        key: provider.needs_key().then_some(KEY),
        model,
        messages: &messages,
        max_tokens: 8192,
        schema: fitted.as_ref(),
    };
    match provider.family() {
        super::Family::Anthropic => anthropic::build(&ask),
        super::Family::Gemini => gemini::build(&ask),
        super::Family::Ollama => ollama::build(&ask),
        _ => openai::build(&ask),
    }
}

fn header_names(call: &HttpCall) -> Vec<&'static str> {
    call.headers.iter().map(|(n, _)| *n).collect()
}

/// The key appears in exactly one header and nowhere else (URL, body).
fn key_only_in(call: &HttpCall, header: &str) {
    let holders: Vec<&str> = call
        .headers
        .iter()
        .filter(|(_, v)| v.contains(KEY))
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(holders, [header]);
    assert!(!call.url.contains(KEY));
    assert!(!call.body.to_string().contains(KEY));
}

fn plan_schema() -> Value {
    step_schema(Step::PlanAssign, SchemaFlavor::Plain)
}

#[test]
fn openai_uses_max_completion_tokens_and_a_strict_schema() {
    let schema = plan_schema();
    let call = build(ProviderId::OpenAi, "gpt-5-mini", Some(&schema));
    assert_eq!(call.url, "https://api.openai.com/v1/chat/completions");
    assert_eq!(header_names(&call), ["Authorization"]);
    key_only_in(&call, "Authorization");
    let body = &call.body;
    assert_eq!(body["max_completion_tokens"], json!(8192));
    assert!(body.get("max_tokens").is_none());
    let format = &body["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["strict"], json!(true));
    assert_eq!(format["json_schema"]["name"], "answer");
    assert_eq!(format["json_schema"]["schema"]["type"], "object");
    assert_eq!(
        format["json_schema"]["schema"]["additionalProperties"],
        json!(false)
    );
    assert_eq!(body["stream_options"]["include_usage"], json!(true));
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(body["messages"][2]["role"], "assistant");
    // without a schema: JSON mode
    let plain = build(ProviderId::OpenAi, "gpt-4.1", None);
    assert_eq!(
        plain.body["response_format"],
        json!({"type": "json_object"})
    );
}

#[test]
fn openrouter_mistral_and_groq_get_their_own_url_and_token_field() {
    let schema = plan_schema();
    let or = build(
        ProviderId::OpenRouter,
        "anthropic/claude-sonnet-4.5",
        Some(&schema),
    );
    assert_eq!(or.url, "https://openrouter.ai/api/v1/chat/completions");
    assert_eq!(or.body["max_tokens"], json!(8192));
    assert_eq!(
        or.body["response_format"]["json_schema"]["strict"],
        json!(true)
    );
    let mistral = build(ProviderId::Mistral, "mistral-medium-latest", Some(&schema));
    assert_eq!(mistral.url, "https://api.mistral.ai/v1/chat/completions");
    assert!(mistral.body.get("stream_options").is_none());
    assert!(mistral.body.get("max_completion_tokens").is_none());
    key_only_in(&mistral, "Authorization");
    let groq = build(ProviderId::Groq, "openai/gpt-oss-120b", Some(&schema));
    assert_eq!(groq.url, "https://api.groq.com/openai/v1/chat/completions");
    assert_eq!(
        groq.body["response_format"]["json_schema"]["strict"],
        json!(true)
    );
}

/// Groq's structured-outputs page (console.groq.com/docs/structured-outputs, read 2026-11-26):
/// `json_schema` only on the models it lists, by exact id (strict on gpt-oss 20b/120b, best
/// effort on the safeguard model, Kimi K2 and Llama 4), and "streaming is not supported" with
/// structured outputs. Any other Groq model gets
/// `json_object`, and no Groq call with a response format streams.
#[test]
fn groq_gets_a_schema_only_where_it_has_one_and_never_streams_it() {
    let schema = plan_schema();
    let gpt_oss = build(ProviderId::Groq, "openai/gpt-oss-120b", Some(&schema));
    assert_eq!(
        gpt_oss.url,
        "https://api.groq.com/openai/v1/chat/completions"
    );
    let format = &gpt_oss.body["response_format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["json_schema"]["strict"], json!(true));
    let kimi = build(
        ProviderId::Groq,
        "moonshotai/kimi-k2-instruct-0905",
        Some(&schema),
    );
    assert_eq!(
        kimi.body["response_format"]["json_schema"]["strict"],
        json!(false)
    );
    let llama4 = build(
        ProviderId::Groq,
        "meta-llama/llama-4-scout-17b-16e-instruct",
        Some(&schema),
    );
    assert_eq!(llama4.body["response_format"]["type"], "json_schema");
    // The safeguard model is on the best-effort list only: not strict, though its id starts
    // like the strict pair's.
    let safeguard = build(
        ProviderId::Groq,
        "openai/gpt-oss-safeguard-20b",
        Some(&schema),
    );
    assert_eq!(
        safeguard.body["response_format"]["json_schema"]["strict"],
        json!(false)
    );
    // A model that merely starts like a listed one has no structured outputs.
    let unlisted = build(ProviderId::Groq, "openai/gpt-oss-120b-next", Some(&schema));
    assert_eq!(
        unlisted.body["response_format"],
        json!({ "type": "json_object" })
    );
    let llama = build(ProviderId::Groq, "llama-3.3-70b-versatile", Some(&schema));
    assert_eq!(
        llama.body["response_format"],
        json!({ "type": "json_object" })
    );
    for call in [&gpt_oss, &kimi, &llama4, &llama] {
        assert_eq!(call.body["stream"], json!(false), "{}", call.body["model"]);
        assert!(call.body.get("stream_options").is_none());
    }
    // A whole (not streamed) Groq answer is read as one chat completion.
    let whole = json!({
        "choices": [{ "message": { "role": "assistant", "content": "{}" }, "finish_reason": "stop" }],
        "usage": { "prompt_tokens": 900, "completion_tokens": 40 },
    });
    let done = openai::parse(&whole).unwrap();
    assert_eq!((done.text.as_str(), done.output_tokens), ("{}", Some(40)));
}

/// OpenAI's 400 "must be verified to stream this model": the call is asked again whole, and the
/// person is told once per model, not on every call.
#[test]
fn a_refused_stream_is_asked_again_whole_and_said_once() {
    let schema = plan_schema();
    let mut call = build(ProviderId::OpenAi, "gpt-5.5", Some(&schema));
    assert_eq!(call.body["stream"], json!(true));
    assert!(call.body.get("stream_options").is_some());
    let before = call.body.clone();
    openai::without_stream(&mut call);
    assert_eq!(call.body["stream"], json!(false));
    assert!(call.body.get("stream_options").is_none());
    // Nothing else changes: same schema, same token field.
    assert_eq!(call.body["response_format"], before["response_format"]);
    assert_eq!(
        call.body["max_completion_tokens"],
        before["max_completion_tokens"]
    );
    let _ = super::take_notices();
    assert!(!super::unstreamed(ProviderId::OpenAi, "o3"));
    super::remember_unstreamed(ProviderId::OpenAi, "o3");
    super::remember_unstreamed(ProviderId::OpenAi, "o3");
    assert!(super::unstreamed(ProviderId::OpenAi, "o3"));
    assert!(!super::unstreamed(ProviderId::OpenAi, "gpt-5.5"));
    let said = super::take_notices();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("OpenAI will not stream o3"), "{}", said[0]);
    assert!(!said[0].contains("  "), "no run of spaces: {}", said[0]);
    assert!(super::take_notices().is_empty());
}

#[test]
fn local_servers_never_get_json_object() {
    let schema = plan_schema();
    let with = build(ProviderId::Local, "qwen2.5-7b-instruct", Some(&schema));
    assert_eq!(with.url, "http://127.0.0.1:1234/v1/chat/completions");
    assert!(with.headers.is_empty(), "no key, no header");
    assert_eq!(with.body["response_format"]["type"], "json_schema");
    // the grammar form: no string lengths (the validator keeps them; they slow the grammar)
    let sent = with.body["response_format"].to_string();
    assert!(!sent.contains("maxLength"), "{sent}");
    assert!(sent.contains("\"strict\":true"), "{sent}");
    let without = build(ProviderId::Local, "qwen2.5-7b-instruct", None);
    assert!(without.body.get("response_format").is_none());
    assert!(!without.body.to_string().contains("json_object"));
}

#[test]
fn anthropic_gets_output_config_or_a_forced_tool_and_only_its_headers() {
    let schema = plan_schema();
    let call = build(ProviderId::Anthropic, "claude-sonnet-4-5", Some(&schema));
    assert_eq!(call.url, "https://api.anthropic.com/v1/messages");
    assert_eq!(
        header_names(&call),
        [
            "x-api-key",
            "anthropic-version",
            "anthropic-dangerous-direct-browser-access"
        ]
    );
    key_only_in(&call, "x-api-key");
    let body = &call.body;
    assert_eq!(body["system"], "You are the chair.");
    assert_eq!(body["messages"].as_array().unwrap().len(), 3);
    let format = &body["output_config"]["format"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["schema"]["type"], "object");
    assert!(body.get("tools").is_none());
    let old = build(
        ProviderId::Anthropic,
        "claude-3-5-haiku-20241022",
        Some(&schema),
    );
    assert!(old.body.get("output_config").is_none());
    assert_eq!(
        old.body["tool_choice"],
        json!({"type": "tool", "name": "answer"})
    );
    assert_eq!(old.body["tools"][0]["input_schema"]["type"], "object");
    for (model, has) in [
        ("claude-opus-4-5-20251101", true),
        ("claude-haiku-4-5", true),
        ("claude-opus-4-1", false),
        ("claude-sonnet-4-20250514", false),
        ("claude-3-7-sonnet-latest", false),
    ] {
        assert_eq!(anthropic::has_structured_outputs(model), has, "{model}");
    }
}

#[test]
fn gemini_is_native_with_the_key_in_a_header_and_the_schema_in_generation_config() {
    let schema = plan_schema();
    let call = build(ProviderId::Gemini, "models/gemini-2.5-flash", Some(&schema));
    assert_eq!(
        call.url,
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    );
    key_only_in(&call, "x-goog-api-key");
    let body = &call.body;
    assert_eq!(
        body["systemInstruction"]["parts"][0]["text"],
        "You are the chair."
    );
    let roles: Vec<&str> = body["contents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["user", "model", "user"]);
    let config = &body["generationConfig"];
    assert_eq!(config["maxOutputTokens"], json!(8192));
    assert_eq!(config["responseMimeType"], "application/json");
    assert_eq!(config["responseJsonSchema"]["type"], "object");
}

#[test]
fn ollama_is_native_with_format_and_a_context_sized_to_the_prompt() {
    let schema = plan_schema();
    let call = build(ProviderId::Ollama, "llama3.1", Some(&schema));
    assert_eq!(call.url, "http://127.0.0.1:11434/api/chat");
    assert!(call.headers.is_empty());
    assert_eq!(call.body["format"]["type"], "object");
    assert_eq!(call.body["options"]["num_predict"], json!(8192));
    assert_eq!(call.body["options"]["num_ctx"], json!(10240));
    assert_eq!(build(ProviderId::Ollama, "x", None).body["format"], "json");
    // a 4k prompt no longer fits Ollama's default window; an 11k one gets room too
    assert_eq!(ollama::num_ctx(100, 512), ollama::MIN_CTX);
    assert!(ollama::num_ctx(11_000, 8192) >= 11_000 + 8192);
    assert_eq!(ollama::num_ctx(10_000_000, 8192), ollama::MAX_CTX);
    assert_eq!(ollama::num_ctx(11_000, 8192) % 2048, 0);
}

/// Feeds `stream` to `state` in the chunks `cuts` makes (SSE or JSON lines), as the adapter does.
fn run(
    state: &mut dyn StreamDecoder,
    stream: &[u8],
    cuts: &[usize],
    lines: bool,
) -> Result<Completion, ProviderError> {
    let bytes = stream;
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
    cuts.sort_unstable();
    cuts.push(bytes.len());
    let mut sse_d = sse::SseDecoder::new();
    let mut nd = ndjson::NdjsonDecoder::default();
    let mut at = 0;
    for cut in cuts {
        let chunk = &bytes[at..cut.max(at)];
        at = cut.max(at);
        let datas = if lines {
            nd.feed(chunk)
        } else {
            sse_d.feed(chunk)
        };
        for data in datas {
            if state.event(&data)? {
                return state.finish();
            }
        }
    }
    let rest = if lines { nd.finish() } else { sse_d.finish() };
    for data in rest {
        if state.event(&data)? {
            return state.finish();
        }
    }
    state.finish()
}

const GEMINI: &str = concat!(
    "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"{\\\"a\\\": \"}],\"role\":\"model\"},\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":800,\"totalTokenCount\":800},\"modelVersion\":\"gemini-2.5-flash\"}\r\n\r\n",
    "data: {\"candidates\":[{\"content\":{\"parts\":[{\"thought\":true,\"text\":\"thinking…\"}],\"role\":\"model\"},\"index\":0}]}\r\n\r\n",
    "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"\\\"日本 🎉\\\"}\"}],\"role\":\"model\"},\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":800,\"candidatesTokenCount\":9,\"totalTokenCount\":809}}\r\n\r\n",
);

const OLLAMA: &str = concat!(
    "{\"model\":\"llama3.1\",\"created_at\":\"2025-01-01T00:00:00Z\",\"message\":{\"role\":\"assistant\",\"content\":\"{\\\"a\\\": \"},\"done\":false}\n",
    "{\"model\":\"llama3.1\",\"created_at\":\"2025-01-01T00:00:01Z\",\"message\":{\"role\":\"assistant\",\"content\":\"\\\"日本 🎉\\\"}\"},\"done\":false}\n",
    "{\"model\":\"llama3.1\",\"created_at\":\"2025-01-01T00:00:02Z\",\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"stop\",\"prompt_eval_count\":800,\"eval_count\":9}\n",
);

fn want() -> Completion {
    Completion {
        text: "{\"a\": \"日本 🎉\"}".into(),
        stop: StopReason::Done,
        input_tokens: Some(800),
        output_tokens: Some(9),
        cost_micro_usd: None,
    }
}

proptest! {
    #[test]
    fn gemini_stream_adds_up_whatever_the_chunking(cuts in proptest::collection::vec(0usize..2000, 0..12)) {
        let got = run(&mut gemini::StreamState::default(), GEMINI.as_bytes(), &cuts, false);
        prop_assert_eq!(got, Ok(want()));
    }

    #[test]
    fn ollama_stream_adds_up_whatever_the_chunking(cuts in proptest::collection::vec(0usize..2000, 0..12)) {
        let got = run(&mut ollama::StreamState::default(), OLLAMA.as_bytes(), &cuts, true);
        prop_assert_eq!(got, Ok(want()));
    }

    #[test]
    fn a_stream_cut_anywhere_is_an_interruption_never_an_answer(cut in 0usize..2000) {
        // Everything before the finish reason, cut at a random byte.
        let gemini_end = GEMINI.rfind("data:").unwrap();
        let g = &GEMINI.as_bytes()[..cut % gemini_end];
        let got = run(&mut gemini::StreamState::default(), g, &[], false);
        prop_assert!(matches!(got, Err(ProviderError::Interrupted(_))), "{:?}", got);
        let ollama_end = OLLAMA.rfind("{\"model").unwrap();
        let o = &OLLAMA.as_bytes()[..cut % ollama_end];
        let got = run(&mut ollama::StreamState::default(), o, &[], true);
        prop_assert!(matches!(got, Err(ProviderError::Interrupted(_))), "{:?}", got);
    }
}

#[test]
fn gemini_safety_stops_and_blocked_prompts_are_filtered() {
    let safety = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"{\\\"x\"}]},\"finishReason\":\"SAFETY\"}]}\n\n";
    let got = run(
        &mut gemini::StreamState::default(),
        safety.as_bytes(),
        &[3],
        false,
    );
    // the filter's word is the reason, never the half answer
    assert_eq!(got, Err(ProviderError::Filtered("SAFETY".into())));
    let blocked = "data: {\"promptFeedback\":{\"blockReason\":\"PROHIBITED_CONTENT\"}}\n\n";
    let got = run(
        &mut gemini::StreamState::default(),
        blocked.as_bytes(),
        &[],
        false,
    );
    assert!(
        got == Err(ProviderError::Filtered(
            "prompt blocked: PROHIBITED_CONTENT".into()
        )),
        "{got:?}"
    );
    let length = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"{\"}]},\"finishReason\":\"MAX_TOKENS\"}]}\n\n";
    let got = run(
        &mut gemini::StreamState::default(),
        length.as_bytes(),
        &[],
        false,
    )
    .unwrap();
    assert_eq!(got.stop, StopReason::Length);
}

#[test]
fn ollama_length_stops_and_error_lines() {
    let length = "{\"message\":{\"content\":\"{\\\"a\"},\"done\":false}\n{\"message\":{\"content\":\"\"},\"done\":true,\"done_reason\":\"length\"}\n";
    let got = run(
        &mut ollama::StreamState::default(),
        length.as_bytes(),
        &[5],
        true,
    )
    .unwrap();
    assert_eq!((got.text.as_str(), got.stop), ("{\"a", StopReason::Length));
    let error = "{\"message\":{\"content\":\"{\"},\"done\":false}\n{\"error\":\"model runner has unexpectedly stopped\"}\n";
    let got = run(
        &mut ollama::StreamState::default(),
        error.as_bytes(),
        &[],
        true,
    );
    assert_eq!(
        got,
        Err(ProviderError::Interrupted(
            "model runner has unexpectedly stopped".into()
        ))
    );
}

#[test]
fn refusals_and_content_filters_never_come_back_as_answers() {
    let refusal = concat!(
        "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"refusal\":\"\"}}]}\n\n",
        "data: {\"choices\":[{\"delta\":{\"refusal\":\"I can't help with that.\"}}]}\n\n",
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        "data: [DONE]\n\n",
    );
    let got = run(
        &mut openai::StreamState::default(),
        refusal.as_bytes(),
        &[9, 70],
        false,
    );
    assert_eq!(
        got,
        Err(ProviderError::Refused("I can't help with that.".into()))
    );
    let filtered = "data: {\"choices\":[{\"delta\":{\"content\":\"{\"},\"finish_reason\":\"content_filter\"}]}\n\ndata: [DONE]\n\n";
    let got = run(
        &mut openai::StreamState::default(),
        filtered.as_bytes(),
        &[],
        false,
    );
    assert!(matches!(got, Err(ProviderError::Filtered(_))), "{got:?}");
    let claude = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"refusal\"},\"usage\":{\"output_tokens\":2}}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
    );
    let got = run(
        &mut anthropic::StreamState::default(),
        claude.as_bytes(),
        &[],
        false,
    );
    assert!(matches!(got, Err(ProviderError::Refused(_))), "{got:?}");
    // a whole (non-streamed) refusal too
    let body =
        json!({"choices":[{"message":{"content":null,"refusal":"No."},"finish_reason":"stop"}]});
    let done = openai::parse(&body).unwrap();
    assert_eq!(
        super::refuse_or_pass(done),
        Err(ProviderError::Refused("No.".into()))
    );
}

#[test]
fn a_forced_tool_calls_input_is_the_answer() {
    let stream = concat!(
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n",
        "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"answer\",\"input\":{}}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"responseType\\\": \"}}\n\n",
        "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"final_output\\\"}\"}}\n\n",
        "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":7}}\n\n",
        "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
    );
    let got = run(
        &mut anthropic::StreamState::default(),
        stream.as_bytes(),
        &[40, 300],
        false,
    )
    .unwrap();
    assert_eq!(got.text, "{\"responseType\": \"final_output\"}");
    assert_eq!(got.stop, StopReason::Done);
    let body = json!({"content":[{"type":"tool_use","name":"answer","input":{"responseType":"final_output"}}],"stop_reason":"tool_use"});
    assert_eq!(
        anthropic::parse(&body).unwrap().text,
        "{\"responseType\":\"final_output\"}"
    );
}

#[test]
fn groq_usage_is_read_from_x_groq() {
    let s = concat!(
        "data: {\"choices\":[{\"delta\":{\"content\":\"{}\"},\"finish_reason\":null}]}\n\n",
        "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],\"x_groq\":{\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3}}}\n\n",
        "data: [DONE]\n\n",
    );
    let got = run(
        &mut openai::StreamState::default(),
        s.as_bytes(),
        &[],
        false,
    )
    .unwrap();
    assert_eq!((got.input_tokens, got.output_tokens), (Some(12), Some(3)));
}

/// A thinking model's last event as Gemini sends it: `thoughtsTokenCount` apart from
/// `candidatesTokenCount` (Gemini API "Thinking" docs: thought tokens are billed as output).
const GEMINI_THINKING: &str = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"{}\"}],\"role\":\"model\"},\"finishReason\":\"STOP\",\"index\":0}],\"usageMetadata\":{\"promptTokenCount\":1000,\"candidatesTokenCount\":50,\"thoughtsTokenCount\":950,\"totalTokenCount\":2000}}\r\n\r\n";

#[test]
fn gemini_thinking_tokens_are_counted_and_priced_as_output() {
    let got = run(
        &mut gemini::StreamState::default(),
        GEMINI_THINKING.as_bytes(),
        &[40],
        false,
    )
    .unwrap();
    assert_eq!(
        (got.input_tokens, got.output_tokens),
        (Some(1000), Some(1000))
    );
    let body: Value =
        serde_json::from_str(GEMINI_THINKING.trim_start_matches("data: ").trim()).unwrap();
    assert_eq!(gemini::parse(&body).unwrap().output_tokens, Some(1000));
    // Priced at the model's output rate: 1,000 output tokens, not the 50 of the answer alone.
    let price = super::price::known(
        ProviderId::Gemini,
        "gemini-3.8-flash",
        super::price::PRICES_DATED,
    )
    .unwrap();
    let cost = roundtable_core::cost::of_call(
        None,
        Some(price),
        got.input_tokens.zip(got.output_tokens),
        (0, 0),
    )
    .unwrap();
    assert_eq!(
        cost.micro_usd,
        price.of(1000, 0) + price.of(0, 1000),
        "thoughts priced as output"
    );
}

/// The schema a dialectic's person gave reaches every family's request: the synthesis call
/// carries it (core's `ModelCall::schema`) as the answer's `result`, and each family's body holds
/// it in that family's form, within the family's published rules (`provider_rules::check`).
#[test]
fn a_persons_response_schema_reaches_every_family_inside_its_rules() {
    use roundtable_core::engine::{ModelRef, RunTarget};
    use roundtable_core::protocol::dialectic::{
        DialecticConfig, DialecticSession, Mode, ResponseStyle,
    };
    use roundtable_core::provider_rules::{check, Family};
    let mut config = DialecticConfig::standard(
        "Should a small software company move to a four-day work week?",
        ResponseStyle::Json,
        Mode::Workflow,
        false,
        ModelRef {
            provider: "demo".into(),
            model: "demo-1".into(),
        },
    );
    config.response_schema = Some(json!({
        "type": "object",
        "properties": {"verdict": {"type": "string", "enum": ["adopt", "trial", "reject"]}},
        "required": ["verdict"],
        "additionalProperties": false
    }));
    let mut s = DialecticSession::new(config, 0).unwrap();
    s.start_run(RunTarget::End, None, 1).unwrap();
    let mut sent = None;
    for now in 2..20 {
        let calls = s.next_calls();
        let Some(call) = calls.first() else { break };
        if call.step == "dialectic_synthesis" {
            sent = call.schema.clone();
            break;
        }
        let text = call.demo.as_ref().unwrap().text.clone();
        s.submit(&call.id, &text, None, now).unwrap();
    }
    let plain = sent.expect("the synthesis call carries the person's schema");
    let verdict =
        |schema: &Value| schema["properties"]["result"]["properties"]["verdict"]["enum"].clone();
    let want = json!(["adopt", "trial", "reject"]);
    for (provider, model, family, at) in [
        (
            ProviderId::OpenAi,
            "gpt-5-mini",
            Family::OpenaiStrict,
            "/response_format/json_schema/schema",
        ),
        (
            ProviderId::Anthropic,
            "claude-sonnet-4-5",
            Family::Anthropic,
            "/output_config/format/schema",
        ),
        (
            ProviderId::Gemini,
            "models/gemini-2.5-flash",
            Family::Gemini,
            "/generationConfig/responseJsonSchema",
        ),
        (ProviderId::Ollama, "llama3.1", Family::Grammar, "/format"),
    ] {
        let call = build(provider, model, Some(&plain));
        let schema = call
            .body
            .pointer(at)
            .unwrap_or_else(|| panic!("{provider:?}: no schema at {at}"));
        assert_eq!(verdict(schema), want, "{provider:?}");
        let required = schema["required"].as_array().unwrap();
        assert!(
            required.contains(&json!("result")),
            "{provider:?}: result required"
        );
        assert_eq!(
            check(family, schema),
            Vec::new(),
            "{provider:?} within its rules"
        );
    }
}
