// Session files: export, delete, import and compare; a corrupt or tampered file gets a plain
// message and changes nothing stored; drag and drop imports too.
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

async function exportCurrent(page, name) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('.session-head button[name="export"]'),
  ]);
  assert.match(download.suggestedFilename(), /\.roundtable\.json$/);
  const path = join(OUTPUT, name);
  await download.saveAs(path);
  return readFileSync(path, 'utf8');
}

async function sessionIds(page) {
  await open(page, srv.url, '#/');
  await page.waitForSelector('table.sessions, .empty');
  return page.$$eval('tr[data-session-id]', (rows) => rows.map((r) => r.dataset.sessionId).sort());
}

test('export, delete, import and compare', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('.session-head');
  await waitStatus(page, 'done');
  const first = await exportCurrent(page, 'export-1.roundtable.json');
  const a = JSON.parse(first);
  assert.equal(a.format, 'roundtable.session');
  assert.ok(!/sk-|x-api-key|Bearer /.test(first), 'no key-like text in the file');
  const [id] = await sessionIds(page);
  await page.click(`tr[data-session-id="${id}"] button:has-text("Delete")`);
  await page.click('dialog[data-dialog="ask"] button[name="ask-confirm"]');
  await page.waitForSelector('text=No sessions yet.');
  await page.setInputFiles('#import-file', join(OUTPUT, 'export-1.roundtable.json'));
  await page.waitForSelector('.session-head');
  await waitStatus(page, 'done');
  const second = JSON.parse(await exportCurrent(page, 'export-2.roundtable.json'));
  assert.deepEqual(second.events, a.events, 'the same events');
  assert.deepEqual(second.snapshot, a.snapshot, 'the same state');
  assert.equal(second.checksum, a.checksum);
  assert.deepEqual(second.members, a.members);
});

test('a corrupt or tampered file gets a plain message and changes nothing', async () => {
  const { page } = b;
  const ids = await sessionIds(page);
  assert.equal(ids.length, 1);
  const cases = [
    ['truncated.roundtable.json', readFileSync(join(OUTPUT, 'export-1.roundtable.json'), 'utf8').slice(0, 5000)],
    ['notes.txt.roundtable.json', 'just some notes, not JSON'],
    ['other.json', JSON.stringify({ hello: 'world' })],
    ['tampered.roundtable.json', readFileSync(join(OUTPUT, 'export-1.roundtable.json'), 'utf8')
      .replace('"request": "Plan a two-day', '"request": "Plan a ten-day')],
  ];
  for (const [name, text] of cases) {
    await page.setInputFiles('#import-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
    const notice = page.locator('.notice.error', { hasText: `“${name}” was not imported` });
    await notice.waitFor();
    const message = await notice.textContent();
    assert.ok(message.length < 400, `a short plain message: ${message}`);
    await notice.locator('button').click();
  }
  await shot(page, 'page-home-import-error');
  assert.deepEqual(await sessionIds(page), ids, 'stored sessions are unchanged');
});

test('dropping a session file on the home page imports it', async () => {
  const { page } = b;
  const text = readFileSync(join(OUTPUT, 'export-1.roundtable.json'), 'utf8');
  await open(page, srv.url, '#/');
  await page.waitForSelector('table.sessions');
  await page.evaluate((content) => {
    const dt = new DataTransfer();
    dt.items.add(new File([content], 'dropped.roundtable.json', { type: 'application/json' }));
    const target = document.querySelector('section.home');
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, text);
  // The same session is stored already: the page asks before adding a second copy.
  await page.waitForSelector('[data-banner="duplicate"]');
  await page.click('button[name="keep-both"]');
  await page.waitForSelector('.session-head');
  assert.equal((await sessionIds(page)).length, 2);
});
