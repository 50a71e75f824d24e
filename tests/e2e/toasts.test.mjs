// Notices cover nothing a person needs (issue 33: "toasts covering a panel's heading"): a notice is
// a strip under the app's header that moves the page down, never a box over it. On a session page
// of each kind, at 390 × 844 and 1440 × 900, after an action that shows one (Copy link), the
// notice's box intersects no visible heading, button or field of the page; it is announced
// (inside the aria-live region) and goes with its Dismiss button from the keyboard.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, open, shot } from './helpers.mjs';

let srv;
let b;
before(async () => {
  srv = await serveDist();
  b = await launch();
  await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(srv.url).origin });
});
after(async () => {
  await b?.close();
  await srv?.stop();
});

const SIZES = [{ width: 390, height: 844 }, { width: 1440, height: 900 }];
// Each kind's session page, opened from the home page's demo buttons.
const KINDS = [
  ['team', 'open-demo'],
  ['meeting', 'demo-meeting'],
  ['dialectic', 'demo-dialectic'],
  ['autocoding', 'demo-autocoding'],
  ['review', 'demo-review'],
];

/** Marks the headings, buttons and fields wholly in view below the sticky header (what a person
 *  sees of the page there and then). */
function markInView(page) {
  return page.evaluate(() => {
    const top = document.querySelector('.app-top').getBoundingClientRect().bottom;
    let n = 0;
    for (const el of document.querySelectorAll('h1, h2, h3, button, input, select, textarea, [role="button"]')) {
      const b = el.getBoundingClientRect();
      if (b.height > 0 && b.top >= top && b.bottom <= window.innerHeight) {
        el.setAttribute('data-in-view', '');
        n += 1;
      }
    }
    return n;
  });
}

/** The notice's box and every visible heading, button or field of the page it overlaps (with
 *  `marked`, only those [`markInView`] marked). */
function overlaps(page, marked = false) {
  return page.evaluate((marked) => {
    const notice = document.querySelector('.notices .notice');
    const r = notice.getBoundingClientRect();
    const seen = (el) => {
      if (!el.offsetParent && getComputedStyle(el).position !== 'fixed') return false;
      const s = getComputedStyle(el);
      if (s.visibility === 'hidden' || s.opacity === '0') return false;
      const b = el.getBoundingClientRect();
      return b.width > 0 && b.height > 0 && b.bottom > 0 && b.top < window.innerHeight && b.right > 0 && b.left < window.innerWidth;
    };
    const hit = [...document.querySelectorAll(marked ? '[data-in-view]' : 'h1, h2, h3, button, input, select, textarea, [role="button"]')]
      .filter((el) => !el.closest('.notices') && seen(el))
      .map((el) => ({ el, b: el.getBoundingClientRect() }))
      .filter(({ b }) => b.top < r.bottom && b.bottom > r.top && b.left < r.right && b.right > r.left)
      .map(({ el, b }) => `${el.tagName.toLowerCase()}${el.name ? `[name=${el.name}]` : ''} "${(el.textContent || '').trim().slice(0, 30)}" at ${Math.round(b.top)}..${Math.round(b.bottom)}`);
    return {
      box: { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) },
      hit,
      live: notice.closest('[aria-live]')?.getAttribute('aria-live'),
      fontPx: parseFloat(getComputedStyle(notice).fontSize),
    };
  }, marked);
}

for (const [kind, button] of KINDS) {
  test(`a notice on the page of ${kind === "autocoding" ? "an" : "a"} ${kind} session covers no heading, button or field`, async () => {
    const { page, errors } = b;
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await open(page, srv.url, '#/');
      await page.click(`button[name="${button}"]`);
      await page.waitForSelector('.session-head, [data-banner="duplicate"]');
      if (await page.locator('[data-banner="duplicate"]').count()) await page.click('button[name="open-existing"]');
      await page.waitForSelector('.session-head');
      await page.waitForSelector('main[data-focus]');
      const menu = page.locator('.session-head button[name="actions-menu"]');
      if (await menu.isVisible()) await menu.click();
      await page.click('.session-head button[name="copy-link"]');
      const notice = page.locator('.notices .notice', { hasText: 'Link copied' });
      await notice.waitFor();
      // Closes the menu the action was in, as a person would, before looking.
      if (await menu.isVisible() && (await menu.getAttribute('aria-expanded')) === 'true') await menu.click();
      const seen = await overlaps(page);
      await shot(page, `toast-${kind}-${size.width}`);
      assert.deepEqual(seen.hit, [], `at ${size.width} × ${size.height} the notice ${JSON.stringify(seen.box)} covers: ${seen.hit.join('; ')}`);
      assert.ok(seen.box.top >= 0 && seen.box.bottom <= size.height, `the notice is on screen (${JSON.stringify(seen.box)})`);
      assert.equal(seen.live, 'polite', 'the notice is inside the aria-live region');
      assert.ok(seen.fontPx >= 14, `readable (${seen.fontPx} px)`);
      // Dismissed from the keyboard: its own button, focused and pressed.
      await notice.locator('button[aria-label="Dismiss"]').focus();
      await page.keyboard.press('Enter');
      await notice.waitFor({ state: 'detached' });
    }
    assert.deepEqual(errors, []);
  });
}

test('a notice that comes while the page is scrolled moves the page down, over nothing', async () => {
  const { page, errors } = b;
  await page.setViewportSize(SIZES[0]);
  await open(page, srv.url, '#/');
  await page.click('button[name="demo-meeting"]');
  await page.waitForSelector('main[data-focus]');
  // The Budget panel is at the foot of the page: its Save button is clicked scrolled down.
  const save = page.locator('button[name="save-limits"]');
  await save.scrollIntoViewIfNeeded();
  await page.fill('section.panel[aria-label="Budget"] [data-limit="round-limit"] input', '40');
  const scrolled = await page.evaluate(() => window.scrollY);
  assert.ok(scrolled > 300, `the page is scrolled (${scrolled})`);
  // What was in view below the header before the notice came is pushed down, not covered
  // (what was already under the sticky header stays under it).
  assert.ok((await markInView(page)) > 3);
  await save.click();
  const notice = page.locator('.notices .notice', { hasText: 'Limits saved' });
  await notice.waitFor();
  const seen = await overlaps(page, true);
  await shot(page, 'toast-scrolled-390');
  assert.deepEqual(seen.hit, [], `the notice ${JSON.stringify(seen.box)} covers: ${seen.hit.join('; ')}`);
  assert.ok(seen.box.top >= 0 && seen.box.bottom <= SIZES[0].height, `the notice is in view at the top (${JSON.stringify(seen.box)})`);
  await notice.locator('button[aria-label="Dismiss"]').click();
  await notice.waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
});
