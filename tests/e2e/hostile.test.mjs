// Hostile Markdown executes nothing: script tags, javascript: links, onerror attributes and SVG in
// the request (rendered as Markdown) and in everything the demo team writes from it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launch, shot, createDemoSession, waitStatus } from './helpers.mjs';

const CORPUS = [
  'Plan a garden party <script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '<svg onload="window.__pwned = \'svg\'"><circle r="5"/></svg>',
  '[click me](javascript:window.__pwned=\'link\')',
  '[tab trick](java\tscript:window.__pwned=\'tab\')',
  '![pixel](javascript:window.__pwned=\'image\')',
  '<a href="javascript:window.__pwned=\'raw-a\'">raw link</a>',
  '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
  '<details open ontoggle="window.__pwned=\'details\'">x</details>',
  '[ref]\n\n[ref]: javascript:window.__pwned=\'ref\'',
  '<style>body{display:none}</style>',
];

let srv;
let b;
const dialogs = [];
before(async () => {
  srv = await serveDist();
  b = await launch();
  b.page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
});
after(async () => {
  await b?.close();
  await srv?.stop();
});

async function assertInert(page, where, { expectMarkdown = true } = {}) {
  const report = await page.evaluate(() => {
    const bad = [];
    for (const root of document.querySelectorAll('.markdown')) {
      for (const el of root.querySelectorAll('*')) {
        const tag = el.tagName.toLowerCase();
        if (['script', 'img', 'svg', 'iframe', 'object', 'embed', 'style', 'details', 'math', 'form'].includes(tag)) bad.push(`<${tag}>`);
        for (const a of el.attributes) {
          if (a.name.startsWith('on')) bad.push(`${tag}[${a.name}]`);
          if (a.name === 'style') bad.push(`${tag}[style]`);
        }
        if (tag === 'a') {
          const href = el.getAttribute('href') || '';
          if (!/^(https?:|mailto:)/i.test(href)) bad.push(`a[href=${href}]`);
          if (el.getAttribute('target') !== '_blank' || !/noopener/.test(el.getAttribute('rel') || '')) bad.push('a without target/rel');
        }
      }
    }
    return { bad, pwned: window.__pwned ?? null, markdownBlocks: document.querySelectorAll('.markdown').length };
  });
  assert.deepEqual(report.bad, [], `${where}: no live tag, handler or script URL`);
  assert.equal(report.pwned, null, `${where}: nothing ran`);
  if (expectMarkdown) assert.ok(report.markdownBlocks > 0, `${where}: Markdown was rendered`);
}

test('hostile Markdown in the request and in the team\'s products executes nothing', async () => {
  const { page } = b;
  await createDemoSession(page, srv.url, CORPUS.join('\n\n'));
  // The overview renders the request as Markdown: the raw HTML shows as text.
  await page.waitForSelector('.markdown');
  const text = await page.textContent('.panel .markdown');
  assert.ok(text.includes('<script>'), 'the script tag is shown as text');
  await assertInert(page, 'overview');
  // The hostile links kept their text and lost their target.
  assert.ok(text.includes('click me') && text.includes('tab trick'), 'link texts stay readable');
  await shot(page, 'page-hostile-overview');
  await page.click('button[name="run"]');
  await waitStatus(page, 'awaiting_person', 30000);
  await assertInert(page, 'halt dialog');
  await page.click('[data-dialog="halt"] button[data-option]');
  await page.click('button[name="send-answer"]');
  await waitStatus(page, 'done', 180000);
  await assertInert(page, 'presentation');
  const products = await page.$$eval('.tree-row[data-product-id]', (rows) => rows.map((r) => r.dataset.productId));
  for (const id of products.slice(1)) {
    await page.click(`.tree-row[data-product-id="${id}"]`);
    await page.waitForSelector('article.markdown, .panel-body .muted');
    await assertInert(page, `product ${id}`);
    await page.click('button[role="tab"]:has-text("Collabs")');
    await assertInert(page, `collabs of ${id}`, { expectMarkdown: false });
  }
  await shot(page, 'page-hostile-product');
  assert.deepEqual(dialogs, [], 'no alert, confirm or prompt opened');
  const csp = b.errors.filter((e) => /Content Security Policy/i.test(e));
  assert.deepEqual(csp, [], 'nothing even tried to run against the CSP');
});
