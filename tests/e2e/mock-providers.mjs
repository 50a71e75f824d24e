// A loopback stand-in for every provider family, speaking each one's wire format as its
// documentation shows it: OpenAI-style chat completions (OpenAI, OpenRouter, Mistral, Groq, a
// local OpenAI-compatible server) as server-sent events ending in [DONE]; Anthropic Messages as
// typed events; Gemini's streamGenerateContent?alt=sse as whole responses per event; Ollama's
// /api/chat as JSON lines. Each provider lives under its own path prefix, so the app's base URL
// setting points it here. Every request is recorded (path, headers, body, the step read from the
// schema's title); a test decides the answer (text, or a fault) per request.
import http from 'node:http';
import { schemaRefusal, answerAsSent } from './provider-rules.mjs';

/** Path prefix → provider id. The app's base URL for a provider is `${url}${prefix}`. */
export const PREFIXES = {
  openai: '/openai/v1',
  openrouter: '/openrouter/api/v1',
  mistral: '/mistral/v1',
  groq: '/groq/openai/v1',
  local: '/local/v1',
  anthropic: '/anthropic/v1',
  gemini: '/gemini/v1beta',
  ollama: '/ollama',
};

/** The services the mock stands in for, which of them take a key, and the fake key of each. */
export const PROVIDERS = Object.keys(PREFIXES);
export const KEYED = PROVIDERS.filter((p) => !['ollama', 'local'].includes(p));
export const keyOf = (p) => `sk-${p}-test-${p.length}x`;

export const FAMILY = {
  openai: 'openai', openrouter: 'openai', mistral: 'openai', groq: 'openai', local: 'openai',
  anthropic: 'anthropic', gemini: 'gemini', ollama: 'ollama',
};

const STEPS = {
  BootstrapAnswer: 'bootstrap', PlanAssignAnswer: 'plan_assign', WriteAnswer: 'write',
  PeerReviewAnswer: 'peer_review', InspectionAnswer: 'inspection', ReflectAnswer: 'reflect',
  PresentationAnswer: 'presentation',
};

/** The schema a request carries, wherever its family puts it. */
function schemaOf(body) {
  return body?.response_format?.json_schema?.schema
    ?? body?.output_config?.format?.schema
    ?? body?.tools?.[0]?.input_schema
    ?? body?.generationConfig?.responseJsonSchema
    ?? (typeof body?.format === 'object' ? body.format : undefined);
}

/** Cuts a text into `n` pieces (at code-point boundaries) for a stream. */
function pieces(text, n = 3) {
  const chars = [...text];
  const size = Math.max(1, Math.ceil(chars.length / n));
  const out = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out.length ? out : [''];
}

const sse = (data) => `data: ${JSON.stringify(data)}\n\n`;
const typed = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/**
 * A streamed answer in `family`'s wire format. `stop` is the family's own stop word;
 * `cut` ends the stream halfway, before any stop or end marker; `refusal` answers as a refusal;
 * `cost` (dollars) goes into the OpenAI-style usage as OpenRouter reports it; `split` is how
 * many pieces the text streams in.
 */
export function stream(family, text, { stop, cut = false, refusal = false, cost, split = 3 } = {}) {
  const parts = pieces(text, split);
  const kept = cut ? parts.slice(0, Math.max(1, parts.length - 1)) : parts;
  if (family === 'openai') {
    const out = [sse({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })];
    if (refusal) out.push(sse({ choices: [{ index: 0, delta: { refusal: text }, finish_reason: null }] }));
    else for (const p of kept) out.push(sse({ choices: [{ index: 0, delta: { content: p }, finish_reason: null }] }));
    if (cut) return { type: 'text/event-stream', chunks: out };
    out.push(sse({ choices: [{ index: 0, delta: {}, finish_reason: stop ?? 'stop' }] }));
    out.push(sse({ choices: [], usage: { prompt_tokens: 1000, completion_tokens: 50, ...(cost === undefined ? {} : { cost }) } }));
    out.push('data: [DONE]\n\n');
    return { type: 'text/event-stream', chunks: out };
  }
  if (family === 'anthropic') {
    const out = [
      typed('message_start', { message: { id: 'msg_mock', content: [], usage: { input_tokens: 1000, output_tokens: 1 } } }),
      typed('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      typed('ping', {}),
    ];
    if (!refusal) for (const p of kept) out.push(typed('content_block_delta', { index: 0, delta: { type: 'text_delta', text: p } }));
    if (cut) return { type: 'text/event-stream', chunks: out };
    out.push(typed('content_block_stop', { index: 0 }));
    out.push(typed('message_delta', { delta: { stop_reason: refusal ? 'refusal' : (stop ?? 'end_turn') }, usage: { output_tokens: 50 } }));
    out.push(typed('message_stop', {}));
    return { type: 'text/event-stream', chunks: out };
  }
  if (family === 'gemini') {
    const out = kept.map((p, i) => `data: ${JSON.stringify({
      candidates: [{
        content: { parts: [{ text: p }], role: 'model' }, index: 0,
        ...(i === kept.length - 1 && !cut ? { finishReason: refusal ? 'SAFETY' : (stop ?? 'STOP') } : {}),
      }],
      usageMetadata: { promptTokenCount: 1000, ...(i === kept.length - 1 ? { candidatesTokenCount: 50 } : {}) },
      modelVersion: 'gemini-mock',
    })}\r\n\r\n`);
    return { type: 'text/event-stream', chunks: out };
  }
  // ollama: JSON lines
  const line = (o) => `${JSON.stringify({ model: 'mock', created_at: '2025-01-01T00:00:00Z', ...o })}\n`;
  const out = kept.map((p) => line({ message: { role: 'assistant', content: p }, done: false }));
  if (!cut) out.push(line({ message: { role: 'assistant', content: '' }, done: true, done_reason: stop ?? 'stop', prompt_eval_count: 1000, eval_count: 50 }));
  return { type: 'application/x-ndjson', chunks: out };
}

/**
 * One whole (not streamed) chat completion, as an OpenAI-style API answers `stream: false`
 * (Groq's structured outputs, OpenAI's reasoning models for an unverified organisation).
 */
export function whole(text, { stop, refusal = false, cost } = {}) {
  return {
    id: 'chatcmpl-mock', object: 'chat.completion', created: 1764000000, model: 'mock',
    choices: [{
      index: 0,
      message: { role: 'assistant', content: refusal ? null : text, ...(refusal ? { refusal: text } : {}) },
      finish_reason: stop ?? 'stop',
    }],
    usage: { prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050, ...(cost === undefined ? {} : { cost }) },
  };
}

/** An OpenAI-style error body (OpenAI, Groq and Mistral's chat completions use this shape). */
const openaiError = (message, { type = 'invalid_request_error', param = null, code = null } = {}) =>
  ({ error: { message, type, param, code } });

// Request rules each provider states, refused here the way it refuses them (400, its own error
// shape). Each rule names its source and when it was read. `state` switches the rules a test
// turns on (`unverifiedOrg`).

/** Groq's models with structured outputs (`json_schema`), by exact id:
 * console.groq.com/docs/structured-outputs, "Supported Models" (strict: gpt-oss 20b and 120b;
 * best effort: those, gpt-oss-safeguard-20b, Kimi K2, Llama 4 Maverick and Scout); read
 * 2026-11-26 in a stored copy (the app's list: web/src/providers/openai.rs, GROQ_STRICT and
 * GROQ_BEST_EFFORT). */
const GROQ_SCHEMA_MODELS = /^(openai\/gpt-oss-(20b|120b|safeguard-20b)|moonshotai\/kimi-k2-instruct(-0905)?|meta-llama\/llama-4-(maverick-17b-128e|scout-17b-16e)-instruct)$/;
/** OpenAI's reasoning models (gpt-5 family, o-series): platform.openai.com/docs/guides/reasoning. */
const OPENAI_REASONING = /^(gpt-5|o\d)/;

/**
 * Why `provider` refuses this request, as `{ status, body }`, or nothing. The rules:
 * - Groq, `json_schema` with `stream: true`: "Streaming and tool use are not currently supported
 *   with Structured Outputs" (console.groq.com/docs/structured-outputs, read 2026-11-26; the words
 *   of the 400 are ours, its shape Groq's OpenAI-compatible error).
 * - Groq, `json_schema` on a model without structured outputs: "This model does not support
 *   response format `json_schema`" (Groq's answer as quoted in v0.app/chat/groq-api-integration-
 *   jJZDjObZqiy, read 2026-11-26).
 * - OpenAI, `max_tokens` on a reasoning model: 400 unsupported_parameter, "Use
 *   'max_completion_tokens' instead" (platform.openai.com/docs/guides/reasoning; the body as OpenAI
 *   sends it, read 2026-11-26).
 * - OpenAI (and OpenRouter passing it on), a streamed reasoning model when `state.unverifiedOrg`:
 *   400 "Your organization must be verified to stream this model" (the real body,
 *   web/src/providers/fixtures/errors/openai-400-unverified-stream.json, and its sources).
 */
export function requestRefusal(state, entry) {
  const { provider, body } = entry;
  if (entry.method !== 'POST' || !body) return undefined;
  const format = body.response_format?.type;
  const model = String(body.model ?? '');
  const bare = provider === 'openrouter' ? model.replace(/^openai\//, '') : model;
  if (provider === 'groq' && format === 'json_schema' && !GROQ_SCHEMA_MODELS.test(model)) {
    return { status: 400, body: openaiError('This model does not support response format `json_schema`. See supported models at https://console.groq.com/docs/structured-outputs#supported-models') };
  }
  if (provider === 'groq' && format === 'json_schema' && body.stream === true) {
    return { status: 400, body: openaiError('response_format `json_schema` is not supported with streaming', { param: 'stream' }) };
  }
  if (provider === 'openai' && OPENAI_REASONING.test(model) && body.max_tokens !== undefined) {
    return { status: 400, body: openaiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", { param: 'max_tokens', code: 'unsupported_parameter' }) };
  }
  const unverified = openaiError('Your organization must be verified to stream this model. Please go to: https://platform.openai.com/settings/organization/general and click on Verify Organization. If you just verified, it can take up to 15 minutes for access to propagate.', { param: 'stream', code: 'unsupported_value' });
  if (state.unverifiedOrg && body.stream === true && OPENAI_REASONING.test(bare)) {
    if (provider === 'openai') return { status: 400, body: unverified };
    if (provider === 'openrouter' && model.startsWith('openai/')) {
      return { status: 400, body: { error: { message: 'Provider returned error', code: 400, metadata: { raw: JSON.stringify(unverified, null, 2), provider_name: 'OpenAI' } } } };
    }
  }
  return undefined;
}

/**
 * The request headers each provider's API takes, which its CORS preflight allows (a header
 * outside the list fails the preflight, and the browser never sends the request). From each API
 * reference's list of request headers (platform.openai.com/docs/api-reference, openrouter.ai/docs,
 * docs.mistral.ai/api, console.groq.com/docs/api-reference, docs.claude.com/en/api/overview with
 * "CORS" for `anthropic-dangerous-direct-browser-access`, ai.google.dev/api, Ollama's and LM
 * Studio's API docs); read 2026-11-26. Their servers' real preflight answers could not be read
 * from here, so this is the documented set, not a recording.
 */
export const ALLOWED_HEADERS = {
  openai: ['authorization', 'content-type', 'openai-organization', 'openai-project'],
  openrouter: ['authorization', 'content-type', 'http-referer', 'x-title'],
  mistral: ['authorization', 'content-type'],
  groq: ['authorization', 'content-type'],
  local: ['authorization', 'content-type'],
  anthropic: ['x-api-key', 'content-type', 'anthropic-version', 'anthropic-beta', 'anthropic-dangerous-direct-browser-access'],
  gemini: ['x-goog-api-key', 'content-type'],
  ollama: ['authorization', 'content-type'],
};

/** The model list a provider's models endpoint answers with. */
function models(family) {
  if (family === 'gemini') {
    return { models: [
      { name: 'models/gemini-2.5-flash', supportedGenerationMethods: ['generateContent', 'countTokens'] },
      { name: 'models/text-embedding-004', supportedGenerationMethods: ['embedContent'] },
    ] };
  }
  if (family === 'ollama') return { models: [{ name: 'llama3.1', model: 'llama3.1' }, { name: 'qwen3:8b', model: 'qwen3:8b' }] };
  return { object: 'list', data: [{ id: 'mock-small', object: 'model' }, { id: 'mock-large', object: 'model' }] };
}

/**
 * Starts the mock on 127.0.0.1. `state.respond(entry)` returns, per request, one of:
 * `{ text }` (a normal streamed answer), `{ text, cut: true }`, `{ refusal: 'why' }`,
 * `{ status, body, headers }` (an HTTP error), `{ delay, ...another }` (the answer starts late),
 * `{ chunkDelay, ...another }` (ms between chunks: 5 unless given; 0 sends the whole stream at
 * once), `{ cost }` (dollars,
 * reported in the usage), or nothing (held open); it may return a promise of one.
 * `state.testReply(entry)` answers Settings' connection test. POSTs to keyed providers need
 * their key. A request that breaks a provider's rule gets its 400 first (requestRefusal); a
 * request with `stream: false` gets one whole JSON answer (whole). `originPerProvider` serves each provider from its own port (see below).
 */
export async function startProviderMock({ originPerProvider = false } = {}) {
  // `exposeRetryAfter`: Retry-After is not a CORS-safelisted response header, so the page reads
  // it only where the provider lists it in Access-Control-Expose-Headers; hidden unless a test
  // asks. `unverifiedOrg`: OpenAI refuses to stream its reasoning models (see requestRefusal).
  const state = { requests: [], respond: null, preflights: [], exposeRetryAfter: false, unverifiedOrg: false };
  const handler = (req, res) => {
    const url = new URL(req.url, 'http://mock');
    const provider = Object.keys(PREFIXES).find((p) => url.pathname.startsWith(PREFIXES[p] + '/'));
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': (ALLOWED_HEADERS[provider] ?? ['content-type']).join(', '),
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      ...(state.exposeRetryAfter ? { 'access-control-expose-headers': 'retry-after, retry-after-ms' } : {}),
    };
    if (req.method === 'OPTIONS') {
      // Recorded, with what the page asked to send; a header outside the provider's list is
      // simply not allowed back, and the browser then refuses to send the request.
      const asked = (req.headers['access-control-request-headers'] ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
      state.preflights.push({ provider, path: url.pathname, asked, refused: asked.filter((h) => !(ALLOWED_HEADERS[provider] ?? []).includes(h)) });
      res.writeHead(204, cors);
      res.end();
      return;
    }
    if (!provider) {
      res.writeHead(404, { ...cors, 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no such route ${url.pathname}` } }));
      return;
    }
    const family = FAMILY[provider];
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const body = raw ? JSON.parse(raw) : null;
      const rest = url.pathname.slice(PREFIXES[provider].length);
      const entry = {
        provider, family, method: req.method, path: url.pathname, search: url.search, rest,
        headers: req.headers, body, step: STEPS[schemaOf(body)?.title], answered: false,
        // Whether the page asked for a stream (OpenAI-style `stream`; the other families always do).
        streamed: body?.stream !== false,
        // When the request was read whole, and when its answer ended (ms; for benchmarks).
        at: Date.now(), endedAt: null,
      };
      state.requests.push(entry);
      if (req.method === 'GET') {
        const keyed = req.headers.authorization || req.headers['x-api-key'] || req.headers['x-goog-api-key'];
        const needsKey = !['ollama', 'local'].includes(provider);
        if (needsKey && !keyed?.includes(`sk-${provider}-`)) {
          res.writeHead(401, { ...cors, 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: 'Invalid API key provided.' } }));
          return;
        }
        res.writeHead(200, { ...cors, 'content-type': 'application/json' });
        res.end(JSON.stringify(models(family)));
        return;
      }
      const keyed = req.headers.authorization || req.headers['x-api-key'] || req.headers['x-goog-api-key'];
      if (!['ollama', 'local'].includes(provider) && !keyed?.includes(`sk-${provider}-`)) {
        entry.answered = true;
        res.writeHead(401, { ...cors, 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'Invalid API key provided.' } }));
        return;
      }
      // An option or header combination the provider refuses (requestRefusal): its own 400.
      const refused = requestRefusal(state, entry);
      if (refused) {
        entry.answered = true;
        entry.refused = refused.body;
        res.writeHead(refused.status, { ...cors, 'content-type': 'application/json' });
        res.end(JSON.stringify(refused.body));
        return;
      }
      // Settings' connection test (its system message says so): `state.testReply` decides, else
      // a tiny answer. Any other request: `state.respond` (which may return a promise).
      const test = raw.includes('You are a connection test');
      // A schema the provider's published rules refuse gets its 400 (provider-rules.mjs).
      const reply = schemaRefusal(provider, body) ?? (test
        ? (state.testReply?.(entry) ?? { text: '{"ok": true}' })
        : await state.respond?.(entry));
      if (!reply) return; // held open
      if (reply.delay) await new Promise((r) => setTimeout(r, reply.delay));
      if (reply.status) {
        entry.answered = true;
        res.writeHead(reply.status, { ...cors, 'content-type': 'application/json', ...(reply.headers ?? {}) });
        res.end(JSON.stringify(reply.body ?? {}));
        return;
      }
      // OpenRouter reports what each call cost in its usage (dollars); the others do not.
      const cost = reply.cost ?? (provider === 'openrouter' ? 0.000321 : undefined);
      const text = reply.refusal ?? answerAsSent(provider, body, reply.text ?? '');
      if (family === 'openai' && !entry.streamed) {
        entry.answered = true;
        entry.endedAt = Date.now();
        res.writeHead(200, { ...cors, 'content-type': 'application/json' });
        res.end(JSON.stringify(whole(text, { ...reply, refusal: reply.refusal !== undefined, cost })));
        return;
      }
      const { type, chunks } = stream(family, text, { ...reply, cost });
      res.writeHead(200, { ...cors, 'content-type': type, 'cache-control': 'no-cache' });
      res.flushHeaders();
      const chunkDelay = reply.chunkDelay ?? 5;
      for (const chunk of chunks) {
        if (res.destroyed) return;
        res.write(chunk);
        if (chunkDelay > 0) await new Promise((r) => setTimeout(r, chunkDelay));
      }
      entry.answered = true;
      entry.endedAt = Date.now();
      res.end();
    });
  };
  // One server, or with `originPerProvider` one per provider (each on its own port): a browser
  // opens at most six HTTP/1.1 connections to one origin, so more parallel calls than that to
  // one mock would queue in the browser, which real providers (separate hosts, HTTP/2) do not.
  const listen = async () => {
    const srv = http.createServer(handler);
    await new Promise((r) => srv.listen(0, '127.0.0.1', r));
    return { srv, url: `http://127.0.0.1:${srv.address().port}` };
  };
  const main = await listen();
  const own = {};
  if (originPerProvider) for (const p of PROVIDERS) own[p] = await listen();
  const servers = [main, ...Object.values(own)];
  return {
    state,
    url: main.url,
    base: (provider) => `${(own[provider] ?? main).url}${PREFIXES[provider]}`,
    stop: () => Promise.all(servers.map(({ srv }) => {
      srv.closeAllConnections();
      return new Promise((r) => srv.close(r));
    })),
  };
}
