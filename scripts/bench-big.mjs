// Big sessions in Chromium: for 1,000 / 3,000 / 10,000 products, the time to import the session
// file (pick → tree drawn), the time to open it again (navigation → tree drawn, median of 3),
// and the longest main-thread task during each (PerformanceObserver 'longtask'; the budget is
// 200 ms). Then hostile files: a 50 MB text file, a 10,000-deep JSON document and 50 MB of random
// bytes — the time until the page says why it refused each, and the longest task meanwhile.
// Prints tables for BENCHMARKS.md.
//
//   bash scripts/build-web.sh && node scripts/bench-big.mjs        (RT_SIZES=1000,3000 to pick)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, OUTPUT, ROOT } from '../tests/e2e/helpers.mjs';

/** Records the longest main-thread task (`window.__longest`) from the start of each document. */
async function watchLongTasks(page) {
  await page.addInitScript(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

const sizes = (process.env.RT_SIZES || '1000,3000,10000').split(',').map(Number);
const srv = await serveDist();
const rows = [];
const drawn = () => document.querySelectorAll('.tree-row').length > 10;
for (const n of sizes) {
  const file = join(OUTPUT, `big-${n}.roundtable.json`);
  if (!existsSync(file) || process.env.RT_REGEN_BIG) {
    execFileSync('cargo', ['run', '-q', '--release', '-p', 'roundtable-web', '--example', 'big_session', '--', file, String(n)], { cwd: ROOT, stdio: 'inherit' });
  }
  const b = await launch();
  const { page } = b;
  await watchLongTasks(page);
  await page.goto(srv.url + '#/');
  await page.waitForSelector('header.app-header');
  await page.evaluate(() => { window.__longest = 0; });
  const t0 = await page.evaluate(() => performance.now());
  await page.setInputFiles('#import-file', file);
  await page.waitForFunction(drawn, null, { timeout: 300000 });
  const importMs = (await page.evaluate(() => performance.now())) - t0;
  const importLongest = await page.evaluate(() => window.__longest);
  const url = page.url();
  const opens = [];
  let openLongest = 0;
  for (let i = 0; i < 3; i++) {
    await page.goto('about:blank');
    await page.goto(url);
    await page.waitForFunction(drawn, null, { timeout: 300000 });
    opens.push(await page.evaluate(() => performance.now()));
    openLongest = Math.max(openLongest, await page.evaluate(() => window.__longest));
  }
  opens.sort((a, b) => a - b);
  rows.push({
    products: n,
    importMs: Math.round(importMs),
    importLongestTaskMs: Math.round(importLongest),
    openMedianMs: Math.round(opens[1]),
    openRuns: opens.map(Math.round),
    openLongestTaskMs: Math.round(openLongest),
  });
  await b.close();
}
// Hostile files, each made in the page and picked like a file.
const hostile = [
  ['50 MB of JSON text (one huge field)', `new Blob(['{"format":"roundtable.session","schema_version":3,"title":"', 'x'.repeat(50 * 1024 * 1024), '"}'])`],
  ['10,000-deep JSON', `new Blob(['['.repeat(10000) + ']'.repeat(10000)])`],
  ['50 MB of random bytes', `(() => { const b = new Uint8Array(50 * 1024 * 1024); for (let i = 0; i < b.length; i += 65536) crypto.getRandomValues(b.subarray(i, i + 65536)); return new Blob([b]); })()`],
];
const refusals = [];
{
  const b = await launch();
  const { page } = b;
  await watchLongTasks(page);
  await page.goto(srv.url + '#/');
  await page.waitForSelector('header.app-header');
  for (const [what, make] of hostile) {
    // The file is made first (making it is not the app's time), then dropped.
    await page.evaluate(`window.__file = new File([${make}], 'hostile.roundtable.json')`);
    await page.evaluate(() => { window.__longest = 0; document.querySelectorAll('.notice.error button').forEach((x) => x.click()); });
    const t0 = await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(window.__file);
      const t = performance.now();
      document.documentElement.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      return t;
    });
    await page.waitForSelector('.notice.error', { timeout: 120000 });
    const ms = (await page.evaluate(() => performance.now())) - t0;
    const message = (await page.textContent('.notice.error')).replace(/✕$/, '').slice(0, 120);
    refusals.push({ what, ms: Math.round(ms), longest: Math.round(await page.evaluate(() => window.__longest)), message });
  }
  await b.close();
}
await srv.stop();
console.log('| file | refused after (ms) | longest task (ms) | message |');
console.log('| --- | --- | --- | --- |');
for (const r of refusals) console.log(`| ${r.what} | ${r.ms} | ${r.longest} | ${r.message} |`);
console.log('| products | import (ms) | longest task in import (ms) | open, median of 3 (ms) | longest task in opens (ms) |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(`| ${r.products} | ${r.importMs} | ${r.importLongestTaskMs} | ${r.openMedianMs} (${r.openRuns.join(', ')}) | ${r.openLongestTaskMs} |`);
}
console.log(JSON.stringify(rows));
