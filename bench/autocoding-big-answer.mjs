// Benchmark (not a test): how long the page's main thread is held while an 8 MB autocoding player
// answer streams in from a provider (the loopback mock, tests/e2e/mock-providers.mjs), is checked
// and refused by its length, and its transcript is opened (issue 30, item 3; the browser test
// tests/e2e/autocoding-answers.test.mjs asserts the behaviour). The player is refused three
// times (the answer and two repairs), so each run reads, checks and stores three such answers.
// Target: no task over 200 ms.
//
// Per run it prints the longest task and the total blocking time (the sum of each long task's
// time past 50 ms) Chromium's long-task timing saw, and a summary over the runs. To find what a
// long task does: BENCH_TRACE=1 adds a DevTools trace of each run and prints its longest
// main-thread tasks with their longest inner events; BENCH_PROFILE=1 adds V8's sampling profile
// and prints the wasm call stacks and functions that took the most time. The release wasm has no
// function names; for names, serve a copy of dist/ whose wasm is wasm-bindgen's output of
// target/wasm32-unknown-unknown/release-web/roundtable-web.wasm (same out-name, the
// `integrity` attributes taken out of index.html) and point RT_DIST at it.
//
//   node bench/autocoding-big-answer.mjs             (dist/ built for release; 5 runs, 8 MiB)
//   BENCH_RUNS=3 BENCH_MIB=16 BENCH_PROFILE=1 node bench/autocoding-big-answer.mjs
import { serveDist, launch, open, status, useProviderMock } from '../tests/e2e/helpers.mjs';
import { startProviderMock } from '../tests/e2e/mock-providers.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MIB = Number(process.env.BENCH_MIB ?? 8);
const TRACE = process.env.BENCH_TRACE === '1';
const PROFILE = process.env.BENCH_PROFILE === '1';

const srv = await serveDist();
const mock = await startProviderMock();
const b = await launch();
await useProviderMock(b.page, srv.url, mock);
const { page } = b;
const cdp = await page.context().newCDPSession(page);

const big = JSON.stringify({ files: [{ path: 'big.js', content: 'x'.repeat(MIB * 1024 * 1024) }], delete: [] });
mock.state.respond = () => ({ text: big, chunkDelay: 2, split: 64 });

/** A trace's events, collected through the DevTools protocol. */
async function traced(act) {
  if (!TRACE) {
    await act();
    return [];
  }
  const events = [];
  const onData = (d) => events.push(...d.value);
  cdp.on('Tracing.dataCollected', onData);
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'blink.user_timing', 'loading', 'netlog', 'disabled-by-default-v8.gc'] },
  });
  await act();
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', onData);
  return events;
}

/** The main thread's tasks over 50 ms, each with its longest inner events by name. */
function longTasks(events) {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return [];
  const on = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const tasks = on.filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.dur > 50000);
  return tasks.map((t) => {
    const inner = on.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 5000 && e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask');
    const label = (e) => {
      const d = e.args?.data ?? {};
      const what = d.functionName || d.url?.split('/').pop() || d.type || d.name || '';
      return `${e.name}${what ? `(${what})` : ''} ${(e.dur / 1000).toFixed(0)}`;
    };
    return { ms: Math.round(t.dur / 1000), inner: inner.sort((a, c) => c.dur - a.dur).slice(0, 8).map(label) };
  });
}

async function run() {
  mock.state.requests.length = 0;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="autocoding"]');
  await page.click('button[name="use-demo-requirements"]');
  for (const role of ['player', 'coach']) await page.selectOption(`select[name="${role}-provider"]`, 'openai');
  await page.click('button[name="create-autocoding"]');
  await page.waitForSelector('.autocoding');
  await page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
  if (PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const events = await traced(async () => {
    await page.click('button[name="step"]');
    const start = Date.now();
    while (mock.state.requests.filter((r) => r.method === 'POST').length < 2 || (await status(page)) === 'running') {
      if (Date.now() - start > 120000) throw new Error(`still ${await status(page)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.click('button[data-fix="transcript"]');
    await page.waitForSelector('[role="dialog"] [data-section="raw"]');
    await page.waitForTimeout(500);
  });
  if (PROFILE) {
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const dt = profile.timeDeltas;
    profile.samples.forEach((id, i) => {
      const n = byId.get(id);
      const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}`;
      self.set(k, (self.get(k) ?? 0) + (dt[i + 1] ?? 0));
    });
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const short = (n) => (n.callFrame.functionName || '(anon)').replace(/::h[0-9a-f]{16}$/, '').replace(/\[[0-9a-f]+\]/g, '').slice(-90);
    const stacks = new Map();
    profile.samples.forEach((id, i) => {
      let n = byId.get(id);
      if (!n.callFrame.url.endsWith('.wasm')) return;
      const chain = [];
      for (let k = 0; n && k < 6; k++, n = byId.get(parent.get(n.id))) chain.push(short(n));
      const key = chain.join(' <- ');
      stacks.set(key, (stacks.get(key) ?? 0) + (dt[i + 1] ?? 0));
    });
    for (const [k, us] of [...stacks].sort((a, c) => c[1] - a[1]).slice(0, 15)) console.log(`  stack ${(us / 1000).toFixed(1)} ms  ${k}`);
    const top = [...self].filter(([k]) => !k.startsWith('(idle)')).sort((a, c) => c[1] - a[1]).slice(0, 15);
    for (const [k, us] of top) console.log(`  self ${(us / 1000).toFixed(1)} ms  ${k}`);
  }
  const text = await page.evaluate(() => document.querySelector('[role="dialog"]').textContent);
  if (!/the answer is \d+ bytes long/.test(text)) throw new Error('the size refusal is not shown');
  const tasks = await page.evaluate(() => window.__longTasks);
  const longest = Math.max(0, ...tasks);
  const tbt = tasks.reduce((s, d) => s + Math.max(0, d - 50), 0);
  const posts = mock.state.requests.filter((r) => r.method === 'POST').length;
  return { longest, tbt, count: tasks.length, posts, traced: longTasks(events) };
}

const results = [];
for (let i = 1; i <= RUNS; i++) {
  const r = await run();
  results.push(r);
  console.log(`run ${i}: longest task ${r.longest.toFixed(0)} ms, total blocking ${r.tbt.toFixed(0)} ms, ${r.count} long tasks, ${r.posts} answers`);
  for (const t of r.traced.sort((a, c) => c.ms - a.ms).slice(0, 3)) console.log(`  task ${t.ms} ms: ${t.inner.join(', ')}`);
}
const sorted = (k) => results.map((r) => r[k]).sort((a, c) => a - c);
const median = (xs) => xs[Math.floor(xs.length / 2)];
const L = sorted('longest');
const T = sorted('tbt');
console.log(`${MIB} MiB answer, ${RUNS} runs: longest task median ${median(L).toFixed(0)} ms (${L[0].toFixed(0)}–${L[L.length - 1].toFixed(0)}), total blocking median ${median(T).toFixed(0)} ms (${T[0].toFixed(0)}–${T[T.length - 1].toFixed(0)}); target: no task over 200 ms`);
await b.close();
await mock.stop?.();
await srv.stop();
