// Benchmark (not a test): how long the runner takes for Bootstrap plus one round when every
// model answer takes a fixed latency L, with members on four provider families served by the
// loopback mock (tests/e2e/mock-providers.mjs). The round's steps run one after another and the
// Write and PeerReview calls of the two operatives in parallel, so the ideal is
// steps × L; the target is ≤ 1.1 × that. Prints one line per run and a summary.
//
//   node bench/providers-round.mjs            (dist/ must be built; L = 1000 ms, 3 runs)
//   BENCH_LATENCY=500 BENCH_RUNS=5 node bench/providers-round.mjs
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, open, waitStatus, ROOT } from '../tests/e2e/helpers.mjs';
import { startProviderMock } from '../tests/e2e/mock-providers.mjs';

const L = Number(process.env.BENCH_LATENCY ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// Bootstrap, PlanAssign, Write (2 in parallel), PeerReview (2 in parallel), Inspection.
const STEPS = 5;
const ANSWERS = JSON.parse(readFileSync(join(ROOT, 'tests/e2e/fixtures/team-round-1.json'), 'utf8'));
const MEMBERS = { anthropic: 'chair', gemini: 'operative-1', ollama: 'operative-2', openai: 'inspector' };

const server = await serveDist();
const mock = await startProviderMock();
const browser = await launch();
const { page } = browser;
try {
  await open(page, server.url, '#/settings');
  for (const p of Object.keys(MEMBERS)) {
    await page.fill(`input[name="base-${p}"]`, mock.base(p));
    await page.click(`button[name="save-base-${p}"]`);
    await page.waitForSelector('text=/Address for .* saved\\./');
    if (p !== 'ollama') {
      await page.fill(`input[name="key-${p}"]`, `sk-${p}-bench`);
      await page.press(`input[name="key-${p}"]`, 'Enter');
      await page.waitForSelector(`fieldset[data-provider="${p}"] .badge.ok`);
    }
  }
  // operative-2's Write lands 50 ms after operative-1's, so version ids match the recording.
  mock.state.respond = (entry) => {
    const member = MEMBERS[entry.provider];
    const late = entry.step === 'write' && member === 'operative-2' ? 50 : 0;
    return { text: ANSWERS[entry.step][member], delay: L + late };
  };
  const times = [];
  for (let run = 0; run < RUNS; run++) {
    await open(page, server.url, '#/new');
    await page.click('button[data-preset="research-lab"]');
    await page.fill('textarea[name="request"]', `Benchmark run ${run}.`);
    const selects = await page.$$('select[name="member-provider"]');
    for (const [i, select] of selects.entries()) await select.selectOption(Object.keys(MEMBERS)[i]);
    await page.click('button[name="create"]');
    await page.waitForSelector('.session-head');
    mock.state.requests.length = 0;
    const t0 = Date.now();
    await page.click('button[name="round"]');
    await waitStatus(page, ['paused'], 120000);
    const ms = Date.now() - t0;
    const calls = mock.state.requests.filter((r) => r.method === 'POST').length;
    if (calls !== 7) throw new Error(`run ${run}: ${calls} calls, expected 7 (a repair or an error)`);
    times.push(ms);
    console.log(`run ${run}: ${ms} ms for ${STEPS} steps at L = ${L} ms (${(ms / (STEPS * L)).toFixed(3)} × steps × L)`);
  }
  const best = Math.min(...times);
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
  console.log(`best ${best} ms, median ${median} ms; ideal ${STEPS * L} ms; target ≤ ${1.1 * STEPS * L} ms: ` +
    `${median <= 1.1 * STEPS * L ? 'met' : 'not met'} (median ${(median / (STEPS * L)).toFixed(3)} ×)`);
} finally {
  await browser.close();
  await mock.stop();
  await server.stop();
}
