// Files that are safe anywhere: a session file dropped anywhere on the sessions page is imported
// (not only over its section), a drop on another page is refused instead of the browser opening
// the file, and a refused file is told by its real size and the real reason.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, open, shot } from './helpers.mjs';

let srv;
let b;
before(async () => {
  srv = await serveDist();
  b = await launch();
});
after(async () => {
  await b?.close();
  await srv?.stop();
});

const rows = (page) => page.locator('tr[data-session-id]').count();

/** Drops a file made in the page by `make` (a function body returning a Blob) on `selector`;
 *  returns whether the page took the drop (the browser's own handling was prevented). */
async function drop(page, selector, name, make) {
  return page.evaluate(async ({ selector, name, make }) => {
    const blob = await new Function(`return (async () => { ${make} })()`)();
    const dt = new DataTransfer();
    dt.items.add(new File([blob], name, { type: 'application/json' }));
    const target = document.querySelector(selector);
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    const ev = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
    target.dispatchEvent(ev);
    return ev.defaultPrevented;
  }, { selector, name, make });
}

const DEMO = "return await (await fetch('demo/demo-session.roundtable.json')).blob();";

test('a session file dropped anywhere on the sessions page is imported', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  for (const [i, where] of [['header.app-header'], ['html'], ['.dropzone']].entries()) {
    await open(page, srv.url, '#/');
    await page.waitForSelector('.dropzone');
    const before = i === 0 ? 0 : await rows(page);
    assert.ok(await drop(page, where[0], `dropped-${i}.roundtable.json`, DEMO), `the drop on ${where} is taken`);
    // The same session again: the page asks first (Keep both adds it).
    if (i > 0) {
      await page.waitForSelector('[data-banner="duplicate"]');
      await page.click('button[name="keep-both"]');
    }
    await page.waitForSelector('.session-head');
    await open(page, srv.url, '#/');
    await page.waitForFunction((n) => document.querySelectorAll('tr[data-session-id]').length === n + 1, before);
  }
});

test('a drop on a page that does not import is refused, not opened by the browser', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.waitForSelector('tr[data-session-id]');
  const before = await rows(page);
  await page.click('tr[data-session-id] a');
  await page.waitForSelector('.session-head');
  const url = page.url();
  assert.ok(await drop(page, 'body', 'x.roundtable.json', DEMO), 'the browser does not open the file');
  assert.equal(page.url(), url, 'the session stays open');
  await open(page, srv.url, '#/settings');
  assert.ok(await drop(page, 'body', 'x.roundtable.json', DEMO), 'nor on the settings page');
  await open(page, srv.url, '#/');
  await page.waitForSelector('tr[data-session-id]');
  assert.equal(await rows(page), before, 'nothing was imported by those drops');
});

test('refusals give the real size and the real reason', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.waitForSelector('.dropzone');
  const before = await rows(page);
  // 50 MB of random bytes: not text (not "too large" after a lossy decode inflated it).
  await drop(page, 'html', 'random.bin', `
    const bytes = new Uint8Array(50 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
    return new Blob([bytes]);`);
  const notText = page.locator('.notice.error', { hasText: '“random.bin” was not imported' });
  await notText.waitFor({ timeout: 60000 });
  const message = await notText.textContent();
  assert.match(message, /it is not text/);
  assert.doesNotMatch(message, /too large/);
  await notText.locator('button').click();
  // 70 MB: refused by its size on disk, in words and bytes, before anything reads it.
  await drop(page, 'html', 'huge.roundtable.json', 'return new Blob([new Uint8Array(70 * 1024 * 1024)]);');
  const large = page.locator('.notice.error', { hasText: '“huge.roundtable.json” was not imported' });
  await large.waitFor({ timeout: 60000 });
  assert.match(await large.textContent(), /too large: it is 70\.0 MB \(73400320 bytes\), and a session file is at most 64\.0 MB/);
  await shot(page, 'files-refusals');
  assert.equal(await rows(page), before, 'nothing was imported');
  assert.deepEqual(b.errors.filter((e) => !/Failed to load resource/.test(e)), [], 'no page errors');
});

test('an import shows its progress stage by stage, then opens the session', async (t) => {
  // A fresh profile, so the file is new to it (no "already there" question).
  const fresh = await launch();
  t.after(() => fresh.close());
  const { page } = fresh;
  await open(page, srv.url, '#/');
  await page.waitForSelector('.dropzone');
  // Every stage the bar shows, in order, as the page renders it.
  await page.evaluate(() => {
    window.__stages = [];
    new MutationObserver(() => {
      const bar = document.querySelector('.import-progress');
      if (!bar) return;
      const stage = bar.dataset.importStage;
      const words = bar.querySelector('label').textContent;
      const value = bar.querySelector('progress').value;
      const last = window.__stages.at(-1);
      if (!last || last.stage !== stage) window.__stages.push({ stage, words, value });
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  const demo = await page.evaluate(async () => await (await fetch('demo/demo-session.roundtable.json')).text());
  await page.setInputFiles('#import-file', { name: 'progress.roundtable.json', mimeType: 'application/json', buffer: Buffer.from(demo) });
  await page.waitForFunction(() => location.hash.startsWith('#/s/'), null, { timeout: 60000 });
  const stages = await page.evaluate(() => window.__stages);
  assert.deepEqual(stages.map((s) => s.stage), ['0', '1', '2', '3'], JSON.stringify(stages));
  assert.match(stages[0].words, /^Importing “progress\.roundtable\.json”: checking the file \(1 of 4\)…$/);
  assert.match(stages[2].words, /replaying its history \(3 of 4\)/);
  assert.deepEqual(stages.map((s) => s.value), [0, 1, 2, 3]);
  assert.equal(await page.locator('.import-progress').count(), 0, 'the bar goes with the import');
});

test('a 10,000-deep document and a 50 MB text file get a plain answer, and the page stays usable', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.waitForSelector('.dropzone');
  const before = await rows(page);
  await drop(page, 'html', 'deep.roundtable.json', `
    return new Blob(['['.repeat(10000) + ']'.repeat(10000)]);`);
  const deep = page.locator('.notice.error', { hasText: '“deep.roundtable.json” was not imported' });
  await deep.waitFor({ timeout: 30000 });
  assert.match(await deep.textContent(), /not valid JSON \(recursion limit exceeded/);
  await deep.locator('button').click();
  // 50 MB of JSON text whose one field is huge: refused by what is wrong with it, not by a freeze.
  await drop(page, 'html', 'big.roundtable.json', `
    return new Blob(['{"format":"roundtable.session","schema_version":3,"title":"', 'x'.repeat(50 * 1024 * 1024), '"}']);`);
  const big = page.locator('.notice.error', { hasText: '“big.roundtable.json” was not imported' });
  await big.waitFor({ timeout: 60000 });
  assert.match(await big.textContent(), /missing field `events`/);
  // The page still answers: the import button takes focus and the sessions list is as it was.
  await page.locator('button[name="open-demo"]').focus();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'open-demo');
  assert.equal(await rows(page), before, 'nothing was imported');
  assert.deepEqual(b.errors.filter((e) => !/Failed to load resource/.test(e)), [], 'no page errors');
});
