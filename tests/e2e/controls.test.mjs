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
  assert.equal(await page.locator('[data-live-state="working"]').count(), 0, 'no call is out');
  assert.equal(await page.getAttribute('.session', 'data-status'), 'paused');
  await shot(page, 'controls-one-step-after-question');
  // One round from here runs round 1 and stops before round 2.
  await page.click('button[name="round"]');
  await page.waitForFunction(() => /Round 1 done, as you asked/.test(document.querySelector('[data-banner="paused"]')?.textContent || ''), null, { timeout: 120000 });
  assert.match(await page.textContent('.session-head'), /round 1 of/);
  assert.deepEqual(b.errors, [], 'no page errors');
});
