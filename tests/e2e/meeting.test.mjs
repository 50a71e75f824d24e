// A meeting (spec 001) in the browser, on the demo model: created from the kind picker, run to
// its minutes through the seven phases (the demo orchestrator errs at least once, so a decision by
// the fallback rule shows), exported, deleted, imported back and compared.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, open, shot, waitStatus, OUTPUT } from './helpers.mjs';

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

const AGENDA = 'Choose where to hold the team offsite.\nBudget: £3,000 for 12 people. It must be reachable by train.';

test('a meeting is created, runs to its minutes, and travels as a file', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="meeting"]');
  await page.waitForSelector('form[data-form="meeting"]');
  // Bad input: an empty agenda is refused in plain words, and nothing is created.
  await page.click('button[name="create-meeting"]');
  await page.waitForSelector('[data-error="meeting"]:has-text("agenda is empty")');
  await shot(page, 'page-new-meeting');
  await page.fill('textarea[name="agenda"]', AGENDA);
  await page.click('button[name="create-meeting"]');
  await page.waitForSelector('.session-head');
  await page.waitForSelector('nav.phases li[data-phase="Initialization"].current');
  assert.equal(await page.getAttribute('.session', 'data-status'), 'draft');
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 180000);
  // Every phase done, the minutes shown, decisions by the fallback rule marked.
  assert.equal(await page.locator('nav.phases li.done').count(), 7);
  await page.waitForSelector('[data-section="minutes"] h2:has-text("Decisions")');
  assert.ok(await page.locator('[data-turn="fallback"]').count() >= 1, 'a fallback decision is shown');
  const contributions = await page.locator('[data-turn="contribution"]').count();
  assert.ok(contributions >= 7, `contributions (${contributions})`);
  const minutes = await page.textContent('[data-section="minutes"]');
  assert.match(minutes, /Action items/);
  await page.waitForSelector('[data-banner="done"]:has-text("minutes")');
  await shot(page, 'page-meeting-done');
  // The transcript by speaker: one attendee's contributions only.
  const speaker = await page.getAttribute('button.attendee:not(:has-text("orchestrator"))', 'data-attendee');
  await page.click(`button.attendee[data-attendee="${speaker}"]`);
  const shown = await page.$$eval('[data-turn]', (els) => els.map((e) => `${e.dataset.turn}:${e.dataset.speaker ?? ''}`));
  assert.ok(shown.length >= 1 && shown.every((s) => s === `contribution:${speaker}`), shown.join(' '));
  // A call's transcript opens for a meeting too.
  await page.click('.timeline [data-call-id] button');
  await page.waitForSelector('[role="dialog"] [data-section="messages"]');
  await page.keyboard.press('Escape');
  // Export, delete, import, compare.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('.session-head button[name="export"]'),
  ]);
  const path = join(OUTPUT, 'meeting.roundtable.json');
  await download.saveAs(path);
  const first = JSON.parse(readFileSync(path, 'utf8'));
  assert.equal(first.kind, 'meeting');
  assert.equal(first.schema_version, 3);
  await open(page, srv.url, '#/');
  const id = await page.getAttribute('tr[data-session-id]', 'data-session-id');
  await page.click(`tr[data-session-id="${id}"] button:has-text("Delete")`);
  await page.click('dialog[data-dialog="ask"] button[name="ask-confirm"]');
  await page.waitForSelector('text=No sessions yet.');
  await page.setInputFiles('#import-file', path);
  await page.waitForSelector('.session-head');
  await waitStatus(page, 'done');
  await page.waitForSelector('[data-section="minutes"] h2:has-text("Decisions")');
  const [again] = await Promise.all([
    page.waitForEvent('download'),
    page.click('.session-head button[name="export"]'),
  ]);
  const second = JSON.parse(readFileSync(await again.path(), 'utf8'));
  assert.deepEqual(second.events, first.events);
  assert.equal(second.checksum, first.checksum);
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('"Try a demo meeting" on the home page opens a meeting ready to run', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.click('button[name="demo-meeting"]');
  await page.waitForSelector('nav.phases li[data-phase="Initialization"].current');
  assert.equal(await page.getAttribute('.session', 'data-status'), 'draft');
  assert.match(await page.textContent('.session-head h1'), /team offsite/);
  // The Budget panel counts in the meeting's own word, as the header does, and keeps the page's
  // margin like the panels above it, wide and narrow.
  const head = await page.textContent('.session-head');
  const [, turns] = head.match(/turn 0 of (\d+)/) ?? [];
  assert.ok(turns, `the header counts turns: ${head}`);
  const limit = page.locator('section.panel[aria-label="Budget"] [data-limit="round-limit"]');
  assert.equal((await limit.locator('label').textContent()).trim(), 'Turn limit');
  assert.equal((await limit.locator('span.used').textContent()).trim(), `0 of ${turns} turns used`);
  assert.doesNotMatch(await page.textContent('section.panel[aria-label="Budget"]'), /round/i);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const panel = await page.locator('section.panel[aria-label="Budget"]').boundingBox();
    const grid = await page.locator('.meeting-grid').boundingBox();
    assert.ok(panel.x >= grid.x - 0.5 && panel.x + panel.width <= grid.x + grid.width + 0.5,
      `at ${width} px the Budget panel (${panel.x}..${panel.x + panel.width}) sits inside the page margin (${grid.x}..${grid.x + grid.width})`);
    assert.ok(panel.x >= 8, `at ${width} px the Budget panel has a margin (${panel.x})`);
    await shot(page, `meeting-budget-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.click('button[name="step"]');
  await page.waitForSelector('[data-turn="decision"], [data-turn="fallback"]');
  assert.deepEqual(b.errors, [], 'no page errors');
});
