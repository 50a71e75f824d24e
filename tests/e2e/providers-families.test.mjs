// Every provider family from the page, against the loopback mock (mock-providers.mjs): Settings
// points each provider's base URL at the mock and stores a key per provider; the connection test
// makes a tiny completion and refreshes the model list; each family answers a chair's Bootstrap in its own wire format with the step's
// schema enforced the way that provider takes it; a whole round runs with members on four
// families; and faults (429 with Retry-After exposed or hidden, Gemini's per-minute and per-day
// 429s, a billing 429, 529, a cut stream, a refusal, OpenAI refusing to stream) end in a bounded
// retry, a call asked again whole, or a clear pause, never in a corrupt session. The mock refuses
// what each provider refuses (Groq's streamed json_schema, …), so a wrong request fails here. Each key goes only into its own
// provider's requests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, open, shot, status, waitStatus, useProviderMock, saveKey, ROOT } from './helpers.mjs';
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
  // Each price says when it was read — and no research notes: no URL, no "table checked".
  const note = (p) => page.textContent(`p.price-note[data-provider="${p}"]`);
  assert.match(await note('anthropic'), /^claude-sonnet-5-5: \$2 in \/ \$10 out per million tokens \(the provider's published price, as of 2026-11-26[^)]*\); a call of/);
  assert.match(await note('groq'), /^openai\/gpt-oss-120b: \$0\.15 in \/ \$0\.6 out per million tokens \(the provider's published price, as of 2026-11-26\)/);
  for (const p of ['anthropic', 'groq']) assert.doesNotMatch(await note(p), /https?:|table checked/);
  await page.fill('input[name="model-mistral"]', 'codestral-latest');
  await page.waitForSelector('p.price-note[data-provider="mistral"]:has-text("No price known for codestral-latest")');
  await page.fill('input[name="model-mistral"]', '');
  // The model list fills the model field's suggestions.
  const options = await page.$$eval('datalist#models-gemini option', (os) => os.map((o) => o.value));
  assert.deepEqual(options, ['gemini-2.5-flash'], 'embedding models are left out');
  // A refused key is said as such.
  await saveKey(page, 'mistral', 'sk-wrong');
  await page.click('button[name="test-mistral"]');
  await page.waitForSelector('p.conn.bad[data-provider="mistral"]');
  assert.match(await page.textContent('p.conn[data-provider="mistral"]'), /Mistral refused the key \(HTTP 401\)/);
  await shot(page, 'providers-settings');
  await saveKey(page, 'mistral', keyOf('mistral'));
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
  // Every preflight asked only for headers its provider allows (ALLOWED_HEADERS in the mock).
  assert.ok(mock.state.preflights.length > 0, 'the keyed calls were preflighted');
  assert.deepEqual(mock.state.preflights.filter((p) => p.refused.length), [], 'no header a provider does not take');
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
  // This provider lists Retry-After in Access-Control-Expose-Headers, so the page can read it.
  mock.state.exposeRetryAfter = true;
  const t0 = Date.now();
  await withFaults(page, 'openrouter', [
    { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit exceeded: slow down' } } },
    { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
    { text: ANSWERS.bootstrap.chair, cut: true },
  ], 'Plan a workshop through a flaky provider.');
  const banner = await page.waitForSelector('[data-banner="retry"]', { timeout: 20000 });
  assert.match(await banner.textContent(), /rate limiting this key \(it asks to wait 1 s\)/);
  await page.waitForSelector('[data-live-state="retrying"]:has-text("retrying in")', { timeout: 20000 });
  await page.waitForSelector('[data-product-id="p3"]', { timeout: 60000 });
  assert.equal(await page.$('[data-banner="retry"]'), null, 'the retry banner goes once the retry succeeded');
  await waitStatus(page, ['paused'], 30000);
  const posts = mock.state.requests.filter((r) => r.method === 'POST');
  assert.equal(posts.length, 4, 'three faults, then the answer');
  assert.ok(Date.now() - t0 >= 1000, 'the Retry-After second was waited');
  mock.state.exposeRetryAfter = false;
  // Core recorded each retry: the call's transcript says how often it was tried again.
  await page.click('.timeline [data-call-id="call-1"] button');
  const retried = await page.waitForSelector('[role="dialog"] [data-retried]');
  assert.equal(
    await retried.textContent(),
    'The provider failed for a moment and the call was tried again 3 times.',
  );
  await shot(page, 'transcript-retried');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'transcript-retried-phone');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.keyboard.press('Escape');
  assert.deepEqual(unexpected(errors), []);
});

test('a Retry-After the provider does not expose is not read: the retry waits its own backoff', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  assert.equal(mock.state.exposeRetryAfter, false);
  await withFaults(page, 'mistral', [
    { status: 429, headers: { 'retry-after': '7' }, body: { message: 'Requests rate limit exceeded' } },
  ], 'Plan a workshop behind a hidden Retry-After.');
  const banner = await page.waitForSelector('[data-banner="retry"]', { timeout: 20000 });
  const text = await banner.textContent();
  assert.match(text, /Mistral is rate limiting this key: Requests rate limit exceeded/, text);
  assert.doesNotMatch(text, /it asks to wait/, 'the hidden header was not read');
  assert.match(text, /Trying again in [01] s \(attempt 2 of 4\)/, `a first backoff of at most a second: ${text}`);
  await page.waitForSelector('[data-product-id="p3"]', { timeout: 60000 });
  await waitStatus(page, ['paused'], 30000);
  assert.equal(mock.state.requests.filter((r) => r.method === 'POST').length, 2, 'one retry, then the answer');
  assert.deepEqual(unexpected(errors), []);
});

/** A real Gemini 429 body kept as a fixture of the Rust error tests (with its source). */
const geminiBody = (name) => JSON.parse(readFileSync(join(ROOT, 'web/src/providers/fixtures/errors', name), 'utf8')).body;

test('Gemini: a per-minute 429 is retried after its retryDelay; a day\'s quota used up pauses', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  // The recorded body asks for 26 s; the same body asking for 2 s keeps the test short.
  const perMinute = geminiBody('gemini-429-per-minute.json');
  perMinute.error.details.find((d) => d.retryDelay).retryDelay = '2s';
  await withFaults(page, 'gemini', [{ status: 429, body: perMinute }], 'Plan a workshop at Gemini\'s per-minute limit.');
  const banner = await page.waitForSelector('[data-banner="retry"]', { timeout: 20000 });
  assert.match(await banner.textContent(), /Google Gemini is rate limiting this key \(it asks to wait 2 s\): You exceeded your current quota/);
  await page.waitForSelector('[data-product-id="p3"]', { timeout: 60000 });
  await waitStatus(page, ['paused'], 30000);
  assert.equal(mock.state.requests.filter((r) => r.method === 'POST').length, 2, 'retried once, then answered');

  await withFaults(page, 'gemini', [{ status: 429, body: geminiBody('gemini-429-per-day.json') }], 'Plan a workshop on a spent daily quota.');
  const paused = await page.waitForSelector('[data-banner="paused"]', { timeout: 20000 });
  assert.match(await paused.textContent(), /quota or credit is used up/);
  await waitStatus(page, ['paused', 'draft']);
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(mock.state.requests.filter((r) => r.method === 'POST').length, 1, 'a day\'s quota is not retried');
  assert.deepEqual(unexpected(errors), []);
});

/** A new Research-lab session whose one member runs `model` on `provider`. */
async function createOn(page, request, provider, model) {
  await open(page, server.url, '#/new');
  await page.click('button[data-preset="research-lab"]');
  await page.fill('textarea[name="request"]', request);
  for (const select of await page.$$('select[name="member-provider"]')) await select.selectOption(provider);
  if (model) for (const input of await page.$$('input[name="member-model"]')) await input.fill(model);
  await page.click('button[name="create"]');
  await page.waitForSelector('.session-head');
}

test('Groq: json_schema only on a model that has it, asked whole (never streamed); json_object on one that has not', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  const posts = () => mock.state.requests.filter((r) => r.method === 'POST');
  mock.state.requests.length = 0;
  const answer = scripted({});
  // The whole answer comes a moment late: the call shows as running meanwhile.
  mock.state.respond = (entry) => ({ ...answer(entry), delay: 1500 });
  await createOn(page, 'Plan a workshop on Groq\'s gpt-oss.', 'groq');
  await page.click('button[name="step"]');
  await page.waitForSelector('[data-live-state="streaming"]', { timeout: 10000 });
  await page.waitForSelector('[data-product-id="p3"]', { timeout: 60000 });
  await waitStatus(page, ['paused'], 30000);
  let [r] = posts();
  assert.equal(posts().length, 1, 'answered at once: the mock refuses a streamed json_schema on Groq');
  assert.equal(r.body.model, 'openai/gpt-oss-120b');
  assert.equal(r.body.stream, false);
  assert.equal(r.body.stream_options, undefined);
  assert.equal(r.body.response_format.type, 'json_schema');
  assert.equal(r.body.response_format.json_schema.strict, true);

  mock.state.requests.length = 0;
  // A json_object call carries no schema (so no title naming its step): it is the Bootstrap.
  mock.state.respond = () => ({ text: ANSWERS.bootstrap.chair });
  await createOn(page, 'Plan a workshop on Groq\'s Llama 3.3.', 'groq', 'llama-3.3-70b-versatile');
  await page.click('button[name="step"]');
  await page.waitForSelector('[data-product-id="p3"]', { timeout: 60000 });
  await waitStatus(page, ['paused'], 30000);
  [r] = posts();
  assert.equal(posts().length, 1, 'no refusal: Llama 3.3 is not asked for a schema it has not');
  assert.deepEqual(r.body.response_format, { type: 'json_object' });
  assert.equal(r.body.stream, false);
  // Its transcript says JSON only was enforced, not the schema.
  await page.locator('.call-line button.link').first().click();
  await page.waitForSelector('.dialog[role="dialog"] [data-schema-form]');
  assert.match(
    await page.textContent('.dialog[role="dialog"] [data-schema-form]'),
    /^schema: the provider enforced JSON only/,
  );
  await page.keyboard.press('Escape');
  assert.deepEqual(unexpected(errors).filter((e) => !/status of 400/.test(e)), []);
});

test('OpenAI refusing to stream for an unverified organisation: the call is asked again whole, said once, and the next calls go whole', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  const posts = () => mock.state.requests.filter((r) => r.method === 'POST');
  mock.state.requests.length = 0;
  mock.state.unverifiedOrg = true;
  try {
    mock.state.respond = scripted({});
    await createOn(page, 'Plan a workshop on an unverified OpenAI organisation.', 'openai');
    await page.click('button[name="step"]');
    await page.waitForSelector('[data-product-id="p3"]', { timeout: 60000 });
    await waitStatus(page, ['paused'], 30000);
    const [refused, whole] = posts();
    assert.equal(posts().length, 2, 'one refused stream, then the same call whole');
    assert.equal(refused.body.stream, true);
    assert.match(refused.refused.error.message, /must be verified to stream/);
    assert.equal(whole.body.stream, false);
    assert.equal(whole.body.stream_options, undefined);
    assert.deepEqual(whole.body.messages, refused.body.messages, 'the same call');
    assert.deepEqual(whole.body.response_format, refused.body.response_format);
    const notices = await page.$$eval('[data-banner="notice"]', (bs) => bs.map((b) => b.textContent));
    assert.equal(notices.length, 1, notices.join(' | '));
    assert.match(notices[0], /OpenAI will not stream gpt-5\.4-mini until your organisation is verified/);
    // The next step's call goes whole at once: no second refusal, nothing said again.
    // Wait on the mock seeing the next step's request, not on the page leaving `paused`: a
    // quick step can pause again between two looks at the page.
    await page.click('button[name="step"]');
    for (const end = Date.now() + 60000; posts().length <= 2; ) {
      assert.ok(Date.now() < end, 'the next step was asked within a minute');
      await new Promise((r) => setTimeout(r, 50));
    }
    await waitStatus(page, ['paused', 'done'], 60000);
    const later = posts().slice(2);
    assert.ok(later.length >= 1, 'the next step asked');
    assert.ok(later.every((q) => q.body.stream === false && !q.refused), 'asked whole, never refused again');
    assert.equal((await page.$$('[data-banner="notice"]')).length, 1, 'said once');
  } finally {
    mock.state.unverifiedOrg = false;
  }
  assert.deepEqual(unexpected(errors).filter((e) => !/status of 400/.test(e)), []);
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
