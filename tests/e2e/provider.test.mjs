// The real provider path, against a mock OpenAI-compatible server on loopback (the "Local server"
// provider): what a request carries, a streamed answer shown as it arrives, an unusable answer sent back with the validator's repair
// prompt until the session pauses with the report, HTTP errors in plain words, and Stop
// cancelling the requests still out. Then OpenAI and Anthropic themselves, with Playwright standing
// in for their hosts: each key goes into its own provider's header and nowhere else.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { serveDist, launch, open, shot, status, waitStatus, saveBase } from './helpers.mjs';

let server;
let browser;
let mock;

/** A chat-completions server on 127.0.0.1 whose answer a test sets; it records every request. */
async function startMock() {
  const state = { requests: [], respond: null, closedEarly: 0 };
  const srv = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'content-type, authorization');
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.method === 'GET') {
        // The model list (the new-session form offers it): not one of the calls a test counts.
        res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: 'local-model', object: 'model' }] }));
        return;
      }
      const entry = { path: req.url, headers: req.headers, body: JSON.parse(body), answered: false };
      state.requests.push(entry);
      // A request the page gives up on before it is answered (Stop) closes its connection.
      res.on('close', () => {
        if (!entry.answered) state.closedEarly += 1;
      });
      const reply = state.respond?.(entry);
      if (!reply) return; // held: never answered
      if (reply.sse) {
        streamReply(res, entry, reply.sse);
        return;
      }
      entry.answered = true;
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise((r) => srv.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${srv.address().port}/v1`,
    stop: () => {
      srv.closeAllConnections();
      return new Promise((r) => srv.close(r));
    },
  };
}

/**
 * Answers with an event stream, piece by piece: a string or Buffer is written as one chunk, a
 * promise holds the stream until it settles, a function is called and its promise awaited. The request counts as answered once the stream ends.
 */
async function streamReply(res, entry, pieces) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  for (const piece of pieces) {
    if (res.destroyed) return;
    if (typeof piece === 'function') await piece();
    else if (typeof piece?.then === 'function') await piece;
    else res.write(piece);
  }
  if (res.destroyed) return;
  entry.answered = true;
  res.end();
}

/** A pause between two pieces of a stream (it starts when the stream reaches it). */
const pause = (ms) => () => new Promise((r) => setTimeout(r, ms));
const event = (data) => `data: ${JSON.stringify(data)}\n\n`;
/** One chat-completion chunk carrying a piece of the answer. */
const delta = (content) => event({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });
/** The end of a stream as OpenAI sends it: the finish reason, usage in a chunk of its own, [DONE]. */
const streamEnd = () => [
  event({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
  ': a comment line, to be skipped\n\n',
  event({ choices: [], usage: { prompt_tokens: 1200, completion_tokens: 40 } }),
  'data: [DONE]\n\n',
];

const completion = (content) => ({
  choices: [{ message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1200, completion_tokens: 40 },
});

/** A new session whose every member runs on the local server; returns its id. */
async function createLocalSession(page, base, request, provider = 'local') {
  await open(page, base, '#/new');
  await page.click('button[data-preset="research-lab"]');
  await page.fill('textarea[name="request"]', request);
  for (const select of await page.$$('select[name="member-provider"]')) {
    await select.selectOption(provider);
  }
  await page.click('button[name="create"]');
  await page.waitForSelector('.session-head');
  return page.url().split('#/s/')[1].split('/')[0];
}

async function until(what, check, timeout = 20000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

before(async () => {
  server = await serveDist();
  mock = await startMock();
  browser = await launch();
  const { page } = browser;
  await open(page, server.url, '#/settings');
  await saveBase(page, 'local', mock.url);
});

after(async () => {
  await browser?.close();
  await mock?.stop();
  await server?.stop();
});

test('an unusable answer goes back with the repair prompt until the session pauses with the report', async () => {
  const { page, errors } = browser;
  mock.state.requests.length = 0;
  mock.state.respond = () => ({ body: completion('Sure! Here is my plan: {"responseType": "final_output"') });
  await createLocalSession(page, server.url, 'Map the evidence on four-day work weeks.');
  await page.click('button[name="step"]');
  await waitStatus(page, ['paused', 'awaiting_person'], 60000);

  // Bootstrap is the chair's call: the first request and each repair (2 by default) went out.
  const reqs = mock.state.requests;
  assert.equal(reqs.length, 3, `three requests: ${reqs.map((r) => r.path).join(', ')}`);
  for (const r of reqs) {
    assert.equal(r.path, '/v1/chat/completions');
    assert.equal(r.body.model, 'local-model');
    // The step's schema, in the grammar form local servers take; never json_object (LM Studio
    // refuses it).
    assert.equal(r.body.response_format.type, 'json_schema');
    assert.equal(r.body.response_format.json_schema.schema.title, 'BootstrapAnswer');
    assert.equal(r.body.messages[0].role, 'system');
    assert.equal(r.headers.authorization, undefined, 'no key goes to a local server');
  }
  assert.ok(JSON.stringify(reqs[0].body.messages).includes('four-day work weeks'), 'the request is in the prompt');
  // Each repair repeats the conversation, the model's answer, then what to fix.
  const last = reqs[1].body.messages.at(-1);
  assert.equal(last.role, 'user');
  assert.match(last.content, /could not be used/);
  assert.equal(reqs[1].body.messages.at(-2).content, 'Sure! Here is my plan: {"responseType": "final_output"');
  assert.equal(reqs[2].body.messages.length, reqs[1].body.messages.length + 2);

  // The person sees why it stopped, and the transcript has every attempt.
  assert.equal(await status(page), 'paused');
  const banner = await page.textContent('[data-banner="paused"]');
  assert.match(banner, /repair|could not|invalid|retr/i, banner);
  await shot(page, 'provider-repairs-exhausted');
  assert.deepEqual(errors, []);
});

test('a streamed answer shows in the timeline and the transcript as it arrives, then is taken whole', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  mock.state.requests.length = 0;
  let release;
  const gate = new Promise((r) => (release = r));
  const sofar = 'Thinking it over — größer 🎉 first.';
  const answer = `${sofar} {"responseType": "final_output"`;
  // The emoji's four bytes are split between two chunks written 50 ms apart.
  const split = Buffer.from(delta(' 🎉 first.'));
  const cut = split.indexOf(Buffer.from('🎉')) + 2;
  mock.state.respond = () => ({
    sse: [
      ': keep-alive\n\n',
      delta('Thinking it over'),
      pause(50),
      delta(' — größer'),
      pause(50),
      split.subarray(0, cut),
      pause(50),
      split.subarray(cut),
      gate, // held here until the test has seen the partial answer
      delta(' {"responseType": '),
      pause(50),
      delta('"final_output"'),
      ...streamEnd(),
    ],
  });
  await createLocalSession(page, server.url, 'Sketch a reading list on tidal power.');
  await page.click('button[name="step"]');

  // Before the answer is complete: the member is streaming with a live count…
  const live = await page.waitForSelector('[data-live-state="streaming"]:has-text("chars")', { timeout: 30000 });
  assert.match(await live.textContent(), /^streaming · \d+ chars$/);
  // …and the call's transcript shows the text so far, with the split character whole.
  await page.click('.call-line button');
  await page.waitForFunction((t) => document.querySelector('pre[data-streaming]')?.textContent === t, sofar, { timeout: 10000 });
  assert.ok(await page.isVisible('[role="status"].badge.streaming'), 'a live indicator');
  assert.equal(mock.state.requests.length, 1);
  assert.equal(mock.state.requests[0].answered, false, 'the answer is not complete yet');
  assert.equal(mock.state.requests[0].body.stream, true);
  assert.deepEqual(mock.state.requests[0].body.stream_options, { include_usage: true });
  await shot(page, 'provider-streaming');

  // The rest arrives: the whole answer is validated (invalid here) and sent back for repair.
  release();
  await waitStatus(page, ['paused', 'awaiting_person'], 60000);
  const reqs = mock.state.requests;
  assert.equal(reqs.length, 3, 'the first request and two repairs');
  assert.equal(reqs[1].body.messages.at(-2).content, answer, 'the repair quotes the whole streamed answer');
  // The transcript (still open on the first call) now shows the stored answer and the usage
  // the stream reported in its last chunk; nothing is streaming any more.
  await page.waitForSelector('pre[data-streaming]', { state: 'detached' });
  assert.equal(await page.textContent('[data-section="raw"] pre'), answer);
  assert.match(await page.textContent('.dialog'), /provider: 1200 in \/ 40 out/);
  assert.equal(await page.$('[data-live-state="streaming"]'), null);
  assert.deepEqual(errors, []);
});

test('an HTTP error from the provider is shown in plain words and nothing is applied', async () => {
  const { page } = browser;
  mock.state.requests.length = 0;
  mock.state.respond = () => ({ status: 404, body: { error: { message: 'model "llama3.1" not found, try pulling it first' } } });
  await createLocalSession(page, server.url, 'Compare heat pumps and gas boilers.');
  await page.click('button[name="step"]');
  const banner = await page.waitForSelector('[data-banner="paused"]', { timeout: 30000 });
  const text = await banner.textContent();
  assert.match(text, /does not know the model "local-model"/);
  assert.doesNotMatch(text, /paused by you|\.\./);
  assert.ok(await banner.$('a[href="#/settings"]'), 'the message links to Settings');
  // The failed call says so in the timeline and in its transcript, not "waiting".
  const line = await page.waitForSelector('.call-line [data-state="failed"]');
  assert.equal(await line.textContent(), 'failed');
  await page.click('.call-line button.link');
  const failed = await page.waitForSelector('[data-failed="true"]');
  assert.match(await failed.textContent(), /not found, try pulling it first/);
  await page.keyboard.press('Escape');
  assert.match(text, /not found, try pulling it first/);
  await waitStatus(page, ['paused', 'draft']);
  assert.equal(mock.state.requests.length, 1, 'a 404 is not retried');
  await shot(page, 'provider-http-error');
});

test('Stop cancels the requests still out', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  mock.state.requests.length = 0;
  mock.state.closedEarly = 0;
  // The model starts answering, then holds the stream open forever.
  mock.state.respond = () => ({ sse: [delta('{"responseType": "bootstrap", '), new Promise(() => {})] });
  await createLocalSession(page, server.url, 'Draft a style guide for release notes.');
  await page.click('button[name="run"]');
  await until('the request to reach the server', () => mock.state.requests.length === 1);
  await page.waitForSelector('[data-live-state="streaming"]:has-text("chars")', { timeout: 10000 });
  await page.waitForSelector('button[name="stop"]:not([disabled])');
  await page.click('button[name="stop"]');
  await until('the browser to drop the held stream', () => mock.state.closedEarly === 1, 10000);
  await waitStatus(page, ['paused', 'draft']);
  assert.equal(await page.$('[data-live-state="streaming"]'), null, 'nothing shows as streaming after Stop');
  // A retry would come after the runner's first back-off (2 s): wait past it.
  await new Promise((r) => setTimeout(r, 2500));
  assert.equal(mock.state.requests.length, 1, 'nothing new was sent after Stop');
  assert.equal(await page.$('[data-banner="error"]'), null, 'the aborted request is no error to show');
  // The cancelled call reads "stopped", not "waiting · 0".
  await page.waitForSelector('.call-line [data-state="stopped"]');
  assert.doesNotMatch(await page.textContent('.timeline'), /waiting/);
  assert.deepEqual(errors, []);
});

test('a key goes only into its own provider\'s request, never into files, URLs or the console', async () => {
  const { page, context, errors } = browser;
  errors.length = 0;
  const KEYS = { openai: 'sk-test-OPENAI-7f3a9c0d', anthropic: 'sk-ant-test-ANTHROPIC-51be22' };
  const logged = [];
  page.on('console', (m) => logged.push(m.text()));
  const seen = [];
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': '*',
    'access-control-allow-methods': 'POST, OPTIONS',
  };
  // Playwright answers for the providers' hosts (the page's CSP allows exactly these).
  const fake = (name, answer) => async (route) => {
    const req = route.request();
    if (req.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    seen.push({ name, method: req.method(), url: req.url(), headers: await req.allHeaders(), body: req.postData() });
    return typeof answer === 'string'
      ? route.fulfill({ status: 200, headers: cors, contentType: 'text/event-stream', body: answer })
      : route.fulfill({ status: 200, headers: cors, contentType: 'application/json', body: JSON.stringify(answer) });
  };
  // OpenAI answers with plain JSON (a server that ignores `stream`), Anthropic with its event stream.
  await context.route('https://api.openai.com/**', fake('openai', completion('no JSON here')));
  const anthropicEvent = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  await context.route('https://api.anthropic.com/**', fake('anthropic', [
    anthropicEvent('message_start', { message: { content: [], usage: { input_tokens: 900, output_tokens: 1 } } }),
    anthropicEvent('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    anthropicEvent('ping', {}),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'no JSON ' } }),
    anthropicEvent('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'here either' } }),
    anthropicEvent('content_block_stop', { index: 0 }),
    anthropicEvent('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 12 } }),
    anthropicEvent('message_stop', {}),
  ].join('')));

  await open(page, server.url, '#/settings');
  for (const [id, key] of Object.entries(KEYS)) {
    await page.fill(`input[name="key-${id}"]`, key);
    await page.press(`input[name="key-${id}"]`, 'Enter');
    await page.waitForSelector(`fieldset[data-provider="${id}"] .badge.ok`);
  }

  const urls = [];
  for (const provider of ['openai', 'anthropic']) {
    await createLocalSession(page, server.url, `Plan a launch on ${provider}.`, provider);
    await page.click('button[name="step"]');
    await waitStatus(page, ['paused', 'awaiting_person'], 60000);
    urls.push(page.url());
    const file = await (async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click('.session-head button[name="export"]'),
      ]);
      return readFileSync(await download.path(), 'utf8');
    })();
    for (const key of Object.values(KEYS)) assert.ok(!file.includes(key), `no key in the ${provider} export`);
  }

  // The forms' model-list requests (GET) carry their own provider's key and no other.
  for (const r of seen.filter((x) => x.method === 'GET')) {
    const other = r.name === 'openai' ? KEYS.anthropic : KEYS.openai;
    assert.ok(!JSON.stringify(r).includes(other), `${r.name}'s model list carries no other key`);
  }
  const openai = seen.filter((r) => r.name === 'openai' && r.method === 'POST');
  const anthropic = seen.filter((r) => r.name === 'anthropic' && r.method === 'POST');
  assert.equal(openai.length, 3, 'the chair\'s call and its two repairs, on OpenAI');
  assert.equal(anthropic.length, 3, 'and on Anthropic');
  for (const r of openai) {
    assert.equal(r.url, 'https://api.openai.com/v1/chat/completions');
    assert.equal(r.headers.authorization, `Bearer ${KEYS.openai}`);
    assert.ok(!JSON.stringify(r).includes(KEYS.anthropic), 'no other provider\'s key');
  }
  for (const r of anthropic) {
    assert.equal(r.url, 'https://api.anthropic.com/v1/messages');
    assert.equal(r.headers['x-api-key'], KEYS.anthropic);
    assert.equal(r.headers['anthropic-version'], '2023-06-01');
    assert.equal(r.headers.authorization, undefined);
    assert.ok(!JSON.stringify(r).includes(KEYS.openai), 'no other provider\'s key');
    assert.ok(!r.body.includes(KEYS.anthropic), 'the key is a header, not in the body');
    assert.equal(JSON.parse(r.body).stream, true);
  }
  // The streamed answer was put together whole: the repair quotes it.
  assert.equal(JSON.parse(anthropic[1].body).messages.at(-2).content, 'no JSON here either');
  assert.equal(JSON.parse(openai[1].body).messages.at(-2).content, 'no JSON here');
  for (const key of Object.values(KEYS)) {
    assert.ok(!urls.some((u) => u.includes(key)), 'no key in a URL');
    assert.ok(!logged.some((t) => t.includes(key)), 'no key in the console');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + document.cookie);
    assert.ok(!stored.includes(key), 'no key in localStorage or cookies');
  }

  // Forget all keys: the next call says what is missing instead of sending anything.
  await open(page, server.url, '#/settings');
  await page.click('text=Forget all keys');
  await page.waitForSelector('text=Forgot 2 stored key(s).');
  assert.equal(await page.$('fieldset[data-provider="openai"] .badge.ok'), null);
  const before = seen.length;
  await createLocalSession(page, server.url, 'Plan a launch without a key.', 'openai');
  await page.click('button[name="step"]');
  const banner = await page.waitForSelector('[data-banner="paused"]', { timeout: 30000 });
  assert.match(await banner.textContent(), /no API key is set for OpenAI/);
  assert.ok(await banner.$('a[href="#/settings"]'), 'the message links to Settings');
  assert.equal(seen.length, before, 'nothing was sent without a key');
  await context.unroute('https://api.openai.com/**');
  await context.unroute('https://api.anthropic.com/**');
  assert.deepEqual(errors, []);
});
