// A person's words on every page (issue 23, point 1): no internal name reaches the screen. Every
// page of every kind is walked — home (empty, and with sessions and a fork), each kind's
// new-session form, settings, a team running and asking its question, a finished session of each
// kind with its transcript, fork dialog and history opened, a share link's page and a fork's page — and its visible text, with the words screen readers get (aria-label,
// title, placeholder, aria-valuetext), is scanned for what only the code should say: snake_case
// words, call ids (`call-14`), member ids (`operative-2`), "(s)" plurals, the enum names of
// steps and phases (PeerReview, PlanAssign, OptionGeneration) and a model's id (`demo/demo-1`,
// `demo / demo-1`: a model is named by its name).
//
// What a model was sent or answered (the transcript's messages and raw answer, the state
// envelope) is shown as it was, in code blocks: those are not the app's words and are not scanned.
//
// Downloads too (issue 33): each kind's Markdown report (a meeting's is its minutes and
// transcript) and the human parts of its own file (the sentences among a dialectic's or an
// autocoding state's values) are scanned with the same patterns and what only a download said:
// an event index ("Point 64 of 129"), a name with its id ("Ana (ana)"), an id where a name
// belongs ("gave the floor to ana"), a model's id (`demo/demo-1`). Code blocks and inline code
// in a report are verbatim and not scanned. `DOWNLOADS_SCANNED` lists the kinds whose downloads
// are scanned (all five).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serveDist, launch, open, shot, waitStatus, createDemoSession, setDemoDelay } from './helpers.mjs';

let srv;
let b;
before(async () => {
  srv = await serveDist();
  b = await launch();
  await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
});
after(async () => {
  await b?.close();
  await srv?.stop();
});

/** Names of products and services a person knows in CamelCase: not internal names. */
const BRANDS = new Set(['OpenAI', 'OpenRouter', 'JavaScript', 'TypeScript', 'GitHub', 'IndexedDB', 'DeepSeek', 'WebAssembly', 'PyPI', 'LiteLLM', 'MiniMax', 'ChatGPT', 'LaTeX', 'MacBook', 'YouTube', 'LinkedIn', 'PowerPoint', 'WhatsApp', 'iPhone', 'JSON']);

/** What the scan refuses, each with why. */
const PATTERNS = [
  [/\b[a-z][a-z0-9]*_[a-z0-9_]+\b/g, 'a snake_case name'],
  [/\bcall-\d+\b/g, 'a call id'],
  [/\boperative-\d+\b/g, 'a member id'],
  [/\w\(s\)/g, 'an "(s)" plural'],
  [/\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b/g, 'an enum name'],
  // A model is named by its name ("demo model"), never by its provider/model id.
  [/\bdemo\s*\/\s*demo-\d\b/g, "a model's id"],
];

/** Every piece of text the page shows or reads out now, outside what a model was sent or said. */
async function wordsOnPage(page) {
  return page.evaluate(() => {
    // What the models were sent and answered is shown verbatim, in code blocks.
    const verbatim = 'pre, code, textarea, input, .raw, .msg, [data-section="messages"], [data-section="raw"], details.envelope';
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(verbatim) || el.closest('script, style, template')) continue;
      // Shown: laid out (not display:none) and not hidden from everyone.
      if (!el.getClientRects().length && !el.closest('.sr-only')) continue;
      const text = n.textContent.trim();
      // Where it is, so a failure points at the element.
      const at = el.closest('[class]');
      if (text) out.push(`${text} [in ${el.tagName.toLowerCase()} of .${(at?.getAttribute('class') || '').split(' ')[0]}]`);
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [aria-valuetext]')) {
      if (el.closest(verbatim.replace(', input', '').replace('textarea, ', ''))) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'aria-valuetext']) {
        const v = el.getAttribute(a);
        if (v) out.push(`${v} [${a}]`);
      }
    }
    return out;
  });
}

/** The internal names on the page now, each with the text it is in. */
async function internalNames(page) {
  const found = [];
  for (const text of await wordsOnPage(page)) {
    for (const [re, why] of PATTERNS) {
      for (const m of text.matchAll(re)) {
        if (why === 'an enum name' && BRANDS.has(m[0])) continue;
        found.push(`${why}: "${m[0]}" in "${text.slice(0, 120)}"`);
      }
    }
  }
  return [...new Set(found)];
}

/** What a download must not say beyond the page patterns. */
const DOWNLOAD_PATTERNS = [
  [/\bPoint \d+ of \d+/g, 'an event index'],
  [/\b(\w+) \(\1\)/gi, 'a name with its id'],
  [/\bgave the floor to [a-z][a-z0-9-]*/g, 'an id where a name belongs'],
  [/\bdemo\/demo-\d\b/g, "a model's id"],
];

/** The kinds whose downloads are scanned: every kind. */
const DOWNLOADS_SCANNED = ['team', 'recorded team', 'meeting', 'dialectic', 'autocoding', 'review'];

/** The internal names in a downloaded text, each with where it is. */
function namesInText(text, where) {
  const found = [];
  for (const [re, why] of [...PATTERNS, ...DOWNLOAD_PATTERNS]) {
    for (const m of text.matchAll(re)) {
      if (why === 'an enum name' && BRANDS.has(m[0])) continue;
      const at = Math.max(0, m.index - 50);
      found.push(`${why}: "${m[0]}" in ${where}: "…${text.slice(at, m.index + m[0].length + 50).replace(/\s+/g, ' ')}…"`);
    }
  }
  return found;
}

/** A report's words outside what is verbatim (fenced code, inline code). */
const reportWords = (md) => md.replace(/```[\s\S]*?```/g, ' ').replace(/`[^`\n]*`/g, ' ');

/** What a kind's file holds for a model or a program, verbatim as its format says: a dialectic's
 *  prompt templates and their instructions (with their `{{thesis_output}}` placeholders), its
 *  response schema, an autocoding state's code. Not scanned. */
const FORMAT_KEYS = new Set(['prompt', 'instructions', 'expected_format', 'response_schema', 'system_prompt', 'code', 'files', 'content', 'tests']);

/** The human parts of a kind's own file: its string values that are sentences (a space in them),
 *  not its keys, ids or enum values, nor what `FORMAT_KEYS` holds. */
function sentencesOf(value, out = []) {
  if (typeof value === 'string') {
    if (/\s/.test(value.trim())) out.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) sentencesOf(v, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (!FORMAT_KEYS.has(k)) sentencesOf(v, out);
  }
  return out;
}

/** Downloads what the button `name` in the session header gives, as text. */
async function downloadText(page, name) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`.session-head button[name="${name}"]`)]);
  return readFileSync(await d.path(), 'utf8');
}

/** Scans the session's downloads: its report, and its own file's sentences when it has one. */
async function scanDownloads(page, kind) {
  if (!DOWNLOADS_SCANNED.includes(kind)) return;
  const report = await downloadText(page, 'report');
  assert.ok(report.length > 200, `${kind}: a report was downloaded`);
  for (const p of namesInText(reportWords(report), `the ${kind} report`)) if (!problems.has(p)) problems.set(p, `${kind} report`);
  if (await page.locator('.session-head button[name="export-002"]').count()) {
    const file = JSON.parse(await downloadText(page, 'export-002'));
    const sentences = sentencesOf(file);
    assert.ok(sentences.length > 0, `${kind}: its file has sentences`);
    for (const text of sentences) {
      for (const p of namesInText(reportWords(text), `the ${kind} file`)) if (!problems.has(p)) problems.set(p, `${kind} file`);
    }
  }
}

/** Each internal name found, with the first page it was found on. */
const problems = new Map();
/** Scans the page as it is now; `where` names it in the failure. */
async function scan(page, where) {
  for (const p of await internalNames(page)) if (!problems.has(p)) problems.set(p, where);
}

/** Opens the transcript, fork dialog and a point of history of the session on the page, and
 *  scans each. */
async function scanSession(page, kind) {
  await scan(page, `${kind} done`);
  await scanDownloads(page, kind);
  await page.locator('.call-line button.link').first().click();
  await page.waitForSelector('.dialog[role="dialog"] [data-section="result"]');
  await scan(page, `${kind} transcript (first call)`);
  await page.keyboard.press('Escape');
  await page.locator('.call-line button.link').last().click();
  await page.waitForSelector('.dialog[role="dialog"] [data-section="result"]');
  await scan(page, `${kind} transcript (last call)`);
  await page.keyboard.press('Escape');
  await page.locator('.call-line button[name="fork"]').nth(2).click();
  await page.waitForSelector('.fork-dialog');
  await scan(page, `${kind} fork dialog`);
  await page.keyboard.press('Escape');
  await page.waitForSelector('.fork-dialog', { state: 'detached' });
  await page.locator('input#history-slider').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 25; i++) {
    await page.keyboard.press('ArrowRight');
    // Every point's words on the slider, not only where it stops.
    await scan(page, `${kind} history point ${i + 1}`);
  }
  await page.click('[data-banner="history"] button[name="back-to-live"]');
  await page.waitForSelector('[data-history="live"]');
}

test('no page of any kind shows an internal name', async () => {
  const { page, context } = b;
  await open(page, srv.url, '#/');
  await page.waitForSelector('text=No sessions yet.');
  await scan(page, 'home (empty)');
  await open(page, srv.url, '#/new');
  for (const kind of ['team', 'meeting', 'dialectic', 'autocoding', 'review']) {
    await page.click(`button[data-kind="${kind}"]`);
    await page.waitForSelector(`form[data-form="${kind}"]`);
    await scan(page, `new ${kind}`);
  }
  await open(page, srv.url, '#/settings');
  await page.waitForSelector('fieldset.provider[data-provider="openai"]');
  await scan(page, 'settings');

  // A team that asks its question, then runs to the end.
  await createDemoSession(page, srv.url, 'Plan a book swap in the village hall for 40 people with a £50 budget.');
  await scan(page, 'team draft');
  // Running: the live states of the members and calls.
  await setDemoDelay(context, srv.url, 700);
  await page.click('button[name="run"]');
  await page.waitForSelector('[data-live-state="streaming"]');
  await scan(page, 'team running');
  await setDemoDelay(context, srv.url, 0);
  await waitStatus(page, 'awaiting_person', 60000);
  await page.waitForSelector('[data-dialog="halt"]');
  await scan(page, 'team question');
  await page.click('[data-dialog="halt"] button[data-option]');
  await page.click('button[name="send-answer"]');
  await waitStatus(page, 'done', 180000);
  await page.click('.tree-row[data-product-id="p1"]');
  await page.waitForSelector('article.markdown');
  await scan(page, 'team product');
  await scanSession(page, 'team');

  // The recorded demo team, a demo meeting, a demo dialectic, a demo autocoding and a demo review
  // loop (its approval asked and given in the inbox), each finished.
  await open(page, srv.url, '#/');
  await page.click('button[name="open-demo"]');
  await waitStatus(page, 'done');
  await scanSession(page, 'recorded team');
  // Its share link's page, and a fork of it (its line names the what-if; the home list then
  // shows the family).
  await page.click('.session-head button[name="copy-link"]');
  await page.locator('.notice', { hasText: 'Link copied' }).waitFor();
  const recorded = page.url();
  await page.goto(await page.evaluate(() => navigator.clipboard.readText()));
  await page.waitForSelector('[data-banner="shared"]');
  await scan(page, 'shared link');
  await page.goto(recorded);
  await waitStatus(page, 'done');
  await page.locator('.call-line[data-member^="operative"] button[name="fork"]').first().click();
  await page.waitForSelector('.fork-dialog');
  await page.locator('.fork-dialog fieldset[data-member^="operative"] input[name="fork-model"]').first().fill('demo-2');
  await page.click('.fork-dialog button[name="make-fork"]');
  await page.waitForSelector('.session-head .fork-note');
  await scan(page, 'a fork');
  for (const [name, kind] of [['demo-meeting', 'meeting'], ['demo-dialectic', 'dialectic'], ['demo-autocoding', 'autocoding'], ['demo-review', 'review']]) {
    await open(page, srv.url, '#/');
    await page.click(`button[name="${name}"]`);
    await page.waitForSelector('.session-head');
    await scan(page, `${kind} draft`);
    await page.click('button[name="run"]');
    if (kind === 'review') {
      await waitStatus(page, 'awaiting_person', 180000);
      await page.waitForSelector('[data-dialog="halt"]');
      await scan(page, 'review approval');
      await page.click('[data-dialog="halt"] button[name="approve"]');
    }
    await waitStatus(page, 'done', 180000);
    await scanSession(page, kind);
  }
  await open(page, srv.url, '#/');
  await page.waitForSelector('table.sessions');
  await scan(page, 'home (sessions)');
  await shot(page, 'words-home');
  assert.deepEqual([...problems].map(([p, where]) => `${where}: ${p}`), [], 'internal names on screen');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('the scan itself finds what it is for', async () => {
  // A page made of exactly the words issue 23 found on screen: each one is caught.
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.evaluate(() => {
    const p = document.createElement('p');
    p.textContent = 'Event 30 of 30: call_issued call-9 operative-2 (Initial) · Round 1 · PeerReview · 7 turn(s)';
    p.title = 'Fork from call-14';
    document.querySelector('main').append(p);
  });
  const found = (await internalNames(page)).join('\n');
  for (const want of ['"call_issued"', '"call-9"', '"operative-2"', '"PeerReview"', '"n(s)"', '"call-14"']) {
    assert.ok(found.includes(want), `${want} is caught:\n${found}`);
  }
  // A download made of the words issue 33 found in them: each one is caught, code is not scanned.
  const minutes = '**Ana (ana)**, Initialization: _Orchestrator: gave the floor to ana_ at Point 64 of 129, on demo/demo-1. `call_issued` is code.';
  const inDownload = namesInText(reportWords(minutes), 'a test report').join('\n');
  for (const want of ['"Ana (ana)"', '"gave the floor to ana"', '"Point 64 of 129"', '"demo/demo-1"']) {
    assert.ok(inDownload.includes(want), `${want} is caught:\n${inDownload}`);
  }
  assert.ok(!inDownload.includes('call_issued'), 'inline code is verbatim');
});
