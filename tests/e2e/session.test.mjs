// A demo session from the New page to done: the chair's question answered in the halt dialog,
// the live states and transcript on the way, and a screenshot of every page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, open, shot, createDemoSession, waitStatus } from './helpers.mjs';

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

test('home, new session and settings pages render (screenshots)', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.waitForSelector('text=No sessions yet.');
  await shot(page, 'page-home-empty');
  await open(page, srv.url, '#/new');
  await page.waitForSelector('.member-row');
  assert.equal(await page.locator('.member-row').count(), 4, 'the general project preset has four members');
  await shot(page, 'page-new-session');
  await open(page, srv.url, '#/settings');
  await page.waitForSelector('fieldset.provider[data-provider="openai"]');
  await shot(page, 'page-settings');
  await open(page, srv.url, '#/nowhere');
  await page.waitForSelector('text=Page not found');
});

test('the new-session form explains bad input and creates nothing', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.fill('input[name="max-rounds"]', '0');
  await page.click('button[name="create"]');
  await page.waitForSelector('#request-error:has-text("cannot be empty")');
  await page.waitForSelector('text=Rounds must be between 1 and 50');
  assert.match(page.url(), /#\/new$/, 'still on the form');
  // A second chair is refused with core's reason.
  await page.fill('textarea[name="request"]', 'Anything');
  await page.fill('input[name="max-rounds"]', '3');
  await page.selectOption('.member-row:nth-child(2) select[name="member-team-role"]', 'chair');
  await page.click('button[name="create"]');
  await page.waitForSelector('text=exactly one chair');
  await open(page, srv.url, '#/');
  await page.waitForSelector('text=No sessions yet.');
});

test('a demo session runs to done, with the chair\'s question answered', async () => {
  const { page } = b;
  const id = await createDemoSession(page, srv.url, 'Plan a two-day workshop on accessible web design for a small agency.');
  assert.ok(id.length > 10);
  assert.equal(await page.getAttribute('.session', 'data-status'), 'draft');
  await shot(page, 'page-session-draft');
  await page.click('button[name="run"]');
  // The demo chair asks one question at Bootstrap: the halt dialog shows it with its options.
  await waitStatus(page, 'awaiting_person', 60000);
  await page.waitForSelector('[data-dialog="halt"]');
  await page.waitForSelector('[data-live-state="halted"]');
  await shot(page, 'page-session-halt');
  // An empty answer is refused with a message.
  await page.click('button[name="send-answer"]');
  await page.waitForSelector('[data-dialog="halt"] .field-error:has-text("Type an answer")');
  const option = await page.textContent('[data-dialog="halt"] button[data-option]');
  await page.click('[data-dialog="halt"] button[data-option]');
  assert.equal(await page.inputValue('textarea[name="halt-answer"]'), option.trim());
  await page.click('button[name="send-answer"]');
  await page.waitForSelector('[data-dialog="halt"]', { state: 'detached' });
  const final = await waitStatus(page, ['done'], 180000);
  assert.equal(final, 'done');
  await page.waitForSelector('[data-banner="done"]');
  await page.waitForSelector('section.presentation');
  // The answer reached the team: the charter mentions it.
  const charter = await page.textContent('dl.charter');
  assert.ok(charter.includes(option.trim()), `charter mentions the answer ${option}`);
  // The team shares the demo model: the overview says so once, by its name, with no Model column.
  assert.equal((await page.textContent('.every-model')).trim(), 'Every member runs on demo model.');
  assert.equal(await page.locator('tr[data-member] .model-ref').count(), 0);
  // Products exist and one opens with its current version rendered.
  const rows = await page.locator('.tree-row').count();
  assert.ok(rows >= 3, `the tree has products (${rows})`);
  await shot(page, 'page-session-done');
  await page.click('.tree-row[data-product-id="p1"]');
  await page.waitForSelector('article.markdown h2, article.markdown h1, article.markdown p');
  assert.match(page.url(), /#\/s\/.+\/p\/p1$/);
  await shot(page, 'page-session-product');
  // History tab shows a diff between two versions when there are two.
  await page.click('button[role="tab"]:has-text("History")');
  await page.waitForSelector('.diff');
  await shot(page, 'page-session-history');
  // The home page lists it as done with its round and tokens.
  await open(page, srv.url, '#/');
  const row = page.locator(`tr[data-session-id="${id}"]`);
  await row.waitFor();
  assert.equal((await row.locator('.badge').textContent()).trim(), 'done');
  await shot(page, 'page-home-list');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('the transcript of a repaired call shows the violations and the repair', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.click('button[name="open-demo"]');
  await page.waitForSelector('.session-head');
  await waitStatus(page, 'done');
  // The shipped demo session contains calls the demo model answered wrongly on purpose.
  const repair = page.locator('.call-line button.link', { hasText: '(repair)' }).first();
  await repair.waitFor();
  await repair.click();
  await page.waitForSelector('.dialog[role="dialog"]');
  // The attempts bar lists the invalid first try and the repair.
  const attempts = page.locator('nav[aria-label="Attempts at this step"] button');
  assert.ok((await attempts.count()) >= 2, 'at least two attempts');
  await attempts.filter({ hasText: 'invalid' }).first().click();
  await page.waitForSelector('.badge.invalid');
  assert.ok((await page.locator('.violation:not(.warning)').count()) >= 1, 'violations listed');
  await page.waitForSelector('section[data-section="raw"] pre');
  await page.waitForSelector('section[data-section="messages"] .msg');
  await shot(page, 'page-transcript-invalid');
  await attempts.filter({ hasText: 'repair' }).first().click();
  await page.waitForSelector('section[data-section="result"] .badge.ok');
  // The repair call's last message is the repair prompt the model got.
  const last = await page.locator('section[data-section="messages"] .msg pre').last().textContent();
  assert.ok(last.length > 20, 'a repair prompt was sent');
  await shot(page, 'page-transcript-repaired');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.dialog[role="dialog"]', { state: 'detached' });
});

// Every construct the Markdown renderer knows, as a model (or a person) writes it.
const RICH_REQUEST = `# Plan a garden party

We host **40 guests** on *Saturday*; ~~Sunday~~ is taken. Rules: [council](https://council.example/rules).

## Schedule

| Time | What | Cost (€) |
|:-----|:----:|---------:|
| 14:00 | Set up the tent | 120 |
| 18:30 | Barbecue \\| salads | 240 |

## Tasks

1. Book the tent
   - call two suppliers
   - compare deposits
2. Buy food
   - [x] charcoal
   - [ ] drinks

> Quiet after 10 pm.
> > The neighbours know.

\`\`\`rust
let guests = 40; // <not a tag>
\`\`\`

---

Questions: <planner@party.example>. ![tent photo](https://x.example/tent.png)`;

test('a request in Markdown renders headings, lists, tables and code (screenshot)', async () => {
  const { page } = b;
  await createDemoSession(page, srv.url, RICH_REQUEST);
  await page.waitForSelector('.markdown table');
  const seen = await page.evaluate(() => {
    const md = document.querySelector('.markdown');
    const count = (sel) => md.querySelectorAll(sel).length;
    return {
      h1: count('h1'), h2: count('h2'), strong: count('strong'), em: count('em'), del: count('del'),
      th: count('thead th'), td: count('tbody td'), right: count('td.align-right'),
      cell: md.querySelector('tbody tr:nth-child(2) td:nth-child(2)')?.textContent,
      ol: count('ol > li'), nested: count('ol li ul li'), boxes: count('input[type=checkbox][disabled]'),
      checked: count('input[type=checkbox]:checked'), quotes: count('blockquote blockquote'),
      code: md.querySelector('pre code.language-rust')?.textContent, hr: count('hr'),
      links: [...md.querySelectorAll('a')].map((a) => a.getAttribute('href')), img: count('img'),
      rightAligned: getComputedStyle(md.querySelector('td.align-right')).textAlign,
    };
  });
  assert.deepEqual(seen, {
    h1: 1, h2: 2, strong: 1, em: 1, del: 1, th: 3, td: 6, right: 2, cell: 'Barbecue | salads',
    ol: 2, nested: 4, boxes: 2, checked: 1, quotes: 1, code: 'let guests = 40; // <not a tag>\n', hr: 1,
    links: ['https://council.example/rules', 'mailto:planner@party.example', 'https://x.example/tent.png'],
    img: 0, rightAligned: 'right',
  });
  await shot(page, 'page-markdown-request');
});
