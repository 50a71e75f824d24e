// Autocoding on a model behind an API (the loopback provider mock) that answers what a hostile
// or broken model would: a file name with a right-to-left override is refused and shown escaped,
// never rendered as text that reads as another name; an 8 MB file set is refused by its length,
// the log keeps only its first 64 KB with its length (the transcript says so, after a reload
// too), and the longest task while it streams in, is checked, stored and shown (Chromium's
// long-task timing) is printed — the 200 ms target is recorded in BENCHMARKS.md, never asserted
// (a shared machine's timing flakes).
// Issue 30, item 3.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, open, shot, status, useProviderMock } from './helpers.mjs';
import { startProviderMock } from './mock-providers.mjs';

let srv;
let b;
let mock;
before(async () => {
  srv = await serveDist();
  mock = await startProviderMock();
  b = await launch();
  await useProviderMock(b.page, srv.url, mock);
});
after(async () => {
  await b?.close();
  await mock?.stop?.();
  await srv?.stop();
});

/** A new autocoding session on the demo's requirements with both roles on OpenAI's mock. */
async function create(page) {
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="autocoding"]');
  await page.click('button[name="use-demo-requirements"]');
  for (const role of ['player', 'coach']) {
    await page.selectOption(`select[name="${role}-provider"]`, 'openai');
  }
  await page.click('button[name="create-autocoding"]');
  await page.waitForSelector('.autocoding');
}

/** Waits until the mock has been asked `n` times and the page is no longer running. */
async function settled(page, n) {
  const start = Date.now();
  while (mock.state.requests.filter((r) => r.method === 'POST').length < n || (await status(page)) === 'running') {
    if (Date.now() - start > 120000) throw new Error(`still ${await status(page)} after ${mock.state.requests.length} requests`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a file name with a right-to-left override is refused and shown escaped, nowhere as a name', async () => {
  const { page } = b;
  mock.state.requests.length = 0;
  const answer = JSON.stringify({
    files: [
      { path: 'evil\u202Esj.txt', content: 'module.exports = 1;' },
      { path: 'lib/a\u2066b.test.js', content: "test('t', () => assert(true));" },
    ],
    delete: [],
  });
  mock.state.respond = () => ({ text: answer, chunkDelay: 0 });
  await create(page);
  await page.click('button[name="step"]');
  await settled(page, 2);
  await page.click('button[name="pause"]').catch(() => {});
  // The refusal, in the call's transcript: each problem with the name escaped.
  await page.click('button[data-fix="transcript"]');
  await page.waitForSelector('[role="dialog"] [data-section="raw"]');
  const seen = await page.evaluate(() => {
    const names = [...document.querySelectorAll('.autocoding article.turn, .autocoding .files, .autocoding [data-file]')].map((e) => e.innerText).join('\n');
    const all = document.body.textContent;
    return { names, escaped: /evil\\u\{202E\}sj\.txt/.test(all), rawOutsideTranscript: /[\u202A-\u202E\u2066-\u2069]/.test(names) };
  });
  assert.ok(seen.escaped, 'the refusal shows the name with its override escaped');
  assert.equal(seen.rawOutsideTranscript, false, 'no file name renders the override');
  assert.equal(await page.locator('.autocoding article.turn').count(), 0, 'nothing was applied');
  await shot(page, 'autocoding-rtl-name');
});

test('an 8 MB file set is refused by its length, the log keeps its head and its length, and the longest task is printed', async () => {
  const { page } = b;
  mock.state.requests.length = 0;
  const big = JSON.stringify({ files: [{ path: 'big.js', content: 'x'.repeat(8 * 1024 * 1024) }], delete: [] });
  mock.state.respond = () => ({ text: big, chunkDelay: 2, split: 64 });
  await create(page);
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
  });
  await page.click('button[name="step"]');
  await settled(page, 2);
  await page.click('button[data-fix="transcript"]');
  await page.waitForSelector('[role="dialog"] [data-section="raw"]');
  await page.waitForTimeout(500);
  const longest = await page.evaluate(() => Math.max(0, ...window.__longTasks));
  assert.ok(await page.evaluate(() => PerformanceObserver.supportedEntryTypes.includes('longtask')), 'long tasks are timed');
  const refused = await page.evaluate(() => document.querySelector('[role="dialog"]').textContent);
  assert.match(refused, /the answer is \d+ bytes long/, 'the size refusal is shown');
  assert.ok(refused.includes(`The answer was 8.0 MB (${big.length} bytes); the first 64.0 KB are kept.`), 'the transcript says how long the answer was and what the log keeps');
  const kept = await page.evaluate(() => document.querySelector('[role="dialog"] [data-section="raw"] pre').textContent);
  assert.equal(kept, big.slice(0, 64 * 1024), 'the kept head is shown whole');
  // The stored session keeps the head, not the 8 MB: reloaded from IndexedDB, it says the same.
  await page.reload();
  await page.waitForSelector('.autocoding');
  await page.click('button[data-fix="transcript"]');
  await page.waitForSelector(`[role="dialog"] [data-raw-kept="${big.length}"]`);
  console.log(`longest task while an 8 MB answer was read, checked and shown: ${longest} ms`);
  assert.deepEqual(b.errors.filter((e) => !/Failed to load resource/.test(e)), []);
});
