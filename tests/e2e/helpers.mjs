// Shared set-up for the browser tests: a static server for dist/ on loopback, a fresh Chromium
// profile per test file (persistent, so IndexedDB survives reloads), and page helpers.
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = process.env.RT_DIST || join(ROOT, 'dist');
export const OUTPUT = join(ROOT, 'tests', 'output');
mkdirSync(OUTPUT, { recursive: true });

/** Serves dist/ (or RT_BASE_URL when given) and returns { url, stop }. */
export async function serveDist() {
  if (process.env.RT_BASE_URL) return { url: process.env.RT_BASE_URL, stop: async () => {} };
  return serveDir(DIST);
}

/** Serves a directory on a free loopback port with the app's own server (scripts/serve.mjs: the
 *  precompressed copies, the cache headers) and returns { url, stop }. */
export async function serveDir(dir) {
  const srv = await startServer({ dir });
  return { url: srv.url, stop: srv.close };
}

/** A fresh persistent Chromium profile; returns { context, page, close, errors }. Service workers
 *  are blocked unless asked for: the offline test exercises the app's own, and every other test
 *  sees each request the page makes (Playwright's routing does not see a worker's). */
export async function launch({ serviceWorkers = 'block' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'rt-e2e-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1440, height: 900 },
    serviceWorkers,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const errors = [];
  const watch = (page) => {
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
  };
  context.on('page', watch);
  const page = context.pages()[0] || (await context.newPage());
  watch(page);
  return {
    context,
    page,
    errors,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Opens the app at a hash route and waits until it has mounted. */
export async function open(page, base, hash = '#/') {
  await page.goto(base + hash);
  await page.waitForSelector('header.app-header');
}

/** Saves a full-page screenshot to tests/output/<name>.png. */
export async function shot(page, name) {
  const path = join(OUTPUT, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Creates a demo session from the New page with the given request; returns its id. */
export async function createDemoSession(page, base, request, { preset = 'research-lab', rounds } = {}) {
  await open(page, base, '#/new');
  await page.click(`button[data-preset="${preset}"]`);
  await page.fill('textarea[name="request"]', request);
  if (rounds) await page.fill('input[name="max-rounds"]', String(rounds));
  await page.click('button[name="create"]');
  await page.waitForSelector('.session-head');
  const url = page.url();
  return url.split('#/s/')[1].split('/')[0];
}

/** The session's status word, as the page shows it (data-status on the session root). */
export async function status(page) {
  return page.getAttribute('.session', 'data-status');
}

/** Waits until the session status is one of `want`, answering nothing. */
export async function waitStatus(page, want, timeout = 120000) {
  const wanted = Array.isArray(want) ? want : [want];
  await page.waitForFunction(
    (w) => w.includes(document.querySelector('.session')?.getAttribute('data-status')),
    wanted,
    { timeout },
  );
  return status(page);
}

/** Sets the demo model's pause per answer (Settings page), so a test can act while calls are out. */
export async function setDemoDelay(context, base, ms) {
  const page = await context.newPage();
  await open(page, base, '#/settings');
  await page.fill('input[name="demo-delay"]', String(ms));
  await page.click('button[name="save-demo-delay"]');
  await page.waitForSelector('text=Demo model pause saved.');
  await page.close();
}

/** Does `act` and waits for the notice `want` it brings. The same words may still be on screen
 *  from an earlier save, so that notice is dismissed first: the one waited for is this save's. */
export async function noticeAfter(page, want, act) {
  const stale = page.locator('.notice', { has: page.locator('.notice-text', { hasText: want }) });
  if (await stale.count()) await stale.locator('button[aria-label="Dismiss"]').click();
  await act();
  await page.waitForFunction(
    (text) => [...document.querySelectorAll('.notice-text')].some((n) => n.textContent === text),
    want,
  );
}

/** Saves a provider's address on the Settings page, waiting until it is stored. */
export async function saveBase(page, provider, url) {
  const label = (await page.textContent(`fieldset[data-provider="${provider}"] legend`)).trim();
  await noticeAfter(page, `Address for ${label} saved.`, async () => {
    await page.fill(`input[name="base-${provider}"]`, url);
    await page.click(`button[name="save-base-${provider}"]`);
  });
}

/** Saves a provider's key on the Settings page, waiting until it is stored. */
export async function saveKey(page, provider, key) {
  const label = (await page.textContent(`fieldset[data-provider="${provider}"] legend`)).trim();
  await noticeAfter(page, `Key for ${label} saved in this browser.`, async () => {
    await page.fill(`input[name="key-${provider}"]`, key);
    await page.press(`input[name="key-${provider}"]`, 'Enter');
  });
}

/** Points every provider of Settings at the loopback mock (its address, and a key where the
 *  service takes one), waiting until each is saved. */
export async function useProviderMock(page, base, mock) {
  const { PROVIDERS, KEYED, keyOf } = await import('./mock-providers.mjs');
  await open(page, base, '#/settings');
  for (const p of PROVIDERS) {
    await saveBase(page, p, mock.base(p));
    if (KEYED.includes(p)) await saveKey(page, p, keyOf(p));
  }
}

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now (evaluated through the
 *  DevTools protocol, so the page's CSP, no inline script, is untouched). */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1] ?? ''}`),
    }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** The page as it is now at 1440 and 390 px: a screenshot of each (`<name>-1440`, `<name>-390`),
 *  no serious axe-core violation at either, nothing scrolling sideways on the phone; back at
 *  1440 px after. */
export async function checkWideAndPhone(page, name) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, `${name}-1440`);
  assert.deepEqual(await axeViolations(page), [], '1440 px: axe-core');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${name}-390`);
  assert.deepEqual(await axeViolations(page), [], '390 px: axe-core');
  assert.equal(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    true,
    'nothing scrolls sideways on a phone',
  );
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Exports session `id` (open on `page`) to `tests/output/<name>.roundtable.json`, deletes it
 *  from the list and imports the file back; returns the file as read. */
export async function exportDeleteImport(page, base, id, name) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.session-head button[name="export"]')]);
  const path = join(OUTPUT, `${name}.roundtable.json`);
  await download.saveAs(path);
  const file = JSON.parse(readFileSync(path, 'utf8'));
  await open(page, base, '#/');
  await page.click(`tr[data-session-id="${id}"] button:has-text("Delete")`);
  await page.click('dialog[data-dialog="ask"] button[name="ask-confirm"]');
  await page.waitForSelector(`tr[data-session-id="${id}"]`, { state: 'detached' });
  await page.setInputFiles('#import-file', path);
  return file;
}

/** Copies the open session's share link and opens it in a fresh browser: once `ready` (a
 *  selector) shows under the shared banner, `see(page)` says what the page shows; the link's
 *  view may not run, and has no page error. Returns what `see` saw. */
export async function throughShareLink(page, ready, see) {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.click('.session-head button[name="copy-link"]');
  await page.locator('.notice', { hasText: 'Link copied' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const fresh = await launch();
  try {
    await fresh.page.goto(link);
    await fresh.page.waitForSelector('[data-banner="shared"]', { timeout: 30000 });
    await fresh.page.waitForSelector(ready);
    const seen = await see(fresh.page);
    assert.equal(await fresh.page.locator('button[name="run"]').isDisabled(), true);
    assert.deepEqual(fresh.errors, [], 'no page errors in the shared view');
    return seen;
  } finally {
    await fresh.close();
  }
}
