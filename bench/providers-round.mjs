// Benchmark (not a test): how long the runner takes for Bootstrap plus one round when every
// model answer takes a fixed latency L, with N operatives writing (and reviewing) in parallel and
// the members on six providers in four wire families, served by the loopback mock
// (tests/e2e/mock-providers.mjs). The round's steps run one after another and the N operatives'
// Write and PeerReview calls in parallel, so the ideal is steps × L; the target is ≤ 1.1 × that.
// Prints one line per run and a summary.
//
// The answers are the demo model's valid answers for a team with N operatives
// (`bench/team-round-N.json`, from `cargo run -p roundtable-core --example team_round_fixture -- N`),
// released in the order the demo applied them: parallel answers that arrive together go out
// GAP ms apart, so version ids match and no answer is refused (a Write step takes L + (N-1)·GAP).
//
//   node bench/providers-round.mjs                    (dist/ built; N = 4, L = 1000 ms, 5 runs)
//   BENCH_WRITERS=2 BENCH_LATENCY=500 BENCH_RUNS=7 node bench/providers-round.mjs
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, open, waitStatus, ROOT } from '../tests/e2e/helpers.mjs';
import { startProviderMock } from '../tests/e2e/mock-providers.mjs';

const L = Number(process.env.BENCH_LATENCY ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const N = Number(process.env.BENCH_WRITERS ?? 4);
const GAP = 20;
// Bootstrap, PlanAssign, Write (N in parallel), PeerReview (N in parallel), Inspection.
const STEPS = 5;
const fixture = join(ROOT, `bench/team-round-${N}.json`);
if (!existsSync(fixture)) {
  throw new Error(`${fixture} is missing: cargo run -p roundtable-core --example team_round_fixture -- ${N} > bench/team-round-${N}.json`);
}
const ORDER = JSON.parse(readFileSync(fixture, 'utf8'));
// The providers the operatives run on, one each (a local server's limit of 1 parallel call
// would serialise two operatives on it).
const OPERATIVE_PROVIDERS = ['gemini', 'ollama', 'openrouter', 'mistral', 'groq', 'local'];
if (N < 1 || N > OPERATIVE_PROVIDERS.length) throw new Error(`BENCH_WRITERS is 1 to ${OPERATIVE_PROVIDERS.length}`);
const MEMBER_OF = { anthropic: 'chair', openai: 'inspector' };
OPERATIVE_PROVIDERS.slice(0, N).forEach((p, i) => { MEMBER_OF[p] = `operative-${i + 1}`; });
const PROVIDERS = Object.keys(MEMBER_OF);

/** Answers in the recorded order, each no sooner than L after its request arrived. */
function replay() {
  let next = 0;
  let busy = false;
  const waiting = [];
  const pump = () => {
    if (busy || next >= ORDER.length) return;
    const want = ORDER[next];
    const w = waiting.find((x) => x.member === want.member && x.step === want.step);
    if (!w) return;
    const wait = w.at + L - Date.now();
    if (wait > 0) {
      setTimeout(pump, wait);
      return;
    }
    waiting.splice(waiting.indexOf(w), 1);
    next += 1;
    busy = true;
    w.resolve({ text: want.raw });
    setTimeout(() => { busy = false; pump(); }, GAP);
  };
  return (entry) => new Promise((resolve) => {
    waiting.push({ member: MEMBER_OF[entry.provider], step: entry.step, at: Date.now(), resolve });
    pump();
  });
}

const server = await serveDist();
const mock = await startProviderMock();
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
    let op = 0;
    for (const [i, select] of selects.entries()) {
      const provider = roles[i] === 'chair' ? 'anthropic'
        : roles[i] === 'inspector' ? 'openai'
          : OPERATIVE_PROVIDERS[op++];
      await select.selectOption(provider);
    }
    await page.click('button[name="create"]');
    await page.waitForSelector('.session-head');
    mock.state.requests.length = 0;
    const t0 = Date.now();
    await page.click('button[name="round"]');
    await waitStatus(page, ['paused'], 120000);
    const ms = Date.now() - t0;
    const calls = mock.state.requests.filter((r) => r.method === 'POST').length;
    const want = 3 + 2 * N;
    if (calls !== want) throw new Error(`run ${run}: ${calls} calls, expected ${want} (a repair or an error)`);
    times.push(ms);
    console.log(`run ${run}: ${ms} ms for ${STEPS} steps with ${N} writers at L = ${L} ms (${(ms / (STEPS * L)).toFixed(3)} × steps × L)`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`N = ${N} writers, ${RUNS} runs: best ${sorted[0]} ms, median ${median} ms, worst ${sorted.at(-1)} ms; ` +
    `ideal ${STEPS * L} ms; target ≤ ${1.1 * STEPS * L} ms: ${median <= 1.1 * STEPS * L ? 'met' : 'not met'} ` +
    `(median ${(median / (STEPS * L)).toFixed(3)} ×)`);
} finally {
  await browser.close();
  await mock.stop();
  await server.stop();
}
