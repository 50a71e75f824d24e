// Forks and history in the browser: the finished demo team session forked at its second round
// with one operative on the demo's other variant (demo-2), run to the end, and compared with the
// original event by event (the same up to the fork, different after); the home list shows the
// family; an edited answer that is invalid is refused with its findings; the history slider
// steps back and forward with the keyboard, and an `@seq` link opens that point.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, open, shot, waitStatus } from './helpers.mjs';

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

/** A session's stored events (JSON text each), read from IndexedDB in the page. */
async function storedEvents(page, id) {
  return page.evaluate((sid) => new Promise((resolve, reject) => {
    const req = indexedDB.open('roundtable');
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const db = req.result;
      const tx = db.transaction(['events'], 'readonly');
      const all = tx.objectStore('events').getAll(IDBKeyRange.bound([sid, 0], [sid, Number.MAX_SAFE_INTEGER]));
      all.onsuccess = () => { db.close(); resolve(all.result.sort((a, b) => a.seq - b.seq).map((e) => e.json)); };
      all.onerror = () => reject(all.error);
    };
  }), id);
}

const sessionId = (page) => page.url().split('#/s/')[1].split(/[@/]/)[0];

/** Opens the shipped demo (a finished team session); returns its id. */
async function openDemo(page) {
  await open(page, srv.url, '#/');
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('.session-head');
  await waitStatus(page, 'done');
  return sessionId(page);
}

let originalId;
let forkId;
let forkSeq;

test('a finished demo team session forked at its second round with another model: same before, different after', async () => {
  const { page } = b;
  originalId = await openDemo(page);
  // The first call of an operative in round 2, in the timeline.
  const round2 = page.locator('.timeline .round', { has: page.locator('h3', { hasText: /^Round 2$/ }) });
  const lines = round2.locator('.call-line');
  const count = await lines.count();
  let line;
  for (let i = count - 1; i >= 0; i--) {
    const who = await lines.nth(i).getAttribute('data-member');
    if (who.startsWith('operative')) { line = lines.nth(i); break; }
  }
  assert.ok(line, 'an operative call in round 2');
  const callId = await line.getAttribute('data-call-id');
  const member = await line.getAttribute('data-member');
  // The line names the member by name; the dialog names the call in words, never by its id.
  const name = (await line.locator('button.link').textContent()).replace(/ \(.*\)$/, '').trim();
  assert.ok(!name.startsWith('operative'), `the member by name (${name})`);
  await line.locator('button[name="fork"]').click();
  const dialog = page.locator('.fork-dialog[role="dialog"]');
  await dialog.waitFor();
  const heading = await dialog.locator('h2').textContent();
  assert.match(heading, new RegExp(`^Fork from ${name}'s [a-z ]+, round 2$`));
  assert.ok(!heading.includes(callId));
  // Focus is inside the dialog and Tab stays there.
  assert.ok(await page.evaluate(() => document.querySelector('.fork-dialog').contains(document.activeElement)));
  for (let i = 0; i < 40; i++) await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.querySelector('.fork-dialog').contains(document.activeElement)), 'Tab stays in the dialog');
  const fields = dialog.locator(`fieldset[data-member="${member}"]`);
  assert.equal(await fields.locator('input[name="fork-model"]').inputValue(), 'demo-1');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'fork-dialog-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'fork-dialog-1440');

  // An invalid edited answer is refused with its findings, and nothing is made.
  await dialog.locator('input[name="fork-own-answer"]').check();
  await dialog.locator('textarea[name="fork-answer"]').fill('{"responseType": "final_output"}');
  await dialog.locator('button[name="make-fork"]').click();
  await dialog.locator('#fork-findings .violation').first().waitFor();
  assert.ok(await dialog.locator('#fork-findings .violation').count() >= 1);
  await shot(page, 'fork-dialog-findings');
  assert.equal(sessionId(page), originalId, 'still on the original');
  await dialog.locator('input[name="fork-own-answer"]').uncheck();

  // The what-if: this operative on the demo's second voice.
  await fields.locator('input[name="fork-model"]').fill('demo-2');
  await dialog.locator('button[name="make-fork"]').click();
  await page.waitForFunction((o) => !location.hash.includes(o), originalId);
  await page.waitForSelector('.session-head');
  forkId = sessionId(page);
  assert.notEqual(forkId, originalId);
  await waitStatus(page, 'paused');
  await page.waitForSelector('[data-banner="paused"]:has-text("fork")');
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 180000);

  const before = await storedEvents(page, originalId);
  const after = await storedEvents(page, forkId);
  const forked = JSON.parse(after.find((e) => JSON.parse(e).kind.type === 'forked')).kind.from;
  assert.equal(forked.session, originalId);
  forkSeq = forked.seq;
  assert.deepEqual(after.slice(0, forkSeq + 1), before.slice(0, forkSeq + 1), 'the same log up to the fork');
  assert.equal(JSON.parse(after[forkSeq + 1]).kind.type, 'forked');
  // After: the operative's answers come from the other voice.
  const answers = (log) => log.map((e) => JSON.parse(e)).filter((e) => e.kind.type === 'answer_received').map((e) => e.kind.raw);
  const beforeAnswers = answers(before.slice(forkSeq + 1));
  const afterAnswers = answers(after.slice(forkSeq + 1));
  assert.ok(afterAnswers.some((raw) => raw.includes('A second voice')), 'demo-2 wrote');
  assert.ok(!beforeAnswers.some((raw) => raw.includes('A second voice')), 'demo-1 did not');
  assert.notDeepEqual(afterAnswers, beforeAnswers, 'different after the fork');
  await shot(page, 'fork-done');

  // The home list shows the family: the fork names its original, with a link to that point.
  await open(page, srv.url, '#/');
  const row = page.locator(`tr[data-session-id="${forkId}"]`);
  await row.waitFor();
  const link = row.locator(`[data-forked-from="${originalId}"] a`);
  assert.equal(await link.getAttribute('href'), `#/s/${originalId}@${forkSeq}`);
  assert.equal(await page.locator(`tr[data-session-id="${originalId}"] [data-forks="1"]`).count(), 1);
  await shot(page, 'fork-home-family');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('the history slider steps back and forward with the keyboard, and an @seq link opens that point', async () => {
  const { page } = b;
  await open(page, srv.url, `#/s/${originalId}`);
  await waitStatus(page, 'done');
  const slider = page.locator('input#history-slider');
  await slider.waitFor();
  const total = Number(await slider.getAttribute('max'));
  assert.ok(total > 50, `a long log (${total} events)`);
  assert.equal(await page.getAttribute('.history-bar', 'data-history'), 'live');
  const products = () => page.locator('.tree-row').count();
  const liveProducts = await products();

  // Home: the first event — a draft with nothing made.
  await slider.focus();
  await page.keyboard.press('Home');
  await page.waitForSelector('[data-banner="history"]');
  await page.waitForFunction(() => location.hash.endsWith('@0'));
  await page.waitForFunction(() => document.querySelector('.session')?.getAttribute('data-status') === 'draft');
  // Arrow keys step one event at a time.
  for (let i = 1; i <= 5; i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((k) => location.hash.endsWith(`@${k}`), i);
  }
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => location.hash.endsWith('@4'));
  assert.equal(await slider.inputValue(), '5');
  // Nothing can be run or edited in the past.
  assert.equal(await page.isDisabled('button[name="run"]'), true);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'history-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, 'history-1440');

  // An @seq link, opened fresh, shows that point: the fork's point has fewer products than now.
  await page.goto(`${srv.url}#/s/${originalId}@${forkSeq}`);
  await page.reload();
  await page.waitForSelector('[data-banner="history"]');
  // The banner names the point by what happened there, in the slider's words, not by index.
  const banner = await page.locator('[data-banner="history"]').textContent();
  assert.ok(banner.includes(`as it was after “${(await page.locator('.history-label').innerText()).trim()}”`), banner);
  assert.doesNotMatch(banner, /point \d+ of \d+/);
  assert.equal(await page.locator('input#history-slider').inputValue(), String(forkSeq + 1));
  assert.ok((await products()) <= liveProducts);
  // The fork's own first events are this point: its tree here equals the fork's at the same point.
  const here = await page.locator('.tree-row').allTextContents();
  await open(page, srv.url, `#/s/${forkId}@${forkSeq}`);
  await page.waitForSelector('[data-banner="history"]');
  assert.deepEqual(await page.locator('.tree-row').allTextContents(), here, 'scrubbing the fork to its point equals the original there');
  // Forward to the end, then back to live.
  await open(page, srv.url, `#/s/${originalId}@${forkSeq}`);
  await page.waitForSelector('[data-banner="history"]');
  await page.locator('input#history-slider').focus();
  await page.keyboard.press('End');
  await page.waitForFunction((n) => location.hash.endsWith(`@${n - 1}`), total);
  // The route moves first; the tree follows when the fold to that point is drawn.
  await page.waitForFunction((n) => document.querySelectorAll('.tree-row').length === n, liveProducts);
  assert.equal(await products(), liveProducts);
  await page.click('[data-banner="history"] button[name="back-to-live"]');
  await page.waitForSelector('[data-banner="history"]', { state: 'detached' });
  assert.ok(!page.url().includes('@'));
  assert.equal(await page.getAttribute('.history-bar', 'data-history'), 'live');
  assert.equal(await page.isDisabled('button[name="run"]'), true, 'a done session has nothing to run');
  assert.deepEqual(b.errors, [], 'no page errors');
});
