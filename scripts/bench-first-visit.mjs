// First and repeat visit over a slow link, Python's `http.server` (every file sent uncompressed,
// what scripts/serve.sh ran before) against scripts/serve.mjs (the build's Brotli copies, a year's
// cache for hashed names), on the same built dist/ (build it first: scripts/build-web.sh).
//
// Each run is a fresh Chromium profile (headless, its own --user-data-dir) whose page has the
// network emulated by CDP (Network.emulateNetworkConditions: 10 Mbps down, 5 Mbps up, 40 ms
// latency). Marks are taken in the page by a MutationObserver, in ms since navigation start:
//  - home: the interactive home page — the app's header mounted (what the tests wait for, see
//    tests/e2e/helpers.mjs `open`) with its "Open a demo session" button enabled;
//  - demo: a demo session shown (`.session-head`), the page clicking that button the moment it is
//    enabled (so the click costs no round trip to this script);
//  - repeat: the browser restarted on the same profile (its HTTP cache, service worker and stored
//    sessions kept) and the home opened again: time to the interactive home. Chromium applies the
//    page's emulated link to the page's requests, not to the service worker's own fetches (its
//    network-first index.html), so a second repeat figure is taken with service workers blocked:
//    the HTTP cache alone, every request on the slow link — what the server's cache headers give.
// Targets (issue 23 item 8): home ≤ 1500 ms, demo ≤ 2500 ms, repeat ≤ 500 ms. Prints a Markdown
// table of medians (and every run); exit code 0 either way: it is a measurement, not a test.
// `RUNS=5 node scripts/bench-first-visit.mjs` for more runs (default 3).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { chromium } from 'playwright-core';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = process.env.RT_DIST || join(ROOT, 'dist');
const RUNS = Number(process.env.RUNS || 3);
const TARGETS = { home: 1500, demo: 2500, repeat: 500, httpCache: 500 };
const LINK = { offline: false, latency: 40, downloadThroughput: (10e6 / 8), uploadThroughput: (5e6 / 8) };

if (!existsSync(join(DIST, 'index.html'))) {
  console.error(`no build in ${DIST}: run scripts/build-web.sh first`);
  process.exit(1);
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Starts a server process on a free loopback port; returns { url, stop }. */
async function serve(kind) {
  const port = await freePort();
  const [cmd, args] = kind === 'python'
    ? ['python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', DIST]]
    : ['node', [join(ROOT, 'scripts/serve.mjs'), DIST, '--port', String(port)]];
  const child = spawn(cmd, args, { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) break;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

// Runs in the page before its own scripts: records the marks, and clicks the demo button once
// when asked to.
function marker(clickDemo) {
  window.__rtMarks = {};
  const look = () => {
    const m = window.__rtMarks;
    const button = document.querySelector('button[name="open-demo"]');
    if (m.home === undefined && document.querySelector('header.app-header') && button && !button.disabled) {
      m.home = performance.now();
      if (clickDemo) button.click();
    }
    if (m.demo === undefined && document.querySelector('.session-head')) m.demo = performance.now();
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
}

async function browser(profile, clickDemo, serviceWorkers = 'allow') {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    serviceWorkers,
    viewport: { width: 1440, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  await context.addInitScript(marker, clickDemo);
  const page = context.pages()[0] || (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', LINK);
  return { context, page };
}

async function waitMark(page, name) {
  await page.waitForFunction((n) => window.__rtMarks?.[n] !== undefined, name, { timeout: 120000 });
  return Math.round(await page.evaluate((n) => window.__rtMarks[n], name));
}

async function run(url) {
  const profile = mkdtempSync(join(tmpdir(), 'rt-bench-visit-'));
  try {
    let b = await browser(profile, true);
    await b.page.goto(url + '#/');
    const home = await waitMark(b.page, 'home');
    const demo = await waitMark(b.page, 'demo');
    // Let the service worker finish installing, as it would before a person's next visit.
    await b.page.evaluate(() => navigator.serviceWorker?.ready.then(() => true));
    await b.page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 60000 }).catch(() => {});
    await b.context.close();
    b = await browser(profile, false);
    await b.page.goto(url + '#/');
    const repeat = await waitMark(b.page, 'home');
    await b.context.close();
    b = await browser(profile, false, 'block');
    await b.page.goto(url + '#/');
    const httpCache = await waitMark(b.page, 'home');
    await b.context.close();
    return { home, demo, repeat, httpCache };
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const [kind, label] of [['python', 'python3 -m http.server (uncompressed)'], ['ours', 'scripts/serve.mjs (Brotli, cache headers)']]) {
  const srv = await serve(kind);
  const runs = [];
  try {
    for (let i = 0; i < RUNS; i++) runs.push(await run(srv.url));
  } finally {
    await srv.stop();
  }
  const med = {};
  for (const k of Object.keys(runs[0])) med[k] = median(runs.map((r) => r[k]));
  rows.push({ label, runs, med });
  console.error(`${label}: ${JSON.stringify(runs)}`);
}

let commit = '';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
} catch { /* not a checkout */ }
const cell = (row, k) => `${row.med[k]} ms${row.med[k] <= TARGETS[k] ? '' : ' (over)'} <br>runs ${row.runs.map((r) => r[k]).join(', ')}`;
console.log(`Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit || '?'}, ${RUNS} fresh profiles per server, headless Chromium, CDP link 10 Mbps down / 5 Mbps up / 40 ms; medians:

| server | first visit → interactive home (≤ ${TARGETS.home} ms) | first visit → demo session shown (≤ ${TARGETS.demo} ms) | repeat visit → home (≤ ${TARGETS.repeat} ms) | repeat, HTTP cache only (≤ ${TARGETS.httpCache} ms) |
| --- | --- | --- | --- | --- |
${rows.map((r) => `| ${r.label} | ${cell(r, 'home')} | ${cell(r, 'demo')} | ${cell(r, 'repeat')} | ${cell(r, 'httpCache')} |`).join('\n')}`);
