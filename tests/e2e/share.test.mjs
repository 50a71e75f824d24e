// Share links: "Copy link" on a session puts the whole session, deflated, in the URL fragment;
// a fresh browser profile opens it read-only and can import a copy; a damaged link is refused in
// words; no key or setting is ever in a link; a meeting shares the same way; a shared session
// can be forked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inflateRawSync } from 'node:zlib';
import { serveDist, launch, open, shot, waitStatus } from './helpers.mjs';

let srv;
let b;
before(async () => {
  srv = await serveDist();
  b = await launch();
  await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
});
after(async () => {
  await b?.close();
  await srv?.stop();
});

const KEY = 'sk-share-test-0123456789abcdef';

/** Clicks Copy link and returns the link from the clipboard. */
async function copyLink(page) {
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.click('.session-head button[name="copy-link"]');
  await page.locator('.notice', { hasText: 'Link copied' }).waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

/** The session file a link carries, decoded here in Node (base64url, raw deflate). */
function fileOf(link) {
  const fragment = new URL(link).hash.slice(1);
  assert.match(fragment, /^s=[A-Za-z0-9_-]+$/);
  return inflateRawSync(Buffer.from(fragment.slice(2), 'base64url')).toString('utf8');
}

test('a finished session shared as a link opens read-only in a fresh profile, and imports', async () => {
  const { page } = b;
  // A key in Settings must never travel with a link.
  await open(page, srv.url, '#/settings');
  await page.fill('input[name="key-openai"]', KEY);
  await page.press('input[name="key-openai"]', 'Enter');
  await open(page, srv.url, '#/');
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('.session-head');
  await waitStatus(page, 'done');
  const title = await page.textContent('.session-head h1');
  const products = await page.locator('.tree-row').count();
  const link = await copyLink(page);
  assert.ok(link.startsWith(srv.url), link.slice(0, 80));
  assert.ok(link.length < 65536 + srv.url.length + 1, `${link.length} characters`);
  const file = fileOf(link);
  assert.equal(JSON.parse(file).format, 'roundtable.session');
  assert.ok(!link.includes(KEY) && !file.includes(KEY), 'no key in the link');
  assert.ok(!/sk-|x-api-key|Bearer /.test(file), 'no key-like text in the link');

  const fresh = await launch();
  try {
    const p = fresh.page;
    await p.goto(link);
    await p.waitForSelector('[data-banner="shared"]', { timeout: 30000 });
    assert.equal(await p.getAttribute('.session', 'data-status'), 'done');
    assert.equal(await p.textContent('.session-head h1'), title);
    assert.equal(await p.locator('.tree-row').count(), products);
    assert.equal(await p.locator('button[name="run"]').isDisabled(), true, 'read-only: nothing runs');
    assert.equal(await p.locator('[data-banner="read-only"]').count(), 0, 'not "open in another tab"');
    // A product opens in the page; the address stays the link.
    const name = await p.locator('.tree-row >> nth=1').innerText();
    await p.click('.tree-row >> nth=1');
    await p.waitForSelector('.tree-row.selected');
    await p.waitForFunction((n) => document.querySelector('#panel-product h2')?.textContent.includes(n.split('\n')[0].trim()), name);
    assert.ok(new URL(p.url()).hash.startsWith('#s='), 'still the link');
    await shot(p, 'share-link-open');
    // Nothing is stored until the person imports a copy.
    await p.click('button[name="import-copy"]');
    await p.waitForFunction(() => /^#\/s\/[^/]+$/.test(location.hash));
    await p.waitForSelector('.session-head');
    assert.equal(await p.textContent('.session-head h1'), title);
    await open(p, srv.url, '#/');
    assert.equal(await p.locator('tr[data-session-id]').count(), 1);
    // Fork from the link: the fork dialog, then a new session that runs again from the start.
    await p.goto(link);
    await p.click('[data-banner="shared"] button[name="fork-shared"]');
    const dialog = p.locator('.fork-dialog[role="dialog"]');
    await dialog.waitFor();
    await dialog.locator('button[name="make-fork"]').click();
    await p.waitForFunction(() => /^#\/s\/[^/@]+$/.test(location.hash));
    await p.waitForSelector('.session-head');
    assert.equal(await p.textContent('.session-head h1'), title);
    assert.notEqual(await p.getAttribute('.session', 'data-status'), 'done', 'the fork runs again from its start');
    assert.equal(await p.locator('button[name="run"]').isDisabled(), false, 'and this tab runs it');
    await open(p, srv.url, '#/');
    assert.equal(await p.locator('tr[data-session-id]').count(), 2);
    assert.equal(await p.locator('[data-forked-from]').count(), 1, 'the fork says it is one');
    assert.deepEqual(fresh.errors.filter((e) => !/Failed to load resource/.test(e)), []);
  } finally {
    await fresh.close();
  }
});

test('a damaged or cut link is refused in words and nothing is stored', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.click('button[name="demo-meeting"]');
  await page.waitForSelector('.session-head');
  const link = await copyLink(page);
  const meeting = JSON.parse(fileOf(link));
  assert.equal(meeting.kind, 'meeting', 'a meeting shares the same way');
  const fresh = await launch();
  try {
    const p = fresh.page;
    await p.goto(link.slice(0, Math.floor(link.length * 0.6)));
    const err = p.locator('[data-link-error]');
    await err.waitFor();
    assert.match(await err.textContent(), /damaged or cut short/);
    await p.goto(srv.url + '#s=abc+def');
    await p.waitForFunction(() => /character 3/.test(document.querySelector('[data-link-error]')?.textContent || ''));
    // A link that decodes but whose events were edited on the way: the file's checksum refuses it.
    const edited = structuredClone(meeting);
    edited.events[0].at += 1;
    const { deflateRawSync } = await import('node:zlib');
    await p.goto(`${srv.url}#s=${deflateRawSync(Buffer.from(JSON.stringify(edited))).toString('base64url')}`);
    await p.waitForFunction(() => /checksum does not match/.test(document.querySelector('[data-link-error]')?.textContent || ''));
    await open(p, srv.url, '#/');
    await p.waitForSelector('.empty');
    assert.equal(await p.locator('tr[data-session-id]').count(), 0, 'nothing stored');
  } finally {
    await fresh.close();
  }
});
