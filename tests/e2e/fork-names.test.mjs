// Forks you can tell apart, and sessions a person names: a fork of the demo team session with an
// operative on demo-2 names that what-if in the home list and on its page (core's words); the
// Rename control is keyboard-first (Escape cancels, Enter saves, focus comes back), and the name
// survives a reload and an export/import; an empty name gives back the request's first line.
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

const sessionId = (page) => page.url().split('#/s/')[1].split(/[@/]/)[0];
const focusedName = (page) => page.evaluate(() => document.activeElement?.getAttribute('name'));

test('a fork names its what-if in the list and on its page; a rename survives reload and export/import', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('.session-head');
  await waitStatus(page, 'done');
  const originalId = sessionId(page);
  const defaultTitle = (await page.textContent('.session-head h1')).trim();
  assert.equal(await page.locator('.session-head .fork-note').count(), 0, 'an original is no fork');

  // Fork at an operative's call in round 2 with that operative on demo-2.
  const round2 = page.locator('.timeline .round', { has: page.locator('h3', { hasText: /^Round 2$/ }) });
  const line = round2.locator('.call-line[data-member^="operative"]').first();
  const member = await line.getAttribute('data-member');
  await line.locator('button[name="fork"]').click();
  const dialog = page.locator('.fork-dialog[role="dialog"]');
  await dialog.waitFor();
  await dialog.locator(`fieldset[data-member="${member}"] input[name="fork-model"]`).fill('demo-2');
  await dialog.locator('button[name="make-fork"]').click();
  await page.waitForFunction((o) => !location.hash.includes(o), originalId);
  await page.waitForSelector('.session-head .fork-note');
  const forkId = sessionId(page);
  await waitStatus(page, 'paused');

  // The fork's page: its line names the what-if by the member's name, and links the original.
  const note = (await page.textContent('.session-head .fork-note')).trim();
  // The point by what happened there and in which turn, never an event's index.
  const m = note.match(/^Fork after “(.+), (round|turn|pass|iteration) \d+”: (.+) on demo-2$/);
  assert.ok(m, `the fork's line names its point and its what-if: ${note}`);
  assert.doesNotMatch(m[1], /point \d/, 'no event index');
  assert.notEqual(m[3], member, 'the member by name, not by id');
  assert.match(await page.getAttribute('.session-head [data-fork-note] a', 'href'), new RegExp(`^#/s/${originalId}@\\d+$`));
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `fork-names-page-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // The list: the fork's row says the same; the original's does not.
  await open(page, srv.url, '#/');
  const forkRow = page.locator(`tr[data-session-id="${forkId}"]`);
  await forkRow.waitFor();
  assert.equal((await forkRow.locator('.fork-note').textContent()).trim(), note);
  assert.equal(await page.locator(`tr[data-session-id="${originalId}"] .fork-note`).count(), 0);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `fork-names-list-${width}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Rename the fork: Escape cancels and gives focus back to Rename; Enter saves.
  await open(page, srv.url, `#/s/${forkId}`);
  await page.waitForSelector('.session-head h1');
  await page.focus('.session-head button[name="rename"]');
  await page.keyboard.press('Enter');
  const field = page.locator('.session-head input[name="title"]');
  await field.waitFor({ state: 'visible' });
  await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'title');
  assert.equal(await field.inputValue(), defaultTitle);
  await page.keyboard.type(' (not kept)');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.session-head h1:visible');
  assert.equal((await page.textContent('.session-head h1')).trim(), defaultTitle);
  await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'rename');
  assert.equal(await focusedName(page), 'rename');
  const name = 'Operative on demo-2, second try';
  await page.keyboard.press('Enter');
  await field.waitFor({ state: 'visible' });
  await field.fill(name);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.session-head h1:has-text("${name}")`);
  await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'rename');
  await shot(page, 'fork-names-renamed');

  // A reload keeps it; so does the list.
  await page.reload();
  await page.waitForSelector('.session-head h1');
  assert.equal((await page.textContent('.session-head h1')).trim(), name);
  await open(page, srv.url, '#/');
  assert.equal((await page.locator(`tr[data-session-id="${forkId}"] td.title > a`).textContent()).trim(), name);
  assert.equal((await page.locator(`tr[data-session-id="${originalId}"] td.title > a`).textContent()).trim(), defaultTitle, 'the original keeps its title');

  // Export, delete, import: the name and the fork's line come back.
  await open(page, srv.url, `#/s/${forkId}`);
  await page.waitForSelector('.session-head h1');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('.session-head button[name="export"]'),
  ]);
  const path = join(OUTPUT, 'fork-renamed.roundtable.json');
  await download.saveAs(path);
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).title, name);
  await open(page, srv.url, '#/');
  await page.click(`tr[data-session-id="${forkId}"] button:has-text("Delete")`);
  await page.click('dialog[data-dialog="ask"] button[name="ask-confirm"]');
  await page.waitForFunction((id) => !document.querySelector(`tr[data-session-id="${id}"]`), forkId);
  await page.setInputFiles('#import-file', path);
  await page.waitForSelector('.session-head h1');
  assert.equal((await page.textContent('.session-head h1')).trim(), name);
  assert.equal((await page.textContent('.session-head .fork-note')).trim(), note);

  // An empty name gives back the request's first line.
  await page.click('.session-head button[name="rename"]');
  await field.waitFor({ state: 'visible' });
  await field.fill('');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.session-head h1:has-text("${defaultTitle}")`);
  assert.equal((await page.textContent('.session-head h1')).trim(), defaultTitle);
  assert.deepEqual(b.errors, [], 'no page errors');
});
