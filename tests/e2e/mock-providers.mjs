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
 * their key. `originPerProvider` serves each provider from its own port (see below).
 */
export async function startProviderMock({ originPerProvider = false } = {}) {
  const state = { requests: [], respond: null };
  const handler = (req, res) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-expose-headers': 'retry-after, retry-after-ms',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors);
      res.end();
      return;
    }
    const url = new URL(req.url, 'http://mock');
    const provider = Object.keys(PREFIXES).find((p) => url.pathname.startsWith(PREFIXES[p] + '/'));
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
