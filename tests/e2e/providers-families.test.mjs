// Every provider family from the page, against the loopback mock (mock-providers.mjs): Settings
// points each provider's base URL at the mock and stores a key per provider; the connection test
// makes a tiny completion and refreshes the model list; each family answers a chair's Bootstrap in its own wire format with the step's
// schema enforced the way that provider takes it; a whole round runs with members on four
// families; and faults (429 with Retry-After, a billing 429, 529, a cut stream, a refusal) end in
// a bounded retry or a clear pause, never in a corrupt session. Each key goes only into its own
// provider's requests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, open, shot, status, waitStatus, useProviderMock, ROOT } from './helpers.mjs';
import { startProviderMock, PROVIDERS, KEYED, keyOf, FAMILY } from './mock-providers.mjs';

const ANSWERS = JSON.parse(readFileSync(join(ROOT, 'tests/e2e/fixtures/team-round-1.json'), 'utf8'));

let server;
let browser;
let mock;

/** Page errors other than the browser's own log line for an HTTP error a test provoked. */
const unexpected = (errors) => errors.filter((e) => !/Failed to load resource: the server responded with a status of (401|403|429|500|529)/.test(e));

/** Where each family puts the key. */
function keyHeaders(entry) {
  const h = entry.headers;
  return [h.authorization, h['x-api-key'], h['x-goog-api-key']].filter(Boolean).join(' ');
}

/** A new Research-lab session whose members run on `providers` (one per member, in order). */
async function createSession(page, request, providers) {
  await open(page, server.url, '#/new');
  await page.click('button[data-preset="research-lab"]');
  await page.fill('textarea[name="request"]', request);
  const selects = await page.$$('select[name="member-provider"]');
  for (const [i, select] of selects.entries()) await select.selectOption(providers[i % providers.length]);
  await page.click('button[name="create"]');
  await page.waitForSelector('.session-head');
}

/** The demo recording's answer for this step and member (by the member's provider). */
function scripted(members) {
  return (entry) => {
    const member = members[entry.provider] ?? 'chair';
    const text = ANSWERS[entry.step]?.[member];
    if (!text) return { status: 400, body: { error: { message: `no scripted answer for ${entry.step} by ${member}` } } };
    // operative-2 writes after operative-1, as in the recording, so version ids match.
    return { text, delay: entry.step === 'write' && member === 'operative-2' ? 1500 : 0 };
  };
}

before(async () => {
  server = await serveDist();
  mock = await startProviderMock();
  browser = await launch();
  const { page } = browser;
  await useProviderMock(page, server.url, mock);
});

after(async () => {
  await browser?.close();
  await mock?.stop();
  await server?.stop();
});

test('Test connection answers for each provider, fills its model list, and says what is wrong in plain words', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  await open(page, server.url, '#/settings');
  for (const p of PROVIDERS) {
    await page.click(`button[name="test-${p}"]`);
    const line = await page.waitForSelector(`p.conn[data-provider="${p}"]`);
    const text = await line.textContent();
    assert.match(text, /^Connected to /, `${p}: ${text}`);
  }
  // The model list fills the model field's suggestions.
  const options = await page.$$eval('datalist#models-gemini option', (os) => os.map((o) => o.value));
  assert.deepEqual(options, ['gemini-2.5-flash'], 'embedding models are left out');
  // A refused key is said as such.
  await page.fill('input[name="key-mistral"]', 'sk-wrong');
  await page.press('input[name="key-mistral"]', 'Enter');
  await page.waitForSelector('text=Key for Mistral saved in this browser.');
  await page.click('button[name="test-mistral"]');
  await page.waitForSelector('p.conn.bad[data-provider="mistral"]');
  assert.match(await page.textContent('p.conn[data-provider="mistral"]'), /Mistral refused the key \(HTTP 401\)/);
  await shot(page, 'providers-settings');
  await page.fill('input[name="key-mistral"]', keyOf('mistral'));
  await page.press('input[name="key-mistral"]', 'Enter');
  await page.waitForSelector('text=Key for Mistral saved in this browser.');
  assert.deepEqual(unexpected(errors), []);
});

test('every family answers a chair\'s Bootstrap in its own wire format, schema enforced', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  mock.state.respond = scripted({});
  for (const p of PROVIDERS) {
    mock.state.requests.length = 0;
    await createSession(page, `Plan a workshop, answered by ${p}.`, [p]);
    await page.click('button[name="step"]');
    await waitStatus(page, ['paused'], 60000);
    await page.waitForSelector('[data-product-id="p3"]', { timeout: 10000 });
    assert.equal(await page.$('[data-banner="error"]'), null, `${p}: no error`);
    const posts = mock.state.requests.filter((r) => r.method === 'POST');
    assert.equal(posts.length, 1, `${p}: one call, no repair`);
    const [r] = posts;
    assert.equal(r.provider, p);
    assert.equal(r.step, 'bootstrap', `${p}: the schema's title names the step`);
    const key = keyHeaders(r);
    for (const other of KEYED) {
      if (other === p) assert.ok(key.includes(keyOf(p)), `${p}: its key is sent`);
      else assert.ok(!JSON.stringify(r).includes(keyOf(other)), `${p}: no ${other} key`);
    }
    const body = r.body;
    switch (FAMILY[p]) {
      case 'openai':
        assert.equal(r.rest, '/chat/completions');
        assert.equal(body.response_format.type, 'json_schema');
        assert.equal(body.response_format.json_schema.schema.type, 'object');
        if (p === 'openai') assert.equal(body.max_completion_tokens, 8192);
        else assert.equal(body.max_tokens, 8192);
        break;
      case 'anthropic':
        assert.equal(r.rest, '/messages');
        assert.equal(r.headers['anthropic-dangerous-direct-browser-access'], 'true');
        assert.equal(body.output_config.format.type, 'json_schema');
        break;
      case 'gemini':
        assert.match(r.rest + r.search, /^\/models\/[^/]+:streamGenerateContent\?alt=sse$/);
        assert.equal(body.generationConfig.responseMimeType, 'application/json');
        assert.equal(body.generationConfig.responseJsonSchema.type, 'object');
        break;
      case 'ollama':
        assert.equal(r.rest, '/api/chat');
        assert.equal(body.format.type, 'object');
        assert.ok(body.options.num_ctx >= 4096, `num_ctx ${body.options.num_ctx}`);
        break;
    }
  }
  await shot(page, 'providers-bootstrap');
  assert.deepEqual(unexpected(errors), []);
});

test('a whole round runs with members on four families', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  mock.state.requests.length = 0;
  // chair on Anthropic, the operatives on Gemini and Ollama, the inspector on OpenAI.
  mock.state.respond = scripted({ anthropic: 'chair', gemini: 'operative-1', ollama: 'operative-2', openai: 'inspector' });
  await createSession(page, 'Plan a two-day workshop on accessible web design.', ['anthropic', 'gemini', 'ollama', 'openai']);
  await page.click('button[name="round"]');
  await waitStatus(page, ['paused'], 90000);
  assert.equal(await page.$('[data-banner="error"]'), null, 'no error');
  const posts = mock.state.requests.filter((r) => r.method === 'POST');
  const seen = posts.map((r) => `${r.step}@${r.provider}`);
  assert.deepEqual(seen.slice(0, 2), ['bootstrap@anthropic', 'plan_assign@anthropic']);
  for (const want of ['write@gemini', 'write@ollama', 'peer_review@gemini', 'peer_review@ollama', 'inspection@openai']) {
    assert.ok(seen.includes(want), `${want} in ${seen.join(', ')}`);
  }
  assert.equal(posts.length, 7, `no repairs: ${seen.join(', ')}`);
  await shot(page, 'providers-round');
  assert.deepEqual(unexpected(errors), []);
});

/** Runs the chair's Bootstrap on `provider` with `faults` answered first, then the real answer. */
async function withFaults(page, provider, faults, request) {
  mock.state.requests.length = 0;
  let n = 0;
  const answer = scripted({});
  mock.state.respond = (entry) => (n < faults.length ? faults[n++] : answer(entry));
  await createSession(page, request, [provider]);
  await page.click('button[name="step"]');
}

test('a 429 with Retry-After, a 529 and a cut stream are retried, then the answer is taken', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  const t0 = Date.now();
  await withFaults(page, 'openrouter', [
    { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit exceeded: slow down' } } },
    { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
    { text: ANSWERS.bootstrap.chair, cut: true },
  ], 'Plan a workshop through a flaky provider.');
  const banner = await page.waitForSelector('[data-banner="retry"]', { timeout: 20000 });
  assert.match(await banner.textContent(), /rate limiting this key \(it asks to wait 1 s\)|Trying again/);
  await page.waitForSelector('[data-live-state="retrying"]:has-text("retrying in")', { timeout: 20000 });
  await page.waitForSelector('[data-product-id="p3"]', { timeout: 60000 });
  assert.equal(await page.$('[data-banner="retry"]'), null, 'the retry banner goes once the retry succeeded');
  await waitStatus(page, ['paused'], 30000);
  const posts = mock.state.requests.filter((r) => r.method === 'POST');
  assert.equal(posts.length, 4, 'three faults, then the answer');
  assert.ok(Date.now() - t0 >= 1000, 'the Retry-After second was waited');
  assert.deepEqual(unexpected(errors), []);
});

test('a billing 429 is not retried and pauses with what to do', async () => {
  const { page } = browser;
  await withFaults(page, 'openai', [
    { status: 429, body: { error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', code: 'insufficient_quota' } } },
  ], 'Plan a workshop on an empty account.');
  const banner = await page.waitForSelector('[data-banner="paused"]', { timeout: 20000 });
  const text = await banner.textContent();
  assert.match(text, /quota or credit is used up/, text);
  assert.match(text, /billing/, text);
  await waitStatus(page, ['paused', 'draft']);
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(mock.state.requests.filter((r) => r.method === 'POST').length, 1, 'not retried');
  assert.equal(await page.$('[data-product-id="p1"]'), null, 'nothing applied');
  await shot(page, 'providers-billing');
});

test('a refusal never reaches the validator: the session pauses and says the model refused', async () => {
  const { page } = browser;
  await withFaults(page, 'anthropic', [{ refusal: 'I cannot help with that request.' }], 'Plan something the model refuses.');
  const banner = await page.waitForSelector('[data-banner="paused"]', { timeout: 20000 });
  assert.match(await banner.textContent(), /the model refused to answer/);
  await waitStatus(page, ['paused', 'draft']);
  await new Promise((r) => setTimeout(r, 1000));
  const posts = mock.state.requests.filter((r) => r.method === 'POST');
  assert.equal(posts.length, 1, 'no repair prompt was sent for a refusal');
  assert.equal(await status(page) === 'running', false);
  await shot(page, 'providers-refusal');
});

test('a 500 is retried; a 403 and a filtered answer pause; a length stop and broken JSON go back for repair', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  const posts = () => mock.state.requests.filter((r) => r.method === 'POST');

  // 500 on Mistral: retried, then the answer is taken.
  await withFaults(page, 'mistral', [{ status: 500, body: { message: 'Internal server error' } }], 'Plan through a server hiccup.');
  await page.waitForSelector('[data-product-id="p3"]', { timeout: 60000 });
  await waitStatus(page, ['paused'], 30000);
  assert.equal(posts().length, 2, 'one retry');

  // 403 on Groq: the key is refused; no retry, nothing applied.
  await withFaults(page, 'groq', [{ status: 403, body: { error: { message: 'Forbidden: this key may not use the model' } } }], 'Plan with a forbidden key.');
  let banner = await page.waitForSelector('[data-banner="paused"]', { timeout: 20000 });
  assert.match(await banner.textContent(), /Groq refused the key \(HTTP 403\)/);
  await waitStatus(page, ['paused', 'draft']);
  await new Promise((r) => setTimeout(r, 1200));
  assert.equal(posts().length, 1, 'a refused key is not retried');
  assert.equal(await page.$('[data-product-id="p1"]'), null);

  // Gemini's safety stop: a filtered answer is never validated; the session pauses.
  await withFaults(page, 'gemini', [{ refusal: '{"responseType": "final_output"' }], 'Plan something the filter stops.');
  banner = await page.waitForSelector('[data-banner="paused"]', { timeout: 20000 });
  assert.match(await banner.textContent(), /content filter withheld the answer \(SAFETY\)/);
  await waitStatus(page, ['paused', 'draft']);
  assert.equal(posts().length, 1, 'no repair prompt for a filtered answer');
  await shot(page, 'providers-filtered');

  // Ollama stops for length halfway: the model is asked again for a shorter answer.
  const half = ANSWERS.bootstrap.chair.slice(0, 400);
  await withFaults(page, 'ollama', [{ text: half, stop: 'length' }], 'Plan with a short answer limit.');
  await page.waitForSelector('[data-product-id="p3"]', { timeout: 60000 });
  await waitStatus(page, ['paused'], 30000);
  assert.equal(posts().length, 2, 'the cut answer, then the repaired one');
  assert.match(posts()[1].body.messages.at(-1).content, /shorter/, 'the repair asks for a shorter answer');

  // Broken JSON on the local server: sent back with the validator's report, then taken.
  await withFaults(page, 'local', [{ text: '{"responseType": "final_output", "thinking": oops}' }], 'Plan with a sloppy model.');
  await page.waitForSelector('[data-product-id="p3"]', { timeout: 60000 });
  await waitStatus(page, ['paused'], 30000);
  assert.equal(posts().length, 2);
  assert.equal(posts()[1].body.messages.at(-2).content, '{"responseType": "final_output", "thinking": oops}');
  assert.deepEqual(unexpected(errors), []);
});
