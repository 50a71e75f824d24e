// Whole sessions on real wire formats, against the loopback mock (mock-providers.mjs): a team
// session and a meeting run to their end with members on every wire family (the mock replays the
// demo model's answers to the same team or meeting, in the order the demo gave them); what each
// call cost is shown per member, per round and in all (OpenRouter's reported figure marked as
// such); a money budget set in the new-session form pauses the run before the call that could
// cross it, and raising it in the Budget panel runs on; a slow answer shows its
// progress, Stop cancels it and nothing is asked twice; the connection test makes a real tiny
// completion and names each kind of failure; a plain-http address on the local network is
// refused with what to do instead.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, open, shot, status, waitStatus, useProviderMock, saveBase, saveKey, ROOT } from './helpers.mjs';
import { startProviderMock, keyOf, KEYED, PROVIDERS, FAMILY } from './mock-providers.mjs';


/** The demo recording's answers, member by member, in the order the demo gave them. */
function recordedTeam() {
  const file = JSON.parse(readFileSync(join(ROOT, 'static/demo/demo-session.roundtable.json'), 'utf8'));
  const memberOf = {};
  const order = [];
  for (const { kind } of file.events) {
    if (kind.type === 'call_issued') memberOf[kind.call.id] = kind.call.member;
    if (kind.type === 'answer_received') order.push({ member: memberOf[kind.call_id], raw: kind.raw });
  }
  return order;
}
const TEAM = recordedTeam();
const MEETING = JSON.parse(readFileSync(join(ROOT, 'tests/e2e/fixtures/meeting-demo.json'), 'utf8'));

/** Core's way of writing micro-dollars (`roundtable_core::cost::usd`). */
function usd(micro) {
  if (micro > 0 && micro < 100) return `$0.${String(micro).padStart(6, '0')}`;
  if (micro > 0 && micro < 10000) {
    const t = Math.floor((micro + 50) / 100);
    return `$${Math.floor(t / 10000)}.${String(t % 10000).padStart(4, '0')}`;
  }
  const cents = Math.floor((micro + 5000) / 10000);
  return `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
/** What one mock call costs per provider at its default model (web/src/providers/price.rs, read
 * 2026-11-26): the mock counts 1,000 tokens in and 50 out; claude-sonnet-5-5 at $2 / $10,
 * gemini-3.8-flash at $0.75 / $3.75 through 2026-12-31 and $1.50 / $7.50 from 2027-01-01 (its
 * published schedule; the page is priced on the browser's day), gpt-5.4-mini at $0.75 / $4.50
 * per million; OpenRouter reports $0.000321 itself; Ollama is free. */
const GEMINI_PER_CALL = new Date() < new Date('2027-01-01T00:00:00Z') ? 938 : 1875;
const PER_CALL = { anthropic: 2500, gemini: GEMINI_PER_CALL, ollama: 0, openrouter: 321, openai: 975 };

let server;
let browser;
let mock;

const unexpected = (errors) => errors.filter((e) => !/Failed to load resource: the server responded with a status of (401|403|404|429|500|529)|net::ERR_CONNECTION_REFUSED/.test(e));

/**
 * Answers each member's calls with the recorded answers, in the recorded order across members:
 * a request waits until its member is next, and answers go out one at a time, so parallel
 * writers apply in the order the recording did (version ids match).
 */
function replay(order, memberOfProvider) {
  let next = 0;
  let busy = false;
  const waiting = [];
  const pump = () => {
    if (busy || next >= order.length) return;
    const want = order[next];
    const i = waiting.findIndex((w) => w.member === want.member);
    if (i < 0) return;
    const [w] = waiting.splice(i, 1);
    next += 1;
    busy = true;
    w.resolve({ text: want.raw });
    setTimeout(() => { busy = false; pump(); }, 250);
  };
  return {
    respond: (entry) => new Promise((resolve) => {
      waiting.push({ member: memberOfProvider[entry.provider], resolve });
      if (process.env.RT_DEBUG) console.log('wait', entry.step, memberOfProvider[entry.provider], 'next', order[next]?.member, next);
      pump();
    }),
    given: () => next,
  };
}

/** Runs the open session to `done`, answering questions with their first option. */
async function runToDone(page, timeout = 240000) {
  const end = Date.now() + timeout;
  await page.click('button[name="run"]');
  for (;;) {
    const s = await waitStatus(page, ['done', 'awaiting_person', 'paused'], Math.max(1000, end - Date.now()));
    if (process.env.RT_DEBUG) console.log('status', s, mock.state.requests.filter((q) => q.method === 'POST').map((q) => `${q.step}@${q.provider}${q.answered ? '' : '…'}`).join(' '));
    if (s === 'done') return;
    assert.equal(await page.$('[data-banner="error"]'), null, 'no error on the way');
    if (s === 'awaiting_person') {
      await page.waitForSelector('[data-dialog="halt"] button[data-option]');
      await page.click('[data-dialog="halt"] button[data-option]');
      await page.click('button[name="send-answer"]');
      await page.waitForSelector('[data-dialog="halt"]', { state: 'detached' });
      await page.waitForFunction(() => document.querySelector('.session')?.getAttribute('data-status') !== 'awaiting_person');
    } else {
      await page.waitForSelector('button[name="run"]:not([disabled])');
      await page.click('button[name="run"]');
    }
  }
}

/** The cost panel, opened: total, per member and per round, as the page shows them. */
async function costs(page) {
  await page.$eval('details.cost', (d) => { d.open = true; });
  return page.evaluate(() => ({
    total: document.querySelector('[data-cost-total]')?.textContent ?? '',
    budget: document.querySelector('[data-cost-budget]')?.textContent ?? null,
    members: Object.fromEntries([...document.querySelectorAll('tr[data-cost-member]')].map((r) => [r.dataset.costMember, r.cells[1].textContent])),
    rounds: Object.fromEntries([...document.querySelectorAll('tr[data-cost-round]')].map((r) => [r.dataset.costRound, r.cells[1].textContent])),
  }));
}

before(async () => {
  server = await serveDist();
  mock = await startProviderMock();
  browser = await launch();
  browser.page.on('dialog', (d) => d.accept());
  const { page } = browser;
  await useProviderMock(page, server.url, mock);
});

after(async () => {
  await browser?.close();
  await mock?.stop();
  await server?.stop();
});

test('a whole team session runs to done on four wire families, with its cost per member and round', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  mock.state.requests.length = 0;
  const family = { anthropic: 'chair', gemini: 'operative-1', ollama: 'operative-2', openrouter: 'inspector' };
  const providerOf = Object.fromEntries(Object.entries(family).map(([p, m]) => [m, p]));
  const r = replay(TEAM, family);
  mock.state.respond = r.respond;
  await open(page, server.url, '#/new');
  await page.click('button[data-preset="research-lab"]');
  await page.fill('textarea[name="request"]', 'Plan a two-day workshop on accessible web design for a small agency of twelve people.');
  await page.fill('input[name="max-rounds"]', '5');
  const selects = await page.$$('select[name="member-provider"]');
  const order = ['anthropic', 'gemini', 'ollama', 'openrouter'];
  for (const [i, select] of selects.entries()) await select.selectOption(order[i]);
  await page.click('button[name="create"]');
  await page.waitForSelector('.session-head');
  await runToDone(page);
  await page.waitForSelector('section.presentation');
  const posts = mock.state.requests.filter((q) => q.method === 'POST');
  assert.equal(posts.length, TEAM.length, 'one request per recorded answer: no call twice, none lost');
  assert.equal(r.given(), TEAM.length);
  for (const q of posts) {
    assert.ok(order.includes(q.provider), q.provider);
    assert.ok(q.step, 'each call carries its step schema');
  }
  // Cost: per member exactly its calls at its provider's price; the reported one marked.
  const calls = {};
  for (const { member } of TEAM) calls[member] = (calls[member] ?? 0) + 1;
  const c = await costs(page);
  for (const [member, n] of Object.entries(calls)) {
    const want = usd(n * PER_CALL[providerOf[member]]) + (providerOf[member] === 'openrouter' ? ' (reported)' : '');
    assert.equal(c.members[member], want, `${member}: ${JSON.stringify(c.members)}`);
  }
  const total = Object.entries(calls).reduce((s, [m, n]) => s + n * PER_CALL[providerOf[m]], 0);
  assert.equal(c.total, usd(total));
  assert.ok(Object.keys(c.rounds).includes('Start') && Object.keys(c.rounds).includes('Round 1'), JSON.stringify(c.rounds));
  // Each call's own cost is in the timeline, and in its transcript.
  assert.ok(await page.locator('.timeline [data-call-cost]:has-text("(reported)")').count() >= 1);
  await shot(page, 'providers-session-done');
  // The cost is in the exported file's events: the session page reads it back after a reload.
  await page.reload();
  await page.waitForSelector('.session-head');
  assert.equal((await costs(page)).total, usd(total));
  assert.deepEqual(unexpected(errors), []);
});

test('a whole meeting runs to its minutes on four wire families', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  mock.state.requests.length = 0;
  const family = { anthropic: 'orchestrator', gemini: 'ana', ollama: 'bo', openrouter: 'cy' };
  const r = replay(MEETING, family);
  mock.state.respond = r.respond;
  await open(page, server.url, '#/new');
  await page.click('button[data-kind="meeting"]');
  await page.waitForSelector('form[data-form="meeting"]');
  await page.fill('textarea[name="agenda"]', 'Choose where to hold the team offsite.');
  const selects = await page.$$('select[name="attendee-provider"]');
  assert.equal(selects.length, 4);
  for (const [i, select] of selects.entries()) await select.selectOption(Object.keys(family)[i]);
  await page.click('button[name="create-meeting"]');
  await page.waitForSelector('.session-head');
  await runToDone(page);
  await page.waitForSelector('[data-section="minutes"] h2:has-text("Decisions")');
  const posts = mock.state.requests.filter((q) => q.method === 'POST');
  assert.equal(posts.length, MEETING.length, 'one request per recorded answer');
  assert.deepEqual([...new Set(posts.map((q) => q.family))].sort(), ['anthropic', 'gemini', 'ollama', 'openai']);
  const c = await costs(page);
  assert.equal(Object.keys(c.members).length, 4, JSON.stringify(c.members));
  assert.match(c.members.cy, /\(reported\)$/);
  assert.equal(c.members.bo, '$0.00', 'Ollama is free');
  await shot(page, 'providers-meeting-done');
  assert.deepEqual(unexpected(errors), []);
});

test('a money budget pauses before the call that could cross it, names it and the Budget panel; raising it there runs on to the end', async () => {
  const { page } = browser;
  mock.state.requests.length = 0;
  const family = { openai: 'orchestrator', anthropic: 'ana', ollama: 'bo', openrouter: 'cy' };
  mock.state.respond = replay(MEETING, family).respond;
  // The team form refuses an amount that is not one, next to the limits.
  await open(page, server.url, '#/new');
  await page.click('button[data-preset="research-lab"]');
  await page.fill('textarea[name="request"]', 'Plan a workshop with a money budget.');
  await page.fill('input[name="money-budget"]', 'ten dollars');
  await page.click('button[name="create"]');
  await page.waitForSelector('.field-error:has-text("The money budget is an amount of dollars")');
  assert.equal(await page.getAttribute('input[name="money-budget"]', 'aria-invalid'), 'true');
  // A meeting with a budget of five cents: the orchestrator (gpt-5.4-mini, $0.75 / $4.50 per
  // million tokens) could cost up to ≈ $0.04 a call with its longest answer, Ana's Claude
  // (claude-sonnet-5-5, $2 / $10) up to ≈ $0.08. Each call really costs well under a cent.
  await open(page, server.url, '#/new');
  await page.click('button[data-kind="meeting"]');
  await page.fill('textarea[name="agenda"]', 'Choose where to hold the team offsite.');
  const selects = await page.$$('select[name="attendee-provider"]');
  for (const [i, select] of selects.entries()) await select.selectOption(Object.keys(family)[i]);
  await page.fill('input[name="money-budget"]', '$0.05');
  await page.click('button[name="create-meeting"]');
  await page.waitForSelector('.session-head');
  await page.click('button[name="run"]');
  await waitStatus(page, ['paused'], 60000);
  // The orchestrator's call fit; Ana's could cross the budget, so it was never made — though
  // only $0.0010 of the $0.05 is spent.
  const posts = mock.state.requests.filter((q) => q.method === 'POST');
  assert.deepEqual(posts.map((q) => q.provider), ['openai'], 'one call made, none past the bound');
  const banner = await page.textContent('[data-banner="paused"]');
  assert.match(banner, /paused before Ana's turn in [A-Z][a-z ]+: it could cost up to \$0\.08, which would go past the money budget \(\$0\.0010 of \$0\.05 spent\): raise it under Budget on this page, then run on — or wrap up/);
  const c = await costs(page);
  assert.match(c.budget, /money budget: \$0\.0010 of \$0\.05$/);
  assert.match(await page.textContent('[data-limit="money-budget"] .used'), /\$0\.0010 of \$0\.05 used/);
  await shot(page, 'providers-money-budget');
  // The banner's link goes to the money budget's own field in the Budget panel.
  await page.click('[data-banner="paused"] [data-fix="limits"]:has-text("Raise the money budget")');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'money-budget');
  // Running on is not offered while the next call could still cross it: the run controls are
  // off and say why (one message: no error banner repeats the pause), and nothing more is asked.
  await page.waitForSelector('button[name="run"][disabled]');
  assert.match(await page.getAttribute('button[name="run"]', 'title'), /could still cost up to \$0\.08/);
  assert.equal(await page.getAttribute('button[name="run"]', 'aria-describedby'), 'pause-reason');
  await page.click('button[name="run"]', { force: true });
  assert.equal(await page.locator('[data-banner="error"]').count(), 0, 'no second banner');
  assert.equal(mock.state.requests.filter((q) => q.method === 'POST').length, 1, 'no call past the budget');
  assert.equal(await status(page), 'paused');
  // Raised to a dollar in the Budget panel, the meeting runs on to its minutes.
  await page.fill('input[name="money-budget"]', '1');
  await page.click('button[name="save-limits"]');
  await page.waitForSelector('[data-limit="money-budget"] .used:has-text("$0.0010 of $1.00 used")');
  await page.waitForSelector('button[name="run"]:not([disabled])');
  await page.click('button[name="run"]');
  await page.waitForFunction(() => document.querySelector('.session')?.getAttribute('data-status') !== 'paused');
  assert.equal(await waitStatus(page, ['done', 'paused'], 120000), 'done');
  await page.waitForSelector('[data-section="minutes"] h2:has-text("Decisions")');
  assert.equal(await page.$('[data-banner="error"]'), null, 'no error on the way');
  assert.equal(mock.state.requests.filter((q) => q.method === 'POST').length, MEETING.length, 'every call made once');
  assert.match((await costs(page)).budget, /money budget: \$0\.\d+ of \$1\.00/);
});

test('a slow answer shows its progress, Stop cancels it, and nothing is asked twice', async () => {
  const { page, errors } = browser;
  errors.length = 0;
  mock.state.requests.length = 0;
  const answer = JSON.parse(readFileSync(join(ROOT, 'tests/e2e/fixtures/team-round-1.json'), 'utf8')).bootstrap.chair;
  let slow = true;
  // The first answer starts late and streams in 40 pieces, 250 ms apart (≈ 10 s).
  mock.state.respond = () => (slow ? { delay: 800, text: answer, split: 40, chunkDelay: 250 } : { text: answer });
  await open(page, server.url, '#/new');
  await page.click('button[data-preset="research-lab"]');
  await page.fill('textarea[name="request"]', 'Plan a workshop on a slow model.');
  const select = await page.$('select[name="member-provider"]');
  await select.selectOption('openrouter');
  await page.click('button[name="create"]');
  await page.waitForSelector('.session-head');
  await page.click('button[name="step"]');
  // Before the first byte: the call is shown as streaming; then the text so far grows.
  await page.waitForSelector('[data-live-state="streaming"]', { timeout: 10000 });
  const chars = async () => Number(((await page.textContent('[data-live-state="streaming"]')) ?? '').match(/([\d.]+)k? chars/)?.[1] ?? 0);
  await page.waitForFunction(() => /chars/.test(document.querySelector('[data-live-state="streaming"]')?.textContent ?? ''), null, { timeout: 10000 });
  const first = await chars();
  await page.waitForFunction((n) => {
    const m = (document.querySelector('[data-live-state="streaming"]')?.textContent ?? '').match(/([\d.]+)k? chars/);
    return m && Number(m[1]) > n;
  }, first, { timeout: 10000 });
  await shot(page, 'providers-slow-answer');
  assert.equal(mock.state.requests.filter((q) => q.method === 'POST').length, 1, 'one request while it streams');
  // Stop: the request is cancelled (the mock sees it closed before its end), the run pauses.
  await page.click('button[name="stop"]');
  await waitStatus(page, ['paused'], 10000);
  const [out] = mock.state.requests.filter((q) => q.method === 'POST');
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(out.answered, false, 'the slow answer was never delivered in full');
  assert.equal(mock.state.requests.filter((q) => q.method === 'POST').length, 1, 'not retried on its own');
  assert.equal(await page.$('[data-product-id="p1"]'), null, 'nothing applied');
  // Run again: the call is asked once more, once, and its answer is taken.
  slow = false;
  await page.click('button[name="step"]');
  await page.waitForSelector('[data-product-id="p3"]', { timeout: 30000 });
  assert.equal(mock.state.requests.filter((q) => q.method === 'POST').length, 2, 'asked again exactly once');
  assert.deepEqual(unexpected(errors), []);
});

test('the connection test makes a real tiny completion and names each kind of failure', async () => {
  const { page } = browser;
  await open(page, server.url, '#/settings');
  const verdict = async (p) => {
    await page.click(`button[name="test-${p}"]`);
    await page.waitForFunction((id) => {
      const el = document.querySelector(`p.conn[data-provider="${id}"]`);
      const busy = document.querySelector(`button[name="test-${id}"]`)?.disabled;
      return el && !busy;
    }, p);
    return page.textContent(`p.conn[data-provider="${p}"]`);
  };
  mock.state.requests.length = 0;
  mock.state.testReply = undefined;
  assert.match(await verdict('openrouter'), /^Connected to OpenRouter: openai\/gpt-5\.4-mini answered in \d+\.\d s \(\{"ok": true\}\); 1000 tokens in, 50 out, cost \$0\.0003 \(reported\)\.$/);
  const post = mock.state.requests.find((q) => q.method === 'POST');
  assert.ok(post, 'a completion was made, not only a model list');
  assert.equal(post.body.max_tokens, 32);
  assert.match(JSON.stringify(post.body.messages), /JSON/);
  const kinds = [
    ['anthropic', { status: 404, body: { type: 'error', error: { type: 'not_found_error', message: 'model: claude-nope' } } }, /does not know the model "claude-sonnet-5-5"/],
    ['openai', { status: 429, body: { error: { message: 'You exceeded your current quota.', type: 'insufficient_quota', code: 'insufficient_quota' } } }, /quota or credit is used up/],
    ['gemini', { status: 503, body: { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } } }, /overloaded or failing right now \(HTTP 503\)/],
    ['ollama', { text: '', stop: 'length' }, /took the call but used the test's 32 tokens/],
  ];
  for (const [p, reply, want] of kinds) {
    mock.state.testReply = () => reply;
    const text = await verdict(p);
    assert.match(text, want, `${p}: ${text}`);
    assert.equal(await page.getAttribute(`p.conn[data-provider="${p}"]`, 'class'), reply.status ? 'conn bad' : 'conn ok');
  }
  mock.state.testReply = undefined;
  // A key the provider refuses.
  await saveKey(page, 'groq', 'sk-wrong');
  assert.match(await verdict('groq'), /Groq refused the key \(HTTP 401\)/);
  // Nothing listening at the address; typed before another row saves its key, and it stays
  // typed (a key's save changes its own row, never the page).
  await page.fill('input[name="base-local"]', 'http://127.0.0.1:9/v1');
  await saveKey(page, 'groq', keyOf('groq'));
  assert.equal(await page.inputValue('input[name="base-local"]'), 'http://127.0.0.1:9/v1');
  await saveBase(page, 'local', 'http://127.0.0.1:9/v1');
  assert.match(await verdict('local'), /Could not reach the server at 127\.0\.0\.1:9/);
  await saveBase(page, 'local', mock.base('local'));
  await shot(page, 'providers-connection-kinds');
});

test('plain http on the local network is refused with what to do instead; loopback is allowed', async () => {
  const { page } = browser;
  await open(page, server.url, '#/settings');
  await page.fill('input[name="base-ollama"]', 'http://192.168.1.20:11434');
  await page.click('button[name="save-base-ollama"]');
  const notice = await page.waitForSelector('text=/may not reach plain http:\\/\\/ on your local network/');
  const text = await notice.textContent();
  assert.match(text, /ssh -N -L 11434:192\.168\.1\.20:11434/);
  assert.match(text, /http:\/\/127\.0\.0\.1:11434/);
  // Nothing was saved: the mock's address still stands, and a session call still reaches it.
  await page.reload();
  assert.equal(await page.inputValue('input[name="base-ollama"]'), mock.base('ollama'));
  await saveBase(page, 'ollama', 'http://localhost:11434');
  await saveBase(page, 'ollama', mock.base('ollama'));
  await shot(page, 'providers-lan-refused');
});

test('the new-session forms offer the provider\'s model list and still take a typed name', async () => {
  const { page } = browser;
  // A provider with no key (and no list fetched before) says why there is no list.
  await open(page, server.url, '#/settings');
  await page.click('fieldset[data-provider="mistral"] button:has-text("Remove")');
  await page.waitForSelector('text=Key for Mistral removed.');
  await open(page, server.url, '#/new');
  await page.click('button[data-kind="meeting"]');
  await page.selectOption('select[name="attendee-provider"] >> nth=0', 'mistral');
  await page.waitForSelector('[data-model-note="attendee"]:has-text("no API key is set for Mistral")');
  await page.fill('input[name="attendee-model"] >> nth=0', 'mistral-small-latest');
  assert.equal(await page.inputValue('input[name="attendee-model"] >> nth=0'), 'mistral-small-latest');
  // With a key, the list comes from the provider's models endpoint.
  await open(page, server.url, '#/new');
  await page.click('button[data-kind="team"]');
  await page.click('button[data-preset="research-lab"]');
  await page.selectOption('select[name="member-provider"] >> nth=0', 'gemini');
  const input = page.locator('input[name="member-model"]').first();
  const list = await input.getAttribute('list');
  // Gemini's list (the mock's), not the one the demo provider offered before it was switched.
  await page.waitForFunction((id) => [...(document.getElementById(id)?.options ?? [])].some((o) => o.value.startsWith('gemini')), list);
  assert.deepEqual(await page.$$eval(`#${list} option`, (os) => os.map((o) => o.value)), ['gemini-2.5-flash']);
  await page.selectOption('select[name="member-provider"] >> nth=0', 'groq');
  await page.waitForFunction((id) => [...(document.getElementById(id)?.options ?? [])].some((o) => o.value === 'mock-large'), list);
  assert.match(await page.textContent('[data-model-note="member"]'), /2 models offered; or type another/);
  await input.fill('a-model-not-listed');
  assert.equal(await input.inputValue(), 'a-model-not-listed');
  await shot(page, 'providers-model-list');
});

test('a whole team session runs to done with a member on every provider, each with only its own key and its own schema form', async () => {
  const { page, errors } = browser;
  // Keys and addresses as the mock expects them (an earlier test removed one key).
  await useProviderMock(page, server.url, mock);
  errors.length = 0;
  mock.state.requests.length = 0;
  // The demo's valid answers for this team, to the end (core/examples/team_round_fixture.rs
  // `-- 6 --whole`): the chair, six operatives and the inspector, one per service.
  const answers = JSON.parse(readFileSync(join(ROOT, 'tests/e2e/fixtures/team-every-family.json'), 'utf8'));
  const operativeProviders = ['gemini', 'ollama', 'openrouter', 'mistral', 'groq', 'local'];
  const family = { anthropic: 'chair', openai: 'inspector' };
  operativeProviders.forEach((p, i) => { family[p] = `operative-${i + 1}`; });
  assert.deepEqual(Object.keys(family).sort(), [...PROVIDERS].sort(), 'every provider the app has');
  const r = replay(answers, family);
  mock.state.respond = r.respond;
  await open(page, server.url, '#/new');
  await page.click('button[data-kind="team"]');
  await page.click('button[data-preset="research-lab"]');
  await page.fill('textarea[name="request"]', 'Plan a two-day workshop on accessible web design for a small agency of twelve people.');
  for (let i = 2; i < operativeProviders.length; i++) await page.click('button:has-text("+ Add member")');
  // Form order: chair, operative-1, operative-2, inspector, then the added operatives.
  const roles = await page.$$eval('select[name="member-team-role"]', (ss) => ss.map((x) => x.value));
  const selects = await page.$$('select[name="member-provider"]');
  assert.equal(selects.length, 8);
  let op = 0;
  for (const [i, select] of selects.entries()) {
    await select.selectOption(roles[i] === 'chair' ? 'anthropic' : roles[i] === 'inspector' ? 'openai' : operativeProviders[op++]);
  }
  await page.click('button[name="create"]');
  await page.waitForSelector('.session-head');
  await runToDone(page);
  await page.waitForSelector('section.presentation');
  const posts = mock.state.requests.filter((q) => q.method === 'POST');
  assert.equal(posts.length, answers.length, 'one request per answer: no repair, no call twice');
  assert.equal(r.given(), answers.length);
  assert.deepEqual([...new Set(posts.map((q) => q.provider))].sort(), [...PROVIDERS].sort(), 'every provider was called');
  for (const q of posts) {
    const p = q.provider;
    const where = `${p} ${q.step}`;
    assert.ok(q.step, `${where}: the call carries its step's schema`);
    // Its own key, in its family's header, and nobody else's anywhere (headers, URL, body).
    const sent = JSON.stringify({ headers: q.headers, path: q.path, search: q.search, body: q.body });
    for (const other of KEYED) {
      if (other !== p) assert.ok(!sent.includes(keyOf(other)), `${where}: no ${other} key`);
    }
    assert.ok(!(q.path + q.search).includes('sk-') && !JSON.stringify(q.body).includes('sk-'), `${where}: no key in the URL or the body`);
    const key = { anthropic: q.headers['x-api-key'], gemini: q.headers['x-goog-api-key'] }[p] ?? q.headers.authorization;
    if (KEYED.includes(p)) assert.equal(key, FAMILY[p] === 'openai' ? `Bearer ${keyOf(p)}` : keyOf(p), `${where}: its key`);
    else assert.equal(q.headers.authorization ?? q.headers['x-api-key'] ?? null, null, `${where}: a local server gets no key`);
    // Its own structured-output field, in its own form.
    const b = q.body;
    switch (p) {
      case 'openai': case 'openrouter': case 'mistral': case 'groq':
        assert.equal(q.rest, '/chat/completions', where);
        assert.equal(b.response_format.type, 'json_schema', where);
        assert.equal(b.response_format.json_schema.strict, true, `${where}: strict (Groq: its gpt-oss default model)`);
        assert.ok(!JSON.stringify(b.response_format.json_schema.schema).includes('"maxLength"'), `${where}: the strict form has no length limits`);
        assert.equal(p === 'openai' ? b.max_completion_tokens : b.max_tokens, 8192, where);
        assert.equal(p === 'openai' ? b.max_tokens : b.max_completion_tokens, undefined, where);
        // Groq does not stream structured outputs: asked whole (the mock refuses it streamed).
        assert.equal(b.stream, p !== 'groq', `${where}: stream`);
        break;
      case 'local': // LM Studio, vLLM, llama.cpp: json_schema in the grammar form, never json_object
        assert.equal(q.rest, '/chat/completions', where);
        assert.equal(b.response_format.type, 'json_schema', where);
        // String lengths stay with the validator: each is a repetition that slows a grammar
        // engine's compile (xgrammar) or breaks its limit (llama.cpp refuses 2,000 or more).
        assert.ok(!JSON.stringify(b.response_format.json_schema.schema).includes('"maxLength"'), `${where}: the grammar form has no length limits`);
        assert.ok(JSON.stringify(b.response_format.json_schema.schema).includes('"minItems"'), `${where}: it keeps the short item counts`);
        break;
      case 'anthropic':
        assert.equal(q.rest, '/messages', where);
        assert.equal(q.headers['anthropic-dangerous-direct-browser-access'], 'true', where);
        assert.equal(b.output_config.format.type, 'json_schema', where);
        assert.equal(b.output_config.format.schema.type, 'object', where);
        break;
      case 'gemini':
        assert.match(q.rest + q.search, /^\/models\/gemini-3\.8-flash:streamGenerateContent\?alt=sse$/, where);
        assert.equal(b.generationConfig.responseMimeType, 'application/json', where);
        assert.equal(b.generationConfig.responseJsonSchema.type, 'object', where);
        break;
      case 'ollama':
        assert.equal(q.rest, '/api/chat', where);
        assert.equal(b.format.type, 'object', where);
        assert.ok(b.options.num_ctx > 8192, `${where}: num_ctx ${b.options.num_ctx} holds the prompt and the answer`);
        break;
      default:
        assert.fail(`unexpected provider ${p}`);
    }
  }
  // Claude (the chair) was sent the maps as {key, value} pairs keyed by the team's ids, answered
  // in pairs (the mock spells the recorded answer as the schema asks: provider-rules.mjs), and
  // the app turned them back: Bootstrap applied with no repair (one request per answer, above).
  const boot = posts.find((q) => q.provider === 'anthropic' && q.step === 'bootstrap');
  const personas = boot.body.output_config.format.schema.properties.personas;
  assert.deepEqual(Object.keys(personas.items.properties).sort(), ['key', 'value']);
  assert.equal(personas.items.properties.key.enum.length, 8, 'a persona key per member');
  // Each call's transcript says how its provider was held to the schema.
  await page.locator('.call-line button.link').first().click();
  await page.waitForSelector('.dialog[role="dialog"] [data-schema-form]');
  assert.equal(
    await page.textContent('.dialog[role="dialog"] [data-schema-form]'),
    'schema: the provider enforced the whole answer schema',
  );
  await page.keyboard.press('Escape');
  // The model lists asked for on the way (the form's) carried only their own key too.
  for (const q of mock.state.requests.filter((x) => x.method === 'GET')) {
    const sent = JSON.stringify(q.headers) + q.path + q.search;
    for (const other of KEYED) if (other !== q.provider) assert.ok(!sent.includes(keyOf(other)), `GET ${q.provider}: no ${other} key`);
  }
  const c = await costs(page);
  assert.equal(Object.keys(c.members).length, 8, JSON.stringify(c.members));
  assert.equal(c.members['operative-2'], '$0.00', 'Ollama is free');
  assert.equal(c.members['operative-6'], '$0.00', 'a local server is free');
  assert.match(c.members['operative-3'], /\(reported\)$/, 'OpenRouter reports its cost');
  await shot(page, 'providers-every-family-done');
  assert.deepEqual(unexpected(errors), []);
});
