// Benchmark (not a test): how long the runner takes for Bootstrap plus one round when every
// model answer takes a fixed latency L, with N operatives writing (and reviewing) in parallel and
// the members on up to eight services in four wire families, served by the loopback mock
// (tests/e2e/mock-providers.mjs). The round's steps run one after another and the N operatives'
// Write and PeerReview calls in parallel, so the ideal is steps × L; the target is ≤ 1.1 × that.
// Prints one line per run, where the time beyond steps × L went, and a summary.
//
// Each answer is complete L ms after its request arrived (the mock writes the whole stream at
// once: no time between chunks). The answers are the demo model's valid answers for a team with
// N operatives (`bench/team-round-N.json`, from
// `cargo run -p roundtable-core --example team_round_fixture -- N`). Write answers must apply in
// the order the demo applied them (they number the versions the reviews name), so the Write
// answers that are due together go out GAP ms apart in that order; every other answer goes out
// at L exactly.
//
//   node bench/providers-round.mjs                    (dist/ built; N = 4, L = 1000 ms, 5 runs)
//   BENCH_WRITERS=8 BENCH_LATENCY=500 BENCH_RUNS=7 BENCH_GAP=5 node bench/providers-round.mjs
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, open, waitStatus, ROOT } from '../tests/e2e/helpers.mjs';
import { startProviderMock } from '../tests/e2e/mock-providers.mjs';

const L = Number(process.env.BENCH_LATENCY ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const N = Number(process.env.BENCH_WRITERS ?? 4);
const GAP = Number(process.env.BENCH_GAP ?? 5);
const fixture = join(ROOT, `bench/team-round-${N}.json`);
if (!existsSync(fixture)) {
  throw new Error(`${fixture} is missing: cargo run -p roundtable-core --example team_round_fixture -- ${N} > bench/team-round-${N}.json`);
}
const ORDER = JSON.parse(readFileSync(fixture, 'utf8'));
// Bootstrap, PlanAssign, Write (N in parallel, at most the demo's five products), PeerReview (N
// in parallel; none with one operative), Inspection: the steps the recorded answers cover.
const STEPS = [...new Set(ORDER.map((a) => a.step))];
// The service and model each operative runs on: one service each while they last (a local
// server's limit of 1 parallel call would serialise two operatives on it), then a second model
// on Mistral and Groq (4 parallel calls each).
const OPERATIVES = [
  ['gemini', null], ['ollama', null], ['openrouter', null], ['mistral', null], ['groq', null],
  ['local', null], ['mistral', 'mistral-small-latest'], ['groq', 'llama-3.3-70b-versatile'],
];
if (N < 1 || N > OPERATIVES.length) throw new Error(`BENCH_WRITERS is 1 to ${OPERATIVES.length}`);
/** The member a request is for: by service, and by model where two members share one. */
const memberOf = (entry) => {
  const model = entry.body?.model ?? entry.rest.match(/^\/models\/([^:]+):/)?.[1];
  if (entry.provider === 'anthropic') return 'chair';
  if (entry.provider === 'openai') return 'inspector';
  const i = OPERATIVES.slice(0, N).findIndex(([p, m]) => p === entry.provider && (m === null || m === model));
  const shared = OPERATIVES.slice(0, N).findIndex(([p, m]) => p === entry.provider && m === model);
  return `operative-${(shared >= 0 ? shared : i) + 1}`;
};
const PROVIDERS = ['anthropic', 'openai', ...new Set(OPERATIVES.slice(0, N).map(([p]) => p))];

/** Answers each request L after it arrived, the Write answers in the recorded order. */
function replay() {
  const waiting = [];
  let next = 0; // the next Write answer in the recorded order
  let lastWrite = 0;
  const send = (w, raw) => w.resolve({ text: raw, chunkDelay: 0 });
  const writes = ORDER.filter((a) => a.step === 'write');
  const pump = () => {
    while (next < writes.length) {
      const want = writes[next];
      const w = waiting.find((x) => x.member === want.member && x.step === 'write');
      if (!w) return;
      const wait = Math.max(w.at + L, lastWrite + GAP) - Date.now();
      if (wait > 0) {
        setTimeout(pump, wait);
        return;
      }
      waiting.splice(waiting.indexOf(w), 1);
      next += 1;
      lastWrite = Date.now();
      send(w, want.raw);
    }
  };
  return (entry) => new Promise((resolve) => {
    const member = memberOf(entry);
    const w = { member, step: entry.step, at: Date.now(), resolve };
    if (entry.step === 'write') {
      waiting.push(w);
      pump();
      return;
    }
    const answer = ORDER.find((a) => a.member === member && a.step === entry.step);
    if (!answer) throw new Error(`no recorded answer for ${member} at ${entry.step}`);
    setTimeout(() => send(w, answer.raw), L);
  });
}

/** Where the time of one run went, from the mock's clock: per step, from its first request
 * to its last answer's end, and the runner's time between one step's last answer and the next
 * step's first request. */
function breakdown(requests, t0, t1) {
  const steps = STEPS.map((step) => {
    const rs = requests.filter((r) => r.step === step);
    return {
      step,
      first: Math.min(...rs.map((r) => r.at)),
      lastIn: Math.max(...rs.map((r) => r.at)),
      end: Math.max(...rs.map((r) => r.endedAt)),
    };
  });
  const between = steps.slice(1).map((st, i) => st.first - steps[i].end);
  return {
    start: steps[0].first - t0,
    spans: steps.map((st) => st.end - st.first),
    spread: steps.map((st) => st.lastIn - st.first),
    between,
    finish: t1 - steps.at(-1).end,
  };
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const server = await serveDist();
// Each provider on its own origin, as real ones are: eight parallel calls to one origin would
// wait for the browser's six connections per host.
const mock = await startProviderMock({ originPerProvider: true });
const browser = await launch();
const { page } = browser;
try {
  await open(page, server.url, '#/settings');
  for (const p of PROVIDERS) {
    await page.fill(`input[name="base-${p}"]`, mock.base(p));
    await page.click(`button[name="save-base-${p}"]`);
    await page.waitForSelector('text=/Address for .* saved\\./');
    if (!['ollama', 'local'].includes(p)) {
      await page.fill(`input[name="key-${p}"]`, `sk-${p}-bench`);
      await page.press(`input[name="key-${p}"]`, 'Enter');
      await page.waitForSelector(`fieldset[data-provider="${p}"] .badge.ok`);
    }
  }
  const times = [];
  const parts = [];
  for (let run = 0; run < RUNS; run++) {
    mock.state.respond = replay();
    await open(page, server.url, '#/new');
    await page.click('button[data-kind="team"]');
    await page.click('button[data-preset="research-lab"]');
    await page.fill('textarea[name="request"]', `Benchmark run ${run}.`);
    // The preset has two operatives; more are added at the end of the list.
    let operatives = 2;
    while (operatives < N) {
      await page.click('button:has-text("+ Add member")');
      operatives += 1;
    }
    while (operatives > N) {
      await page.click('.member-row:has(select[name="member-team-role"] option[value="operative"]:checked) button:has-text("Remove")');
      operatives -= 1;
    }
    // Form order: chair, operative-1, operative-2, inspector, then added operatives.
    const roles = await page.$$eval('select[name="member-team-role"]', (ss) => ss.map((s) => s.value));
    const selects = await page.$$('select[name="member-provider"]');
    const models = page.locator('input[name="member-model"]');
    let op = 0;
    for (const [i, select] of selects.entries()) {
      const [provider, model] = roles[i] === 'chair' ? ['anthropic', null]
        : roles[i] === 'inspector' ? ['openai', null]
          : OPERATIVES[op++];
      await select.selectOption(provider);
      if (model) await models.nth(i).fill(model);
    }
    await page.click('button[name="create"]');
    await page.waitForSelector('.session-head');
    mock.state.requests.length = 0;
    const t0 = Date.now();
    await page.click('button[name="round"]');
    await waitStatus(page, ['paused'], 120000);
    const t1 = Date.now();
    const ms = t1 - t0;
    const posts = mock.state.requests.filter((r) => r.method === 'POST');
    const want = ORDER.length;
    if (posts.length !== want) throw new Error(`run ${run}: ${posts.length} calls, expected ${want} (a repair or an error): ${posts.map((r) => `${r.step}@${r.provider}`).join(' ')}`);
    if (process.env.BENCH_DEBUG) {
      for (const r of posts) console.log(`  ${r.step} ${r.provider}/${r.body?.model ?? ''} → ${memberOf(r)}: sent at ${r.at - t0} ms, answered by ${r.endedAt - t0} ms`);
    }
    const b = breakdown(posts, t0, t1);
    times.push(ms);
    parts.push(b);
    console.log(`run ${run}: ${ms} ms for ${STEPS.length} steps with ${N} writers at L = ${L} ms (${(ms / (STEPS.length * L)).toFixed(3)} × steps × L); ` +
      `click → first request ${b.start} ms, steps ${b.spans.join(' / ')} ms (requests of a step spread over ${b.spread.join(' / ')} ms), ` +
      `between steps ${b.between.join(' / ')} ms, last answer → paused shown ${b.finish} ms`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const med = (f) => { const xs = parts.map(f).sort((a, b) => a - b); return xs[Math.floor(xs.length / 2)]; };
  console.log(`N = ${N} writers, ${RUNS} runs: best ${sorted[0]} ms, median ${median} ms, worst ${sorted.at(-1)} ms; ` +
    `ideal ${STEPS.length * L} ms; target ≤ ${1.1 * STEPS.length * L} ms: ${median <= 1.1 * STEPS.length * L ? 'met' : 'not met'} ` +
    `(median ${(median / (STEPS.length * L)).toFixed(3)} ×)`);
  console.log(`median beyond steps × L: start ${med((b) => b.start)} ms, steps beyond L ${med((b) => sum(b.spans) - STEPS.length * L)} ms ` +
    `(of which the Write answers' ordering gaps ${(ORDER.filter((a) => a.step === 'write').length - 1) * GAP} ms), between steps ${med((b) => sum(b.between))} ms, finish ${med((b) => b.finish)} ms`);
} finally {
  await browser.close();
  await mock.stop();
  await server.stop();
}
