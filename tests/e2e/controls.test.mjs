// The run controls as the person uses them: One step stops after its step even when the step
// raised a question the person answered (issue 13's first finding).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, shot, createDemoSession, waitStatus } from './helpers.mjs';

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

test('One step stops after its step, also when the step raised a question the person answered', async () => {
  const { page } = b;
  await createDemoSession(page, srv.url, 'Plan a two-day workshop on accessible web design for a small agency.');
  await page.click('button[name="step"]');
  // The demo chair asks its question at Bootstrap.
  await waitStatus(page, 'awaiting_person', 60000);
  await page.waitForSelector('[data-dialog="halt"] button[data-option]');
  await page.click('[data-dialog="halt"] button[data-option]');
  await page.click('button[name="send-answer"]');
  await page.waitForSelector('[data-dialog="halt"]', { state: 'detached' });
  await waitStatus(page, 'paused', 60000);
  const banner = await page.textContent('[data-banner="paused"]');
  assert.match(banner, /One step done, as you asked/);
  // Nothing of round 1 was asked: the only steps in the timeline are the opening one.
  const head = await page.textContent('.session-head');
  assert.match(head, /round 0 of/);
  // It stays there: the runner is idle (the run buttons are on again) with nothing out.
  await page.waitForSelector('button[name="step"]:not([disabled])');
  assert.equal(await page.locator('[data-live-state="streaming"]').count(), 0, 'no call is out');
  assert.equal(await page.getAttribute('.session', 'data-status'), 'paused');
  await shot(page, 'controls-one-step-after-question');
  // One round from here runs round 1 and stops before round 2.
  await page.click('button[name="round"]');
  await page.waitForFunction(() => /Round 1 done, as you asked/.test(document.querySelector('[data-banner="paused"]')?.textContent || ''), null, { timeout: 120000 });
  assert.match(await page.textContent('.session-head'), /round 1 of/);
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('a token budget pauses before the call that would not fit; the run controls are off and say why, with one banner; raising it lets the run go on', async () => {
  const { page } = b;
  await createDemoSession(page, srv.url, 'Write a one-page guide to composting at home.');
  await page.fill('input[name="token-budget"]', '1');
  await page.click('button[name="save-limits"]');
  await page.waitForSelector('[data-limit="token-budget"] .used:has-text("0 of 1 tokens used")');
  await page.click('button[name="run"]');
  // One token cannot hold the chair's prompt and a useful answer: the engine pauses before its
  // call, so nothing is spent.
  await waitStatus(page, 'paused', 60000);
  const banner = await page.textContent('[data-banner="paused"]');
  assert.match(banner, /the call for .+'s set-up does not fit in the token budget: only 1 of 1 tokens is left \(0 used\), too few for its prompt and an answer of at least 1,024: raise it under Budget on this page/);
  assert.match(await page.textContent('.session-head'), / 0 tokens/);
  assert.equal(await page.locator('.call-line').count(), 0, 'no call was made');
  // The run controls are off while the budget holds them, and say why: their title, and the
  // pause banner they point to.
  await page.waitForSelector('button[name="run"][disabled]');
  for (const name of ['step', 'round', 'run']) {
    const button = page.locator(`button[name="${name}"]`);
    assert.equal(await button.isDisabled(), true, `${name} is off`);
    assert.match(await button.getAttribute('title'), /^The call for .+'s set-up still does not fit in the token budget/);
    assert.equal(await button.getAttribute('aria-describedby'), 'pause-reason');
  }
  assert.match(await page.textContent('#pause-reason'), /does not fit in the token budget/);
  // Pressing a run control anyway does nothing: one message, no second banner.
  await page.click('button[name="run"]', { force: true });
  assert.equal(await page.locator('[data-banner="error"]').count(), 0, 'no error banner');
  assert.equal(await page.locator('[data-banner]').count(), 1, 'only the pause banner');
  await shot(page, 'controls-budget-paused');
  // Raised (emptied: no budget), saved, and the run goes on.
  await page.fill('input[name="token-budget"]', '');
  await page.click('button[name="save-limits"]');
  await page.waitForSelector('[data-limit="token-budget"] .used:has-text("no limit")');
  await page.waitForSelector('button[name="step"]:not([disabled])');
  assert.equal(await page.getAttribute('button[name="step"]', 'aria-describedby'), null);
  await page.click('button[name="step"]');
  await waitStatus(page, 'awaiting_person', 60000);
  await page.click('[data-dialog="halt"] button[data-option]');
  await page.click('button[name="send-answer"]');
  await waitStatus(page, 'paused', 60000);
  assert.match(await page.textContent('[data-banner="paused"]'), /One step done/);
  // A bad figure is refused next to its field, and nothing is saved.
  await page.fill('input[name="token-budget"]', 'lots');
  await page.click('button[name="save-limits"]');
  await page.waitForSelector('[data-limit="token-budget"] .field-error:has-text("whole number of tokens")');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('a done session offers no edits: no charter, remark, version or limit editing', async () => {
  const { page } = b;
  await page.goto(srv.url + '#/');
  await page.waitForSelector('header.app-header');
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('.session-head');
  await waitStatus(page, 'done', 30000);
  for (const sel of ['button[name="edit-charter"]', 'button[name="send-remark"]', 'textarea[name="remark"]',
    'input[name="token-budget"]', 'button[name="save-limits"]']) {
    assert.equal(await page.locator(sel).count(), 0, `${sel} is not offered`);
  }
  await page.click('.tree-row[data-product-id="p1"]');
  await page.waitForSelector('article.markdown');
  assert.equal(await page.locator('button:has-text("Accept this version"), button[name="reject-version"]').count(), 0);
  // The limits are still shown, as figures.
  assert.match(await page.textContent('[data-limit="token-budget"]'), /tokens used/);
  await shot(page, 'controls-done-no-edits');
});

test('deleting asks in the page: focus stays in the dialog, Escape cancels, Delete deletes', async () => {
  const { page } = b;
  await page.goto(srv.url + '#/');
  const rows = page.locator('tr[data-session-id]');
  await rows.first().waitFor();
  const before = await rows.count();
  await rows.first().locator('button:has-text("Delete")').click();
  const dialog = page.locator('dialog[data-dialog="ask"][open]');
  await dialog.waitFor();
  await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'ask-cancel');
  const inside = () => page.evaluate(() => !!document.activeElement?.closest('dialog[data-dialog="ask"]'));
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    assert.ok(await inside(), `focus is still in the dialog after ${i + 1} Tab(s)`);
  }
  await page.keyboard.press('Shift+Tab');
  assert.ok(await inside(), 'and after Shift+Tab');
  await shot(page, 'controls-delete-dialog');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' }).catch(() => {});
  await page.waitForSelector('dialog[data-dialog="ask"][open]', { state: 'detached' });
  assert.equal(await rows.count(), before, 'Escape deleted nothing');
  await rows.first().locator('button:has-text("Delete")').click();
  await dialog.waitFor();
  await page.click('button[name="ask-confirm"]');
  await page.waitForFunction((n) => document.querySelectorAll('tr[data-session-id]').length === n - 1, before);
  assert.deepEqual(b.errors, [], 'no page errors');
});
