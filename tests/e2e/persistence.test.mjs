// Storage under stress: a reload in the middle of a run reopens the session paused at its last
// committed event and resumes on one click; a second tab gets a read-only view that follows the
// writer and becomes the writer when the writer leaves.
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

const applied = (page) => page.locator('.call-line .badge.ok').count();

async function answerHalt(page) {
  await page.waitForSelector('[data-dialog="halt"] button[data-option]');
  await page.click('[data-dialog="halt"] button[data-option]');
  await page.click('button[name="send-answer"]');
  await page.waitForSelector('[data-dialog="halt"]', { state: 'detached' });
}

test('a reload mid-run reopens paused at the last committed event and resumes on one click', async () => {
  const { page, context } = b;
  await setDemoDelay(context, srv.url, 400);
  await createDemoSession(page, srv.url, 'Write a short report on urban beekeeping for a city council.');
  await page.click('button[name="run"]');
  await waitStatus(page, 'awaiting_person', 30000);
  await answerHalt(page);
  await page.waitForFunction(() => document.querySelectorAll('.call-line .badge.ok').length >= 3, null, { timeout: 60000 });
  assert.equal(await page.getAttribute('.session', 'data-status'), 'running');
  const before = await applied(page);
  const url = page.url();
  await page.reload();
  await page.waitForSelector('.session');
  assert.equal(page.url(), url, 'the same session reopens');
  await waitStatus(page, 'paused', 10000);
  await page.waitForSelector('[data-banner="reopened"]');
  const after = await applied(page);
  // Everything the screen showed as applied was committed before it was shown.
  assert.ok(after >= before, `applied calls after reload (${after}) ≥ before (${before})`);
  await shot(page, 'page-session-reopened');
  await setDemoDelay(context, srv.url, 0);
  await page.click('[data-banner="reopened"] button[name="resume"]');
  await page.waitForSelector('[data-banner="reopened"]', { state: 'detached' });
  const final = await waitStatus(page, ['done'], 180000);
  assert.equal(final, 'done');
  assert.ok((await applied(page)) > after, 'the run went on from where it stopped');
});

test('a second tab on a running session is read-only, follows it, and can take over', async () => {
  const { page, context } = b;
  await setDemoDelay(context, srv.url, 500);
  await createDemoSession(page, srv.url, 'Prepare a study plan for learning Portuguese in six months.');
  const url = page.url();
  await page.click('button[name="run"]');
  await waitStatus(page, 'awaiting_person', 30000);
  await answerHalt(page);
  const second = await context.newPage();
  await second.goto(url);
  await second.waitForSelector('[data-banner="read-only"]');
  assert.ok(await second.isDisabled('button[name="run"]'), 'run controls are disabled in the read-only tab');
  assert.equal(await second.locator('[data-dialog="halt"]').count(), 0);
  const seen = await applied(second);
  await second.waitForFunction((n) => document.querySelectorAll('.call-line .badge.ok').length > n, seen, { timeout: 30000 });
  await shot(second, 'page-session-read-only');
  // The writer tab leaves: the read-only tab becomes the writer by itself, with the session paused.
  await page.goto(srv.url + '#/');
  await page.close();
  await second.waitForSelector('[data-banner="read-only"]', { state: 'detached' });
  const st = await second.getAttribute('.session', 'data-status');
  assert.ok(['paused', 'done'].includes(st), `after take-over the session is ${st}`);
  await setDemoDelay(context, srv.url, 0);
  b.page = second;
});
