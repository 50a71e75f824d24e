// Offline after the first visit: the service worker keeps the app's own files, so with the network
// cut the page reloads and a demo session runs to the end; a provider's request is never answered
// from the cache; a new deploy is picked up on the next visit with a quiet "updated" notice; the
// app can be installed (a manifest with icons).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, serveDir, launch, open, shot, waitStatus } from './helpers.mjs';
import { precompressFile } from '../../scripts/precompress.mjs';

// A copy of dist/ of its own, so this test can deploy a "new version" without touching the others.
let dir;
let srv;
let b;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rt-offline-'));
  cpSync(DIST, dir, { recursive: true });
  srv = await serveDir(dir);
  b = await launch({ serviceWorkers: 'allow' });
});
after(async () => {
  await b?.close();
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Waits until the service worker controls the page and has kept every file of its list. */
async function waitOffline(page) {
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 30000 });
  return page.evaluate(async () => {
    const names = (await caches.keys()).filter((n) => n.startsWith('roundtable-') && n !== 'roundtable-meta');
    const cache = await caches.open(names[0]);
    return { names, kept: (await cache.keys()).map((r) => new URL(r.url).pathname) };
  });
}

test('with the network cut after the first visit, the page opens and a demo session runs', async (t) => {
  const { page, context } = b;
  t.after(() => context.setOffline(false));
  await open(page, srv.url, '#/');
  const { names, kept } = await waitOffline(page);
  assert.equal(names.length, 1, names.join(', '));
  const wasm = readFileSync(join(dir, 'index.html'), 'utf8').match(/roundtable-web-[0-9a-f]{8,16}_bg\.wasm/)[0];
  assert.ok(kept.some((p) => p.endsWith(wasm)), 'the app itself is kept');
  assert.ok(kept.some((p) => p.endsWith('demo/demo-session.roundtable.json')), 'the demo session is kept');
  // The build's precompressed copies are beside the files, and not in the list (the server picks
  // them by Accept-Encoding; the cache keeps the decoded file under its own name).
  assert.ok(existsSync(join(dir, `${wasm}.br`)) && existsSync(join(dir, `${wasm}.gz`)), 'the wasm is precompressed');
  assert.deepEqual(kept.filter((p) => /\.(br|gz)$/.test(p)), [], 'no .br/.gz in the offline list');
  const manifest = await page.evaluate(async () => {
    const href = document.querySelector('link[rel="manifest"]').href;
    return (await fetch(href)).json();
  });
  assert.equal(manifest.name, 'Roundtable');
  assert.ok(manifest.icons.some((i) => i.sizes === '512x512' && i.type === 'image/png'));

  await context.setOffline(true);
  await page.reload();
  await page.waitForSelector('header.app-header', { timeout: 30000 });
  // Sanity: the network really is cut.
  assert.equal(await page.evaluate(() => fetch('https://api.openai.com/v1/models').then(() => 'reached', () => 'offline')), 'offline');
  // A new demo session, run to the end with no network at all.
  await open(page, srv.url, '#/new');
  await page.fill('textarea[name="request"]', 'Plan a book swap in the village hall for 40 people on a £50 budget.');
  await page.click('button[name="create"]');
  await page.waitForSelector('.session-head');
  await page.click('button[name="run"]');
  for (;;) {
    const s = await waitStatus(page, ['done', 'awaiting_person', 'paused'], 120000);
    if (s !== 'awaiting_person') break;
    await page.fill('[data-dialog="halt"] textarea[name="halt-answer"]', 'Saturday 14 March, the village hall, 40 people, £50.');
    await page.click('[data-dialog="halt"] button[name="send-answer"]');
    await page.waitForSelector('[data-dialog="halt"]', { state: 'detached' });
  }
  assert.equal(await page.getAttribute('.session', 'data-status'), 'done');
  // The recorded demo opens offline too.
  await open(page, srv.url, '#/');
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('.session-head, .banner.warn[data-banner="duplicate"]');
  await shot(page, 'offline-demo');
  assert.deepEqual(b.errors.filter((e) => !/Failed to load resource|net::ERR_INTERNET_DISCONNECTED/.test(e)), []);
});

test('a new deploy is picked up on the next visit, with a quiet "updated" notice', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await waitOffline(page);
  const before = await page.evaluate(async () => (await caches.keys()).filter((n) => n !== 'roundtable-meta'));
  // "Deploy": a changed file and the service worker that lists it (as a build writes them).
  const swPath = join(dir, 'sw.js');
  const sw = readFileSync(swPath, 'utf8');
  const version = sw.match(/const VERSION = '([0-9a-f]{16})'/)[1];
  writeFileSync(join(dir, 'index.html'), readFileSync(join(dir, 'index.html'), 'utf8').replace('</head>', '<meta name="deploy" content="2">\n</head>'));
  writeFileSync(swPath, sw.replace(version, 'feedfacefeedface'));
  // The build writes their .br/.gz copies too (the server sends those first).
  precompressFile(join(dir, 'index.html'));
  precompressFile(swPath);
  await page.reload();
  await page.locator('.notice', { hasText: 'Roundtable was updated to its latest version.' }).waitFor({ timeout: 30000 });
  const after = await page.evaluate(async () => (await caches.keys()).filter((n) => n !== 'roundtable-meta'));
  assert.deepEqual(after, ['roundtable-feedfacefeedface'], `before: ${before}`);
  assert.equal(await page.locator('meta[name="deploy"]').count(), 1, 'the new page is the one shown');
  // Told once: the next visit is quiet.
  await page.reload();
  await page.waitForSelector('header.app-header');
  await page.waitForFunction(async () => !(await (await caches.open('roundtable-meta')).match('updated')));
  assert.equal(await page.locator('.notice', { hasText: 'was updated' }).count(), 0);
});
