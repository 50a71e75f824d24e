// Two tabs on one session: Take over works while the other tab has a call out (both ways), the
// tab that gave it up stops cleanly and becomes read-only, and statuses in every tab and in the
// home list follow the truth without a reload, also when the running tab is closed mid-run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, open, shot, createDemoSession, waitStatus, setDemoDelay } from './helpers.mjs';

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

async function answerHalt(page) {
  await page.waitForSelector('[data-dialog="halt"] button[data-option]');
  await page.click('[data-dialog="halt"] button[data-option]');
  await page.click('button[name="send-answer"]');
  await page.waitForSelector('[data-dialog="halt"]', { state: 'detached' });
}

/** Waits until a call is out in this (writer) tab: a member is working. */
const midCall = (page) => page.waitForSelector('[data-live-state="streaming"]', { timeout: 30000 });

async function takeOver(page) {
  await page.click('[data-banner="read-only"] button:has-text("Take over")');
  await page.waitForSelector('[data-banner="read-only"]', { state: 'detached', timeout: 15000 });
}

test('Take over mid-call works both ways; the other tab stops cleanly and follows read-only', async () => {
  const { page: a, context } = b;
  await setDemoDelay(context, srv.url, 1500);
  await createDemoSession(a, srv.url, 'Prepare a study plan for learning Portuguese in six months.');
  const url = a.url();
  await a.click('button[name="run"]');
  await waitStatus(a, 'awaiting_person', 30000);
  await answerHalt(a);
  const bTab = await context.newPage();
  await bTab.goto(url);
  await bTab.waitForSelector('[data-banner="read-only"]');
  assert.equal(await bTab.getAttribute('.session', 'data-status'), 'running', 'the read-only tab shows it running');
  // B takes over while A has a call out.
  await midCall(a);
  await takeOver(bTab);
  await waitStatus(bTab, 'paused', 15000);
  // A stopped cleanly: read-only, no call out, and it shows the same (paused) status.
  await a.waitForSelector('[data-banner="read-only"]', { timeout: 15000 });
  await waitStatus(a, 'paused', 15000);
  assert.equal(await a.locator('[data-live-state="streaming"]').count(), 0, 'A has nothing out');
  await shot(a, 'tabs-gave-up');
  // B runs it now, and A follows.
  await setDemoDelay(context, srv.url, 1500);
  await bTab.click('button[name="run"]');
  await midCall(bTab);
  await waitStatus(a, 'running', 15000);
  // And back: A takes over while B has a call out.
  await takeOver(a);
  await waitStatus(a, 'paused', 15000);
  await bTab.waitForSelector('[data-banner="read-only"]', { timeout: 15000 });
  await waitStatus(bTab, 'paused', 15000);
  // A runs on from where it stopped.
  await setDemoDelay(context, srv.url, 0);
  const applied = await a.locator('.call-line .badge.ok').count();
  await a.click('button[name="step"]');
  await a.waitForFunction((n) => document.querySelectorAll('.call-line .badge.ok').length > n, applied, { timeout: 30000 });
  await bTab.close();
  assert.deepEqual(b.errors, [], 'no page errors in either tab');
});

test('a tab closed mid-run: the read-only tab and the home list stop saying "running"', async () => {
  const { page: a, context } = b;
  await setDemoDelay(context, srv.url, 1500);
  await createDemoSession(a, srv.url, 'Write a short report on urban beekeeping for a city council.');
  const url = a.url();
  const id = url.split('#/s/')[1].split('/')[0];
  await a.click('button[name="run"]');
  await waitStatus(a, 'awaiting_person', 30000);
  await answerHalt(a);
  await midCall(a);
  const reader = await context.newPage();
  await reader.goto(url);
  await reader.waitForSelector('[data-banner="read-only"]');
  const home = await context.newPage();
  await open(home, srv.url, '#/');
  const badge = home.locator(`tr[data-session-id="${id}"] .badge`);
  await badge.waitFor();
  assert.equal((await badge.textContent()).trim(), 'running');
  await a.close();
  // The reader becomes the writer of a session nobody runs: paused, no longer "running".
  await waitStatus(reader, 'paused', 15000);
  await reader.waitForSelector('[data-banner="read-only"]', { state: 'detached' });
  await home.waitForFunction((sid) => document.querySelector(`tr[data-session-id="${sid}"] .badge`)?.textContent.trim() === 'paused', id, { timeout: 15000 });
  await shot(home, 'tabs-home-after-close');
  // With every session tab closed mid-run, the home list still tells the truth.
  await setDemoDelay(context, srv.url, 1500);
  await reader.click('button[name="run"]');
  await midCall(reader);
  await home.waitForFunction((sid) => document.querySelector(`tr[data-session-id="${sid}"] .badge`)?.textContent.trim() === 'running', id, { timeout: 15000 });
  await reader.close();
  await home.waitForFunction((sid) => document.querySelector(`tr[data-session-id="${sid}"] .badge`)?.textContent.trim() !== 'running', id, { timeout: 15000 });
  await setDemoDelay(context, srv.url, 0);
  b.page = home;
  assert.deepEqual(b.errors, [], 'no page errors');
});
