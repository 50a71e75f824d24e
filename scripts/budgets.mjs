// The browser app's budgets, measured on the built dist/ (build it first: scripts/build-web.sh):
//  1. gzip transfer of the app (wasm + js + css) ≤ 600 KB (the Brotli size, what serve.mjs sends, beside it);
//  2. first render in headless Chromium on loopback ≤ 1 s (navigation start → header mounted);
//  3. a 1,000-product session opens in ≤ 1 s (navigation start → tree rows drawn) and its tree
//     scrolls smoothly: virtualized (few rows in the DOM) with short frames while scrolling.
// Prints the figures and writes them to BENCH_OUT (default /work/notes/bench-web.md if that folder
// exists, else tests/output/bench-web.md). Exit code 1 when a budget is broken.
import { readdirSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { serveDist, launch, DIST, ROOT, OUTPUT } from '../tests/e2e/helpers.mjs';
import { compress } from './precompress.mjs';

const KB = 1024;
const budgets = { transferKB: 600, firstRenderMs: 1000, bigOpenMs: 1000 };
const results = {};
let failed = false;

// 1. Transfer size.
const files = readdirSync(DIST).filter((f) => /\.(wasm|js|css)$/.test(f));
let raw = 0;
let gz = 0;
let br = 0;
const perFile = [];
for (const f of files) {
  const bytes = readFileSync(join(DIST, f));
  const g = gzipSync(bytes, { level: 9 }).length;
  // What scripts/serve.mjs sends a browser: the build's Brotli copy (scripts/precompress.mjs).
  const brPath = join(DIST, `${f}.br`);
  const b = existsSync(brPath) ? readFileSync(brPath).length : compress(bytes).br.length;
  raw += bytes.length;
  gz += g;
  br += b;
  perFile.push(`${f}: ${(bytes.length / KB).toFixed(1)} KB raw, ${(g / KB).toFixed(1)} KB gzip, ${(b / KB).toFixed(1)} KB Brotli`);
}
results.transfer = { rawKB: +(raw / KB).toFixed(1), gzipKB: +(gz / KB).toFixed(1), brKB: +(br / KB).toFixed(1), files: perFile };
if (gz / KB > budgets.transferKB) failed = true;

// What each kind of session adds: code bytes by Rust module in the wasm cargo built (it keeps the
// function names that trunk's wasm-bindgen and wasm-opt strip), as a share of the download.
const { byModule } = await import('./wasm-by-module.mjs');
const namedWasm = join(ROOT, 'target/wasm32-unknown-unknown/release-web/roundtable-web.wasm');
const wasmGz = perFile.length ? gzipSync(readFileSync(join(DIST, files.find((f) => f.endsWith('.wasm')))), { level: 9 }).length : 0;
// One row per kind of session: every folder under kinds/ is a kind's crate, and its code is
// its crate plus its pages' folder (web/src/pages/<kind>/), so a new kind is counted with no
// edit here. A kind whose code also lives elsewhere lists those module paths in EXTRA_PREFIXES.
// e.g. `team: ['roundtable_web::some_module']`.
const EXTRA_PREFIXES = {};
const kindNames = readdirSync(join(ROOT, 'kinds'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const kinds = [
  ...kindNames.map((k) => [
    k,
    [`roundtable_${k}::`, `roundtable_web::pages::${k}`, ...(EXTRA_PREFIXES[k] ?? [])],
  ]),
  // The engine, compiled once for every kind (its code that a kind's type fills in is counted in
  // that kind's row).
  ['engine (compiled once)', ['roundtable_engine::engine']],
  // The runner's side of the code sandbox, shared by the kinds that run code (autocoding, the
  // review loop).
  ['code sandbox (kinds that run code)', ['roundtable_web::sandbox']],
];
results.kinds = [];
if (existsSync(namedWasm)) {
  const prefixes = kinds.flatMap(([, p]) => p);
  const by = byModule(readFileSync(namedWasm), prefixes);
  for (const [kind, list] of kinds) {
    const code = list.reduce((n, p) => n + by.sums[p], 0);
    results.kinds.push({ kind, codeKB: +(code / KB).toFixed(1), gzipKB: +((code / by.total) * wasmGz / KB).toFixed(1) });
  }
}

// `--size-only`: the download and the kinds' shares, no browser (what a size change is measured by).
if (process.argv.includes('--size-only')) {
  console.log(`download (wasm + js + css): ${results.transfer.gzipKB} KB gzip, ${results.transfer.brKB} KB Brotli, ${results.transfer.rawKB} KB raw`);
  for (const f of results.transfer.files) console.log(`  ${f}`);
  for (const k of results.kinds) console.log(`  ${k.kind}: ${k.codeKB} KB code ≈ ${k.gzipKB} KB gzip`);
  process.exit(results.transfer.gzipKB > budgets.transferKB ? 1 : 0);
}

// 2 + 3. Timings in Chromium.
const bigFile = join(OUTPUT, 'big-1000.roundtable.json');
if (!existsSync(bigFile) || process.env.RT_REGEN_BIG) {
  execFileSync('cargo', ['run', '-q', '-p', 'roundtable-web', '--example', 'big_session', '--', bigFile], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

const srv = await serveDist();
const firstRender = [];
for (let i = 0; i < 5; i++) {
  const b = await launch();
  await b.page.goto(srv.url + '#/');
  await b.page.waitForSelector('header.app-header');
  const t = await b.page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    return { mounted: performance.now(), domContentLoaded: nav.domContentLoadedEventEnd };
  });
  // performance.now() when the check ran is an upper bound of the mount time.
  firstRender.push(t.mounted);
  await b.close();
}
firstRender.sort((a, b) => a - b);
results.firstRender = {
  medianMs: Math.round(firstRender[2]),
  worstMs: Math.round(firstRender[4]),
  runs: firstRender.map(Math.round),
};
if (results.firstRender.medianMs > budgets.firstRenderMs) failed = true;

// The big session: import once, then measure cold opens of its page.
const b = await launch();
const { page } = b;
await page.goto(srv.url + '#/');
await page.waitForSelector('header.app-header');
await page.setInputFiles('#import-file', bigFile);
await page.waitForSelector('.tree-row', { timeout: 60000 });
const sessionUrl = page.url();
const opens = [];
for (let i = 0; i < 3; i++) {
  await page.goto('about:blank');
  await page.goto(sessionUrl);
  await page.waitForFunction(() => document.querySelectorAll('.tree-row').length > 10, null, { timeout: 30000 });
  opens.push(await page.evaluate(() => performance.now()));
}
opens.sort((a, b) => a - b);
const rowsInTree = await page.$eval('.tree-viewport', (el) => el.querySelectorAll('.tree-row').length);
const productCount = await page.evaluate(() => Number(document.querySelector('.panel h2 .small')?.textContent || 0));
const scroll = await page.evaluate(async () => {
  const el = document.querySelector('.tree-viewport');
  const frames = [];
  let last = performance.now();
  const steps = 120;
  for (let i = 1; i <= steps; i++) {
    el.scrollTop = (el.scrollHeight - el.clientHeight) * (i / steps);
    el.dispatchEvent(new Event('scroll'));
    await new Promise((r) => requestAnimationFrame(() => r()));
    const now = performance.now();
    frames.push(now - last);
    last = now;
  }
  frames.sort((a, b) => a - b);
  const lastRow = [...el.querySelectorAll('.tree-row')].pop()?.textContent || '';
  return {
    frames: frames.length,
    medianFrameMs: +frames[Math.floor(frames.length / 2)].toFixed(1),
    p95FrameMs: +frames[Math.floor(frames.length * 0.95)].toFixed(1),
    maxFrameMs: +frames[frames.length - 1].toFixed(1),
    rowsInDomAtEnd: el.querySelectorAll('.tree-row').length,
    lastRow: lastRow.slice(0, 60),
  };
});
await b.close();
await srv.stop();
results.bigSession = {
  products: productCount,
  openMedianMs: Math.round(opens[1]),
  openRuns: opens.map(Math.round),
  rowsInDom: rowsInTree,
  scroll,
};
if (results.bigSession.openMedianMs > budgets.bigOpenMs) failed = true;
if (scroll.rowsInDomAtEnd > 120 || scroll.p95FrameMs > 50) failed = true;

const verdict = (ok) => (ok ? 'within budget' : 'OVER BUDGET');
const md = `# Web app budgets (scripts/budgets.mjs)

Measured ${new Date().toISOString()} on this machine (2 cores), headless Chromium on loopback, dist/ as built.

| budget | limit | measured | verdict |
| --- | --- | --- | --- |
| gzip transfer of wasm + js + css | ≤ ${budgets.transferKB} KB | ${results.transfer.gzipKB} KB (Brotli ${results.transfer.brKB} KB, raw ${results.transfer.rawKB} KB) | ${verdict(results.transfer.gzipKB <= budgets.transferKB)} |
| first render (navigation → header mounted), median of 5 cold profiles | ≤ ${budgets.firstRenderMs} ms | ${results.firstRender.medianMs} ms (runs ${results.firstRender.runs.join(', ')}) | ${verdict(results.firstRender.medianMs <= budgets.firstRenderMs)} |
| 1,000-product session opens (navigation → tree drawn), median of 3 | ≤ ${budgets.bigOpenMs} ms | ${results.bigSession.openMedianMs} ms (runs ${results.bigSession.openRuns.join(', ')}; ${results.bigSession.products} products) | ${verdict(results.bigSession.openMedianMs <= budgets.bigOpenMs)} |
| tree scroll, 120 scroll steps top → bottom | virtualized, p95 frame ≤ 50 ms | ${scroll.rowsInDomAtEnd} rows in the DOM; frame median ${scroll.medianFrameMs} ms, p95 ${scroll.p95FrameMs} ms, max ${scroll.maxFrameMs} ms | ${verdict(scroll.rowsInDomAtEnd <= 120 && scroll.p95FrameMs <= 50)} |

Files: ${results.transfer.files.join('; ')}.

What each kind adds (code bytes by Rust module in the named wasm, and that share of the gzip
download; with LTO, inlined code counts where it ended up, so these are estimates):

| part | code | ≈ gzip |
| --- | --- | --- |
${results.kinds.map((k) => `| ${k.kind} | ${k.codeKB} KB | ${k.gzipKB} KB |`).join('\n')}

Where the wasm's bytes are, what each size change saved and the levers left: /work/notes/size-web.md.
`;
console.log(md);
const out = process.env.BENCH_OUT || (existsSync('/work/notes') ? '/work/notes/bench-web.md' : join(OUTPUT, 'bench-web.md'));
mkdirSync(join(out, '..'), { recursive: true });
writeFileSync(out, md);
console.log(`written to ${out}`);
process.exit(failed ? 1 : 0);
