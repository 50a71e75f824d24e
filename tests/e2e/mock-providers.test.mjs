// The loopback mock refuses what each provider refuses (requestRefusal, ALLOWED_HEADERS in
// mock-providers.mjs, each rule with its source): spoken to over HTTP as the page would, no
// browser needed. The browser tests then meet these refusals wherever the app would break a rule.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startProviderMock, keyOf } from './mock-providers.mjs';

let mock;
before(async () => {
  mock = await startProviderMock();
  mock.state.respond = () => ({ text: '{"ok": true}', chunkDelay: 0 });
});
after(async () => {
  await mock?.stop();
});

const post = (provider, body, headers = {}) => fetch(`${mock.base(provider)}/chat/completions`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${keyOf(provider)}`, ...headers },
  body: JSON.stringify({ messages: [{ role: 'user', content: 'Answer in JSON.' }], ...body }),
});
const schema = { type: 'json_schema', json_schema: { name: 'answer', strict: true, schema: { type: 'object', properties: {}, required: [], additionalProperties: false } } };

test('Groq: json_schema is refused when streamed and on a model without structured outputs; json_object is not', async () => {
  let r = await post('groq', { model: 'openai/gpt-oss-120b', stream: true, response_format: schema });
  assert.equal(r.status, 400);
  assert.match((await r.json()).error.message, /not supported with streaming/);
  r = await post('groq', { model: 'llama-3.3-70b-versatile', stream: false, response_format: schema });
  assert.equal(r.status, 400);
  assert.match((await r.json()).error.message, /does not support response format `json_schema`/);
  r = await post('groq', { model: 'openai/gpt-oss-120b', stream: false, response_format: schema });
  assert.equal(r.status, 200);
  assert.equal((await r.json()).choices[0].message.content, '{"ok": true}', 'a whole answer, not a stream');
  r = await post('groq', { model: 'llama-3.3-70b-versatile', stream: false, response_format: { type: 'json_object' } });
  assert.equal(r.status, 200);
});

test('OpenAI: max_tokens on a reasoning model is refused; streaming it is refused for an unverified organisation only', async () => {
  let r = await post('openai', { model: 'gpt-5.4-mini', stream: true, max_tokens: 100 });
  assert.equal(r.status, 400);
  assert.equal((await r.json()).error.code, 'unsupported_parameter');
  r = await post('openai', { model: 'gpt-5.4-mini', stream: true, max_completion_tokens: 100 });
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type'), /text\/event-stream/);
  await r.text();
  mock.state.unverifiedOrg = true;
  try {
    r = await post('openai', { model: 'o3', stream: true, max_completion_tokens: 100 });
    assert.equal(r.status, 400);
    const e = (await r.json()).error;
    assert.equal(e.param, 'stream');
    assert.match(e.message, /must be verified to stream this model/);
    r = await post('openrouter', { model: 'openai/gpt-5.5', stream: true });
    assert.equal(r.status, 400);
    assert.match((await r.json()).error.metadata.raw, /must be verified to stream/, 'OpenRouter passes it on in metadata.raw');
    r = await post('openai', { model: 'o3', stream: false, max_completion_tokens: 100 });
    assert.equal(r.status, 200, 'the same call unstreamed is answered');
    r = await post('openai', { model: 'gpt-4.1', stream: true, max_tokens: 100 });
    assert.equal(r.status, 200, 'not a reasoning model: streams, and takes max_tokens');
    await r.text();
  } finally {
    mock.state.unverifiedOrg = false;
  }
});

test('Retry-After is exposed to the page only when a test asks; a preflight allows only the provider\'s own headers', async () => {
  mock.state.respond = () => ({ status: 429, headers: { 'retry-after': '3' }, body: { error: { message: 'slow down' } } });
  try {
    let r = await post('mistral', { model: 'mistral-medium-latest', stream: true });
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('access-control-expose-headers'), null, 'hidden: the page cannot read Retry-After');
    mock.state.exposeRetryAfter = true;
    r = await post('mistral', { model: 'mistral-medium-latest', stream: true });
    assert.match(r.headers.get('access-control-expose-headers'), /retry-after/);
  } finally {
    mock.state.exposeRetryAfter = false;
    mock.state.respond = () => ({ text: '{"ok": true}', chunkDelay: 0 });
  }
  const preflight = async (provider, path, headers) => {
    const r = await fetch(`${mock.base(provider)}${path}`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:8765', 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
    });
    return r.headers.get('access-control-allow-headers').split(', ');
  };
  const anthropic = await preflight('anthropic', '/messages', 'anthropic-dangerous-direct-browser-access,anthropic-version,content-type,x-api-key');
  for (const h of ['x-api-key', 'anthropic-version', 'anthropic-dangerous-direct-browser-access', 'content-type']) assert.ok(anthropic.includes(h), h);
  assert.ok(!anthropic.includes('*'), 'no wildcard');
  const gemini = await preflight('gemini', '/models/x:streamGenerateContent', 'content-type,x-goog-api-key,x-stainless-os');
  assert.ok(!gemini.includes('x-stainless-os'), 'a header Gemini does not take is not allowed');
  const last = mock.state.preflights.at(-1);
  assert.deepEqual(last.refused, ['x-stainless-os']);
});
