// Downloaded once (issue 33): on a first visit that opens a demo, every file whose name carries a
// hash of its content reaches the browser once — the page's fetch, with the service worker's
// install served from the HTTP cache, never a second download — and files offline use does not
// need (the providers' schemas, the large icon) are not fetched at all. The server's own request
// log is the judge: it sees the worker's requests, which a page's request events do not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST, launch, open, shot } from './helpers.mjs';
import { startServer, HASHED } from '../../scripts/serve.mjs';

let srv;
let b;
const log = [];
before(async () => {
  srv = await startServer({ dir: DIST, log: (r) => log.push(r) });
  b = await launch({ serviceWorkers: 'allow' });
});
after(async () => {
  await b?.close();
  await srv?.close();
});

/** The worker's offline list, as the build wrote it into dist/sw.js. */
function offlineList() {
  const sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
  return JSON.parse(sw.match(/const FILES = (\[[^\]]*\]);/)[1]).map((f) => f.replace(/^\.\//, '/'));
}

/** How many times each path was sent with its body (status 200), for the requests logged so far. */
function sent() {
  const n = {};
  for (const r of log) if (r.status === 200) n[r.path] = (n[r.path] || 0) + 1;
  return n;
}

test('a first visit that opens a demo fetches each hashed file once, the worker included', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('.session-head');
  // The worker registers once the page is idle; it controls the page once its install kept the
  // whole offline list.
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 30000 });
  const files = offlineList();
  const kept = await page.evaluate(async () => {
    const names = (await caches.keys()).filter((n) => n.startsWith('roundtable-') && n !== 'roundtable-meta');
    const cache = await caches.open(names[0]);
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  });
  for (const f of files) assert.ok(kept.includes(f), `${f} is kept for offline use (kept: ${kept.join(', ')})`);
  const counts = sent();
  const hashed = Object.keys(counts).filter((p) => HASHED.test(p));
  assert.ok(hashed.some((p) => p.endsWith('_bg.wasm')), `the wasm was fetched (log: ${JSON.stringify(log)})`);
  for (const p of hashed) assert.equal(counts[p], 1, `${p} sent ${counts[p]} times (log: ${JSON.stringify(log)})`);
  // Nothing else went twice with its body either (the page and the demo session are revalidated:
  // a 304 without a body).
  for (const [p, n] of Object.entries(counts)) assert.equal(n, 1, `${p} sent ${n} times`);
  // Not needed offline, not asked for: the providers' schemas, the 512 px icon.
  const asked = log.map((r) => r.path);
  assert.deepEqual(asked.filter((p) => p.startsWith('/schemas/') || p === '/icon-512.png'), []);
  assert.ok(!files.some((f) => f.startsWith('/schemas/') || f === '/icon-512.png'), 'schemas and the big icon are not in the offline list');
  await shot(page, 'first-visit-demo');

  // A repeat visit: every hashed file from the worker's cache, nothing sent again but a
  // revalidated page.
  const before = log.length;
  await page.reload();
  await page.waitForSelector('.session-head');
  const again = log.slice(before).filter((r) => r.status === 200 && HASHED.test(r.path));
  assert.deepEqual(again, [], 'a repeat visit downloads no hashed file again');
  assert.deepEqual(b.errors, []);
});
