// The small things a newcomer trips over: the home page says what Roundtable is; importing a
// session that is already there asks (in the page) whether to keep both; the "Imported" notice
// goes when the person moves on; versions are numbered per product beside their ids; no raw
// enum words (partially_met, not_met) reach the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, open, shot, waitStatus } from './helpers.mjs';

let srv;
let b;
before(async () => {
  srv = await serveDist();
  b = await launch();
  // No native dialog may appear in this flow.
  b.page.on('dialog', (d) => { b.errors.push(`native dialog: ${d.message()}`); d.dismiss(); });
});
after(async () => {
  await b?.close();
  await srv?.stop();
});

const rows = (page) => page.locator('tr[data-session-id]').count();

test('home says what Roundtable is; a second import of the same session asks first', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  const tagline = await page.textContent('[data-tagline]');
  // It speaks of every kind of session, not the team alone (issue 23).
  assert.match(tagline, /^Roundtable runs AI models together/);
  for (const kind of ['team', 'meeting', 'dialectic', 'autocoding', 'review loop']) assert.match(tagline, new RegExp(`\\b${kind}\\b`));
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('.session-head');
  await page.waitForSelector('.notice:has-text("Imported")');
  await waitStatus(page, 'done');

  // Per-product version numbers beside the session-wide ids, and words, not enum names.
  await page.click('.tree-row[data-product-id="p1"]');
  const badge = await page.waitForSelector('[data-version-number]');
  assert.match(await badge.textContent(), /^version \d+ of \d+ · v\d+$/);
  await page.click('button[role="tab"]:has-text("History")');
  await page.waitForSelector('ol.stack li');
  const history = await page.textContent('ol.stack');
  assert.match(history, /Version 1 \(v\d+\)/);
  const text = await page.textContent('main');
  assert.doesNotMatch(text, /partially_met|not_met|DoD /);

  // Moving on: the notice of the import does not follow.
  await page.click('a.nav-link[href="#/"]');
  await page.waitForSelector('tr[data-session-id]');
  assert.equal(await page.locator('.notice:has-text("Imported")').count(), 0, 'the notice went with the page');
  assert.equal(await rows(page), 1);

  // The same demo again: asked in the page, nothing added until the person says so.
  await page.click('button[name="open-demo"]');
  const ask = await page.waitForSelector('[data-banner="duplicate"]');
  assert.match(await ask.textContent(), /already in your sessions/);
  await shot(page, 'import-duplicate');
  await page.click('button[name="cancel-import"]');
  await page.waitForSelector('[data-banner="duplicate"]', { state: 'detached' });
  assert.equal(await rows(page), 1, 'Cancel adds nothing');
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('[data-banner="duplicate"]');
  await page.click('button[name="keep-both"]');
  await page.waitForSelector('.session-head');
  await open(page, srv.url, '#/');
  await page.waitForSelector('tr[data-session-id]');
  assert.equal(await rows(page), 2, 'Keep both adds a second copy');
  assert.deepEqual(b.errors, []);
});

test('the new-session form suggests the team that fits the request, and the person can change it', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  const pressed = (id) => page.getAttribute(`button[data-preset="${id}"]`, 'aria-pressed');
  await page.fill('textarea[name="request"]', 'Plan a book swap in the village hall for 40 people with a £50 budget.');
  await page.waitForFunction(() => document.querySelector('button[data-preset="project-crew"]')?.getAttribute('aria-pressed') === 'true');
  assert.equal(await pressed('research-lab'), 'false', 'a book swap is not a research lab');
  assert.match(await page.textContent('[data-preset-hint]'), /Project crew.*fits this request/);
  await page.fill('textarea[name="request"]', 'Write the first chapter of a cosy mystery novel set in a lighthouse.');
  await page.waitForFunction(() => document.querySelector('button[data-preset="book-authors"]')?.getAttribute('aria-pressed') === 'true');
  // The person's own pick wins over the suggestion from then on.
  await page.click('button[data-preset="debate-squad"]');
  await page.fill('textarea[name="request"]', 'Survey the literature on sleep and memory.');
  assert.equal(await pressed('debate-squad'), 'true');
  assert.match(await page.textContent('[data-preset-hint]'), /You picked “Debate squad”/);
  assert.deepEqual(b.errors, []);
});
