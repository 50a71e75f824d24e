// A full disk mid-run: when IndexedDB refuses a write for lack of space, the person sees a plain
// message, the screen stays at the last committed event, the stored log stays a gap-free prefix,
// other sessions are untouched, and once space is back a reload reopens the session paused where
// it stopped and it runs on.
//
// The quota is real, not a mock: Chrome DevTools Protocol `Storage.overrideQuotaForOrigin` sets
// the origin's quota just above what the app has stored, so Chromium's own quota check aborts the
// app's next transaction with a `QuotaExceededError` — the same abort a full disk produces, going
// through the app's real storage code.
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

/** Everything the app has stored, read straight from IndexedDB: { [id]: { record, events } }. */
async function readStore(page) {
  return page.evaluate(async () => {
    const db = await new Promise((resolve, reject) => {
      const q = indexedDB.open('roundtable');
      q.onsuccess = () => resolve(q.result);
      q.onerror = () => reject(q.error);
    });
    const all = (name) => new Promise((resolve, reject) => {
      const r = db.transaction(name, 'readonly').objectStore(name).getAll();
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const out = {};
    for (const s of await all('sessions')) out[s.id] = { record: JSON.parse(s.json), events: [] };
    for (const e of await all('events')) {
      (out[e.sessionId] ??= { record: null, events: [] }).events.push({ seq: e.seq, json: e.json });
    }
    db.close();
    return out;
  });
}

const typeOf = (e) => {
  const v = JSON.parse(e.json);
  return v.kind?.type ?? v.type;
};
const count = (events, type) => events.filter((e) => typeOf(e) === type).length;

/** The stored log is 0, 1, 2, … without a gap, each event's own seq matches its key, and the
 *  session record says exactly how many there are. */
function assertConsistent(entry, label) {
  assert.ok(entry?.record, `${label}: the session record is stored`);
  const { record, events } = entry;
  events.forEach((e, i) => {
    assert.equal(e.seq, i, `${label}: event ${i} is stored under seq ${e.seq}`);
    assert.equal(JSON.parse(e.json).seq, i, `${label}: event ${i} carries its own seq`);
  });
  assert.equal(record.next_seq, events.length, `${label}: record.next_seq matches the stored log`);
}

/** What the session page shows: call lines, applied calls, and the round/tokens line. */
async function screen(page) {
  return {
    calls: await page.locator('.call-line').count(),
    applied: await page.locator('.call-line .badge.ok').count(),
    head: (await page.textContent('.session-head .muted.small'))?.trim(),
  };
}

/** Waits until the runner has no run going and no call out (Pause is disabled again). */
async function settled(page) {
  await page.waitForSelector('button[name="pause"][disabled]', { timeout: 90000 });
}

/** Longer than Chromium's 30 s IndexedDB space cache, so the next write meets the new quota. */
const SLOW_CALL_MS = 36000;

const QUOTA_WORDS = /storage is full|quota/i;

test('a quota error mid-run is shown, writes nothing half, and the session reopens at its last committed event', async () => {
  const { page, context } = b;
  const origin = new URL(srv.url).origin;
  const cdp = await context.newCDPSession(page);

  // Another session, stopped after one step: it must come through the quota error untouched.
  await setDemoDelay(context, srv.url, 0);
  const other = await createDemoSession(page, srv.url, 'Draft a one-page guide to composting at home.');
  await page.click('button[name="step"]');
  await waitStatus(page, ['paused', 'awaiting_person'], 60000);
  await settled(page);

  // The session that will hit the quota, caught in the middle of its run.
  await setDemoDelay(context, srv.url, 400);
  const id = await createDemoSession(page, srv.url, 'Plan a weekend cycling trip along the Loire for four friends.');
  await page.click('button[name="run"]');
  await waitStatus(page, 'awaiting_person', 30000);
  await page.waitForSelector('[data-dialog="halt"] button[data-option]');
  await page.click('[data-dialog="halt"] button[data-option]');
  await page.click('button[name="send-answer"]');
  await page.waitForSelector('[data-dialog="halt"]', { state: 'detached' });
  await page.waitForFunction(() => document.querySelectorAll('.call-line .badge.ok').length >= 3, null, { timeout: 60000 });
  assert.equal(await page.getAttribute('.session', 'data-status'), 'running', 'the run is under way');
  const otherBefore = (await readStore(page))[other];
  assertConsistent(otherBefore, 'other session before');

  // The disk fills up: the origin's quota is set just above what is stored now. Chromium lets
  // IndexedDB spend a cached space allowance for up to 30 s before it asks the quota manager
  // again (BucketContext::kBucketSpaceCacheTimeLimit), so the calls now going out are made to
  // take longer than that: their answers are the first writes after the allowance has run out.
  await setDemoDelay(context, srv.url, SLOW_CALL_MS);
  const { usage } = await page.evaluate(() => navigator.storage.estimate());
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 1 });
  assert.equal(await page.getAttribute('.session', 'data-status'), 'running', 'still mid-run when the disk fills');
  // Answers of the quick calls still out land within the old allowance; after that, only the slow
  // calls are out, and whatever the store holds now is the last that may be committed.
  await new Promise((r) => setTimeout(r, 3000));
  const atFull = (await readStore(page))[id];

  const banner = page.locator('[data-banner="error"]');
  await banner.waitFor({ timeout: SLOW_CALL_MS + 30000 });
  await settled(page);
  const message = (await banner.locator('.grow').textContent()).trim();
  assert.match(message, QUOTA_WORDS, `the person is told the storage is full: "${message}"`);
  await shot(page, 'quota-error');

  // Nothing half-written: the stored log is a gap-free prefix and it is exactly what is shown.
  const shown = await screen(page);
  const stored = await readStore(page);
  assertConsistent(stored[id], 'failed session');
  assert.deepEqual(stored[id], atFull, 'the refused step left nothing behind: not an event, not a record change');
  const log = stored[id].events;
  assert.equal(count(log, 'call_issued'), shown.calls, 'every call line shown is a stored call, and only those');
  assert.equal(count(log, 'applied'), shown.applied, 'every applied call shown is stored as applied, and only those');
  assert.notEqual(typeOf(log[log.length - 1]), 'paused', 'the failure was mid-run, not at a pause');
  assert.deepEqual(stored[other], otherBefore, 'the other session is untouched');

  // Trying again while the disk is still full fails the same way and changes nothing.
  await banner.locator('button:has-text("Dismiss")').click();
  await banner.waitFor({ state: 'detached' });
  await page.click('button[name="run"]');
  await banner.waitFor({ timeout: SLOW_CALL_MS + 30000 });
  await settled(page);
  assert.match((await banner.locator('.grow').textContent()).trim(), QUOTA_WORDS);
  assert.deepEqual(await screen(page), shown, 'the screen still shows the last committed event');
  const again = await readStore(page);
  assert.deepEqual(again[id], stored[id], 'the failed session gained nothing, not even part of a step');
  assert.deepEqual(again[other], otherBefore, 'the other session is still untouched');

  // Space comes back; a reload reopens the session paused at its last committed event.
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  await setDemoDelay(context, srv.url, 0);
  await page.reload();
  await page.waitForSelector('.session');
  assert.ok(page.url().includes(id), 'the same session reopens');
  await waitStatus(page, 'paused', 10000);
  await page.waitForSelector('[data-banner="reopened"]');
  assert.deepEqual(await screen(page), shown, 'after the reload the screen shows what it showed before');
  const reopened = await readStore(page);
  assertConsistent(reopened[id], 'reopened session');
  assert.deepEqual(reopened[id].events.slice(0, log.length), log, 'the committed prefix is kept as it was');
  assert.deepEqual(reopened[id].events.slice(log.length).map(typeOf), ['paused'], 'reopening only adds the pause');
  assert.deepEqual(reopened[other], otherBefore, 'the other session is intact after the reload');

  // And it runs on from there.
  await page.click('[data-banner="reopened"] button[name="resume"]');
  await page.waitForFunction((n) => document.querySelectorAll('.call-line .badge.ok').length > n, shown.applied, { timeout: 60000 });
  // Stop if it still runs (checked and clicked in one go: the run may end between two steps).
  await page.evaluate(() => document.querySelector('button[name="stop"]:not([disabled])')?.click());
  await settled(page);
  const final = await readStore(page);
  assertConsistent(final[id], 'resumed session');
  assert.equal(count(final[id].events, 'applied'), await page.locator('.call-line .badge.ok').count());
  assert.deepEqual(b.errors.filter((e) => e.startsWith('pageerror')), [], 'no uncaught page errors');
});
