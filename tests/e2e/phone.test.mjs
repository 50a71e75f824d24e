// A phone shows the work, and a point of history agrees with itself (issue 23, points 2 and 5).
//
// At 390 × 844 the session's main content — a team's product tree, a meeting's transcript, a
// dialectic's thesis, where an autocoding loop or a review loop stands — starts on the first screen; the header's
// controls are the one action the state calls for and a menu of the rest, which opens from the
// keyboard and whose actions work; the meeting's phases are one line. At 1440 every control stays
// in the row.
//
// A point of a meeting's history: the status, the turn count, the Budget panel and the Remark
// panel all speak of that point (no "the meeting is over" at a point where it ran). A shared
// link's page marks no tab of the app's nav as its own and has the history slider.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, open, shot, waitStatus, setDemoDelay } from './helpers.mjs';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

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

/** Two frames, so a new viewport's layout is done. */
const settle = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** The top edge of `selector` in the page (scrolled to the top), in CSS pixels. */
async function topOf(page, selector) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
  return page.locator(selector).first().evaluate((el) => Math.round(el.getBoundingClientRect().top + window.scrollY));
}

/** The controls a person sees in the header now, by name. */
async function shownControls(page) {
  return page.locator('.session-head .controls > button').evaluateAll((bs) => bs
    .filter((b) => b.offsetParent !== null)
    .map((b) => b.getAttribute('name')));
}

/** Opens a kind's one-click demo on the home page, runs it to the end with Run to the end (on a
 *  phone, the header's one action), approving any approval it asks for in the inbox, and
 *  returns when it is done. */
async function runDemo(page, name) {
  await open(page, srv.url, '#/');
  await page.click(`button[name="${name}"]`);
  await page.waitForSelector('.session-head');
  await settle(page);
  if (page.viewportSize().width <= 700) {
    assert.deepEqual(await shownControls(page), ['run', 'actions-menu'], `${name}: a draft offers Run to the end and a menu`);
  }
  await page.click('.session-head button[name="run"]');
  while ((await waitStatus(page, ['done', 'awaiting_person'], 180000)) === 'awaiting_person') {
    await page.locator('[data-dialog="halt"] button[name="approve"]').click();
    await page.waitForFunction(() => document.querySelector('.session')?.dataset.status !== 'awaiting_person');
  }
}

test('at 390 × 844 each kind shows its work on the first screen; the header is one action and a menu', async () => {
  const { page } = b;
  await page.setViewportSize(PHONE);

  // The recorded team session, finished.
  await open(page, srv.url, '#/');
  await page.click('button[name="open-demo"]');
  await waitStatus(page, 'done');
  await settle(page);
  const tree = await topOf(page, '#panel-products');
  assert.ok(tree < PHONE.height, `the product tree starts on the first screen (top ${tree})`);
  // Done: nothing to run, so no primary action; the menu holds what a finished session allows.
  assert.deepEqual(await shownControls(page), ['actions-menu']);
  const toggle = page.locator('.session-head button[name="actions-menu"]');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await toggle.getAttribute('aria-controls'), 'session-actions');
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  // Focus goes into the menu; it lists only what the state allows (no greyed run controls).
  await page.waitForFunction(() => document.activeElement?.closest('#session-actions') && document.activeElement.getAttribute('name') !== 'actions-menu');
  const listed = await shownControls(page);
  assert.deepEqual(listed.filter((n) => ['step', 'round', 'run', 'pause', 'stop', 'wrap-up'].includes(n)), [], `no control the state refuses (${listed})`);
  for (const n of ['export', 'copy-link', 'report']) assert.ok(listed.includes(n), `${n} in the menu (${listed})`);
  await shot(page, 'phone-team-menu');
  // Tab to Export and press it: the file downloads, the menu closes, focus is back on its toggle.
  for (let i = 0; i < 6 && (await page.evaluate(() => document.activeElement?.getAttribute('name'))) !== 'export'; i++) {
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'export');
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  assert.match(download.suggestedFilename(), /\.roundtable\.json$/);
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'actions-menu');
  // Escape closes an open menu too.
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  await page.keyboard.press('Escape');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'actions-menu');
  // The history slider and its words are on the first screen.
  const slider = await topOf(page, '#history-slider');
  assert.ok(slider < PHONE.height, `the history slider is reachable (top ${slider})`);
  // The point in words: what happened there and in which round, never an event's index.
  assert.match(await page.locator('.history-label').innerText(), /, round \d+$/);

  // The demo meeting: the transcript on the first screen, the phases in one line.
  await runDemo(page, 'demo-meeting');
  await settle(page);
  const transcript = await topOf(page, '#panel-transcript');
  assert.ok(transcript < PHONE.height, `the transcript starts on the first screen (top ${transcript})`);
  const tops = await page.locator('.phases .phase').evaluateAll((ps) => ps.map((p) => Math.round(p.getBoundingClientRect().top)));
  assert.equal(tops.length, 7);
  assert.equal(new Set(tops).size, 1, `the seven phases are one line (tops ${tops})`);
  // A finished meeting names its last phase; the others are compact but keep their names for
  // screen readers and in their titles.
  const [first, last] = [page.locator('.phases .phase').first(), page.locator('.phases .phase').last()];
  assert.ok((await last.innerText()).includes('Conclusion'));
  assert.ok((await last.boundingBox()).width > 100, 'the last phase is named');
  assert.ok((await first.boundingBox()).width < 48, 'an earlier phase is its number');
  assert.ok((await first.innerText()).includes('Initialization'), 'its name stays in the text');
  assert.ok(await first.getAttribute('title'), 'and in its title');
  await shot(page, 'phone-meeting-done');

  // The demo dialectic: its thesis on the first screen.
  await runDemo(page, 'demo-dialectic');
  await settle(page);
  const thesis = await topOf(page, '#panel-thesis');
  assert.ok(thesis < PHONE.height, `the thesis starts on the first screen (top ${thesis})`);
  await shot(page, 'phone-dialectic-done');

  // The demo autocoding: where the loop stands (the scores against the threshold) on the first
  // screen.
  await runDemo(page, 'demo-autocoding');
  await settle(page);
  const loop = await topOf(page, '.autocoding-status');
  assert.ok(loop < PHONE.height, `the loop's status starts on the first screen (top ${loop})`);
  await shot(page, 'phone-autocoding-done');

  // The demo review loop (approved in the inbox on the way): where the run stands on the first
  // screen, and the board's cards one under another, as wide as the page.
  await runDemo(page, 'demo-review');
  await settle(page);
  const run = await topOf(page, '.review-status');
  assert.ok(run < PHONE.height, `the run's status starts on the first screen (top ${run})`);
  const cards = await page.locator('.role-card').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect()).map((r) => ({ x: Math.round(r.x), w: Math.round(r.width) })));
  assert.equal(cards.length, 7);
  assert.equal(new Set(cards.map((c) => c.x)).size, 1, `the cards stack (${JSON.stringify(cards)})`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing scrolls sideways');
  await shot(page, 'phone-review-done');

  // A wide screen keeps every control in the row and draws no menu toggle.
  await page.setViewportSize(DESKTOP);
  await settle(page);
  const wide = await shownControls(page);
  assert.ok(!wide.includes('actions-menu'), `no menu at 1440 (${wide})`);
  for (const n of ['step', 'round', 'run', 'pause', 'stop', 'wrap-up', 'export', 'copy-link', 'report']) {
    assert.ok(wide.includes(n), `${n} in the row at 1440 (${wide})`);
  }
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('a running session on a phone offers Pause as its action, and the menu runs what it lists', async () => {
  const { page, context } = b;
  await setDemoDelay(context, srv.url, 800);
  await page.setViewportSize(PHONE);
  await open(page, srv.url, '#/');
  await page.click('button[name="demo-meeting"]');
  await page.waitForSelector('.session-head');
  // One step from the menu, by keyboard.
  await page.locator('.session-head button[name="actions-menu"]').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'step');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.session[data-status="running"]');
  await settle(page);
  assert.deepEqual(await shownControls(page), ['pause', 'actions-menu'], 'running: Pause and the menu');
  await page.click('.session-head button[name="pause"]');
  await waitStatus(page, 'paused', 60000);
  await setDemoDelay(context, srv.url, 0);
  await page.setViewportSize(DESKTOP);
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('a point of a meeting\'s history agrees with itself, and a shared link has the slider and marks no tab', async () => {
  const { page } = b;
  await page.setViewportSize(DESKTOP);
  await runDemo(page, 'demo-meeting');
  // A point where the meeting ran: status, turn, budget and remark all of that point.
  await page.locator('input#history-slider').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-banner="history"]');
  // The keys move the point faster than the route follows: read the page once the route names
  // the slider's point (after event `value − 1`) and the page has drawn it.
  await page.waitForFunction(() => {
    const v = Number(document.querySelector('input#history-slider').value);
    return v === 41 && location.hash.endsWith(`@${v - 1}`);
  });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const status = await page.getAttribute('.session', 'data-status');
  assert.equal(status, 'running', 'the meeting was running at that point');
  assert.equal(await page.locator('.session-head .badge').first().innerText(), 'running');
  const remark = await page.locator('[data-remark-closed]').innerText();
  assert.doesNotMatch(remark, /over/, `the Remark panel speaks of that point (${remark})`);
  assert.match(remark, /point of its history/);
  const turn = (await page.locator('.session-head .session-state').innerText()).match(/turn (\d+) of (\d+)/);
  assert.ok(turn, 'the header names the turn');
  const used = await page.locator('[data-limit="round-limit"] .used').first().innerText();
  assert.equal(used, `${turn[1]} of ${turn[2]} turns used`, 'the Budget panel counts the same turn');
  // Nothing of the live end shows: no "Done." banner, no minutes.
  assert.equal(await page.locator('[data-banner="done"]').count(), 0);
  assert.ok((await page.locator('[data-section="minutes"]').innerText()).includes('writes the minutes when the meeting ends'));
  await shot(page, 'history-point-agrees');
  // Back to live: the meeting is over, and the Remark panel says so.
  await page.click('[data-banner="history"] button[name="back-to-live"]');
  await page.waitForSelector('[data-banner="done"]');
  assert.match(await page.locator('[data-remark-closed]').innerText(), /The meeting is over/);

  // Its share link: no tab of the nav is marked, and the slider is there and works.
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.click('.session-head button[name="copy-link"]');
  await page.locator('.notice', { hasText: 'Link copied' }).waitFor();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  await page.goto(link);
  await page.waitForSelector('[data-banner="shared"]', { timeout: 30000 });
  assert.equal(await page.locator('.app-header .nav-link.active').count(), 0, 'no tab is marked on a shared link');
  assert.equal(await page.locator('.app-header .nav-link[aria-current]').count(), 0);
  await page.locator('input#history-slider').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-banner="history"]');
  assert.equal(await page.getAttribute('.session', 'data-status'), 'running');
  assert.ok(new URL(page.url()).hash.startsWith('#s='), 'the address stays the link');
  assert.match(await page.locator('[data-remark-closed]').innerText(), /point of its history/);
  await page.click('[data-banner="history"] button[name="back-to-live"]');
  await page.waitForSelector('.session[data-status="done"]');
  assert.match(await page.locator('[data-remark-closed]').innerText(), /shared copy/);
  await shot(page, 'shared-link-history');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('on a phone a Limits card\'s inputs line up in each row, however its labels wrap', async () => {
  const { page } = b;
  await page.setViewportSize(PHONE);
  await open(page, srv.url, '#/new');
  for (const kind of ['team', 'meeting', 'dialectic', 'autocoding', 'review']) {
    await page.click(`button[data-kind="${kind}"]`);
    const limits = page.locator(`form[data-form="${kind}"] .limits`);
    if (!(await limits.count())) continue;
    await settle(page);
    const rows = await limits.first().evaluate((grid) => {
      const fields = [...grid.children].filter((f) => f.querySelector('input'));
      const labelTops = new Map();
      for (const f of fields) {
        const label = f.firstElementChild.getBoundingClientRect();
        const input = f.querySelector('input').getBoundingClientRect();
        const key = Math.round(f.getBoundingClientRect().top);
        labelTops.set(key, [...(labelTops.get(key) || []), [Math.round(label.height), Math.round(input.top)]]);
      }
      return [...labelTops.values()];
    });
    const wrapped = rows.some((r) => new Set(r.map(([h]) => h)).size > 1);
    for (const r of rows) {
      const tops = r.map(([, t]) => t);
      assert.ok(Math.max(...tops) - Math.min(...tops) <= 1, `${kind}: a row's inputs line up (${JSON.stringify(r)})`);
    }
    if (kind === 'meeting') assert.ok(wrapped, 'the meeting\'s first label wraps at 390 px, so the check means something');
  }
  await shot(page, 'phone-limits');
  await page.setViewportSize(DESKTOP);
});

/** Where each kind's own work begins on its session page (below the shell's header, history
 *  slider, cost line and banners). */
const WORK = { team: '.session-grid', meeting: '.meeting', dialectic: '.dialectic', autocoding: '.autocoding', review: '.review' };
/** Issue 33: the work starts within the top 320 px of a 390 × 844 phone. */
const FIRST_SCREEN_TOP = 320;

/** The top of the kind's work now, asserted within `FIRST_SCREEN_TOP`; returns it. */
async function workStartsHigh(page, kind, state, tops) {
  const top = await topOf(page, WORK[kind]);
  tops.push(`${kind} ${state}: ${top}`);
  await shot(page, `phone-first-screen-${kind}-${state}`);
  assert.ok(top <= FIRST_SCREEN_TOP, `${kind} ${state}: the work starts at ${top} px (≤ ${FIRST_SCREEN_TOP}); all so far: ${tops.join(', ')}`);
  return top;
}

/** Moves the history slider ten events in from the start and waits for the point to show. */
async function toHistoryPoint(page) {
  await page.locator('input#history-slider').focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await page.waitForSelector('[data-banner="history"]');
  await settle(page);
}

/** A banner's words and buttons: the words are never squeezed into a column beside the
 *  buttons (more than two lines with a button beside them); the buttons sit on a short line of
 *  words or under them. */
async function bannerShape(page, selector) {
  return page.locator(selector).evaluate((b) => {
    const box = b.getBoundingClientRect();
    const words = b.querySelector('.grow').getBoundingClientRect();
    const buttons = [...b.querySelectorAll('button')].filter((x) => x.offsetParent).map((x) => x.getBoundingClientRect());
    const line = parseFloat(getComputedStyle(b.querySelector('.grow')).fontSize) * 1.6;
    const wordsLines = Math.round(words.height / line);
    return {
      height: Math.round(box.height),
      wordsWidth: Math.round(words.width),
      width: Math.round(box.width),
      wordsLines,
      // Squeezed: the words wrap into more than two lines while a button sits beside them.
      besideNarrow: wordsLines > 2 && buttons.some((x) => x.top < words.bottom - 2 && x.left >= words.right - 2),
    };
  });
}

test('at 390 × 844 the work starts in the top 320 px for every kind: draft, running, finished, at a point of history and from a shared link', async () => {
  const { page, context } = b;
  await page.setViewportSize(PHONE);
  const tops = [];

  // The recorded team session (already imported by the first test: opened from there): finished,
  // at a point of history, and from its shared link.
  await open(page, srv.url, '#/');
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('.session-head, [data-banner="duplicate"]');
  if (await page.locator('[data-banner="duplicate"]').count()) await page.click('button[name="open-existing"]');
  await waitStatus(page, 'done');
  await settle(page);
  await workStartsHigh(page, 'team', 'done', tops);
  await toHistoryPoint(page);
  await workStartsHigh(page, 'team', 'history', tops);
  const historyBanner = await bannerShape(page, '[data-banner="history"]');
  assert.ok(!historyBanner.besideNarrow && historyBanner.height <= 60, `the history banner is one short line (${JSON.stringify(historyBanner)})`);
  await page.click('[data-banner="history"] button[name="back-to-live"]');
  await page.waitForSelector('[data-history="live"]');
  await page.click('.session-head button[name="actions-menu"]');
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.click('.session-head button[name="copy-link"]');
  await page.locator('.notice', { hasText: 'Link copied' }).waitFor();
  // The toast is a strip under the app's header, over no heading of the work's first screen
  // (tests/e2e/toasts.test.mjs checks every kind's page at both sizes).
  const toast = await page.locator('.notice', { hasText: 'Link copied' }).evaluate((n) => {
    const r = n.getBoundingClientRect();
    const heads = [...document.querySelectorAll('.session h1, .session h2, .session h3')].filter((h) => h.offsetParent).map((h) => h.getBoundingClientRect())
      .filter((h) => h.bottom > 0 && h.top < window.innerHeight);
    const header = document.querySelector('.app-header').getBoundingClientRect();
    return { top: Math.round(r.top), bottom: Math.round(r.bottom), headerBottom: Math.round(header.bottom), covers: heads.filter((h) => h.top < r.bottom && h.bottom > r.top && h.left < r.right && h.right > r.left).length };
  });
  assert.ok(toast.top >= toast.headerBottom - 1 && toast.bottom <= PHONE.height && toast.covers === 0, `the toast sits under the header and covers no heading (${JSON.stringify(toast)})`);
  const link = await page.evaluate(() => navigator.clipboard.readText());
  await page.goto(link);
  await page.waitForSelector('[data-banner="shared"]');
  await settle(page);
  await workStartsHigh(page, 'team', 'shared-link', tops);
  const shared = await bannerShape(page, '[data-banner="shared"]');
  assert.ok(!shared.besideNarrow, `the shared link's words are not a column beside its buttons (${JSON.stringify(shared)})`);
  assert.ok(shared.height <= 110, `the shared link's banner is short (${JSON.stringify(shared)})`);
  assert.ok(shared.wordsLines <= 2, `its words take at most two lines (${JSON.stringify(shared)})`);

  // Every other kind's demo: its draft, running (the demo model slowed), finished, and at a point
  // of its history.
  for (const [name, kind] of [['demo-meeting', 'meeting'], ['demo-dialectic', 'dialectic'], ['demo-autocoding', 'autocoding'], ['demo-review', 'review']]) {
    await open(page, srv.url, '#/');
    await page.click(`button[name="${name}"]`);
    await page.waitForSelector('.session-head');
    await settle(page);
    await workStartsHigh(page, kind, 'draft', tops);
    await setDemoDelay(context, srv.url, 600);
    await page.click('.session-head button[name="run"]');
    await page.waitForFunction(() => document.querySelector('.session')?.dataset.status === 'running');
    await settle(page);
    await workStartsHigh(page, kind, 'running', tops);
    await setDemoDelay(context, srv.url, 0);
    while ((await waitStatus(page, ['done', 'awaiting_person'], 180000)) === 'awaiting_person') {
      await settle(page);
      await workStartsHigh(page, kind, 'asking', tops);
      await page.locator('[data-dialog="halt"] button[name="approve"]').click();
      await page.waitForFunction(() => document.querySelector('.session')?.dataset.status !== 'awaiting_person');
    }
    await settle(page);
    await workStartsHigh(page, kind, 'done', tops);
    await toHistoryPoint(page);
    await workStartsHigh(page, kind, 'history', tops);
  }
  console.log(`work tops at 390 × 844: ${tops.join(', ')}`);

  // At 1440 nothing is worse: the shared banner's words on one line beside its buttons, the
  // work high on the page.
  await page.setViewportSize(DESKTOP);
  await page.goto(link);
  await page.waitForSelector('[data-banner="shared"]');
  await settle(page);
  const wide = await bannerShape(page, '[data-banner="shared"]');
  assert.ok(wide.height <= 70 && !wide.besideNarrow, `the shared banner at 1440 (${JSON.stringify(wide)})`);
  const wideTop = await topOf(page, WORK.team);
  assert.ok(wideTop < DESKTOP.height / 2, `the work at 1440 starts at ${wideTop}`);
  assert.deepEqual(b.errors, [], 'no page errors');
});
