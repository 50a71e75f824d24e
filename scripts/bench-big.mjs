// Big sessions in Chromium: for 1,000 / 3,000 / 10,000 products, the time to import the session
// file (pick → tree drawn), the time to open it again (navigation → tree drawn, median of 3),
// and the longest main-thread task during each (PerformanceObserver 'longtask'; the budget is
// 200 ms). Prints a table for BENCHMARKS.md.
//
//   bash scripts/build-web.sh && node scripts/bench-big.mjs        (RT_SIZES=1000,3000 to pick)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, OUTPUT, ROOT } from '../tests/e2e/helpers.mjs';

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
  // Long tasks are recorded from the start of each document.
  await page.addInitScript(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
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
await srv.stop();
console.log('| products | import (ms) | longest task in import (ms) | open, median of 3 (ms) | longest task in opens (ms) |');
console.log('| --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(`| ${r.products} | ${r.importMs} | ${r.importLongestTaskMs} | ${r.openMedianMs} (${r.openRuns.join(', ')}) | ${r.openLongestTaskMs} |`);
}
console.log(JSON.stringify(rows));
