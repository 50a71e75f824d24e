// Validation benchmark: raw model text → verdict, in one Node process.
//
//   node bench/validate.mjs            (after scripts/build-core-pkg.sh node)
//   BENCH_MS=1000 node bench/validate.mjs     longer runs, steadier figures
//   node bench/validate.mjs --json out.json   also write every figure as JSON
//   node bench/validate.mjs --markdown        also print the table as Markdown (BENCHMARKS.md)
//   BENCH_ONLY=plan_assign/20KB node bench/validate.mjs   only the answers whose name has this
//
// The corpus (bench/corpus.mjs): every step, a small (~0.3–4 KB) and a ~20 KB answer, valid and
// invalid, generated deterministically (sizes below are UTF-8 bytes; MB/s = bytes per µs). Each
// answer goes through
//   (a) wasm  validateStep(step, raw, null, { value: false })   verdict + violations only
//   (b) wasm+ validateStep(step, raw)                           … and the parsed value
//   (c) ajv   JSON.parse + ajv (draft 2020-12, allErrors) compiled from stepSchema(step)
//   (c1) ajv1 the same with ajv's default (stops at the first error)
//   (d) zod   JSON.parse + the zod schema of bench/zod-schemas.mjs (safeParse)
// plus JSON.parse alone as the floor every JS-side validator pays. Before timing, every method must
// give the expected verdict on every answer, or the script stops: a fast wrong answer is no result.
//
// Timing: per answer, the methods take turns in rounds (so drift and other processes hit them
// alike); a round runs each method for a batch of a few ms; the figure is the fastest batch (the
// one least disturbed by the rest of the machine — on a shared 2-core box the median mostly
// measures the neighbours). Speed-up X/Y = time(Y) / time(X).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import os from 'node:os';
import Ajv2020 from 'ajv/dist/2020.js';
import { corpus } from './corpus.mjs';
import { zodSchemas } from './zod-schemas.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const core = require(path.join(here, '..', 'core-js', 'pkg-node'));

const BENCH_MS = Number(process.env.BENCH_MS || 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 15);
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : null;

function makeAjv(allErrors) {
  const ajv = new Ajv2020({ allErrors });
  ajv.addFormat('int64', true); // schemars tags i64 fields; `type: integer` already checks them
  return Object.fromEntries(core.stepNames().map((s) => [s, ajv.compile(core.stepSchema(s))]));
}
const ajvAll = makeAjv(true);
const ajvFirst = makeAjv(false);

const VERDICT = { value: false };
const METHODS = {
  parse: (c) => JSON.parse(c.raw) !== null,
  a: (c) => core.validateStep(c.step, c.raw, null, VERDICT).ok,
  b: (c) => core.validateStep(c.step, c.raw).ok,
  c: (c) => ajvAll[c.step](JSON.parse(c.raw)),
  c1: (c) => ajvFirst[c.step](JSON.parse(c.raw)),
  d: (c) => zodSchemas[c.step].safeParse(JSON.parse(c.raw)).success,
  // The breakdown of (a): the JS → WASM copy alone, and the check run CHECK_N times in WASM.
  copy: (c) => core.benchCopyString(c.raw) > 0,
  check: (c) => core.benchCheckStep(c.step, c.raw, CHECK_N) >= 0,
};
const CHECK_N = 16;
const BREAKDOWN = new Set(['copy', 'check']);
const LABEL = {
  parse: 'JSON.parse',
  a: '(a) wasm',
  b: '(b) wasm+value',
  c: '(c) ajv',
  c1: '(c1) ajv 1st',
  d: '(d) zod',
  copy: 'copy in',
  check: 'check in wasm',
};

// BENCH_ONLY=plan_assign/20KB: time only the answers whose name contains this text.
const cases = corpus().filter((c) => !process.env.BENCH_ONLY || c.name.includes(process.env.BENCH_ONLY));

// 1. Every method must agree with the corpus on every answer.
let wrong = 0;
for (const c of cases) {
  for (const [m, fn] of Object.entries(METHODS)) {
    if (m === 'parse' || BREAKDOWN.has(m)) continue;
    const got = fn(c);
    if (got !== c.valid) {
      wrong++;
      console.error(`verdict mismatch: ${LABEL[m]} says ${got ? 'valid' : 'invalid'} on ${c.name}`);
      if (m === 'a' || m === 'b') {
        const r = core.validateStep(c.step, c.raw);
        console.error(JSON.stringify(r.ok ? r.warnings : r.errors, null, 1).slice(0, 2000));
      }
    }
  }
  // The value path must hand back what JSON.parse gives, defaults aside.
  if (c.valid) {
    const r = core.validateStep(c.step, c.raw);
    const parsed = JSON.parse(c.raw);
    for (const k of Object.keys(parsed)) {
      if (JSON.stringify(r.value[k]) !== JSON.stringify(parsed[k])) {
        wrong++;
        console.error(`value mismatch on ${c.name} at ${k}`);
      }
    }
  }
}
if (wrong) {
  console.error(`${wrong} mismatches: not timing wrong answers`);
  process.exit(1);
}

// 2. Time.
let sink = 0;
function batch(fn, c, n) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink += fn(c) ? 1 : 0;
  return Number(process.hrtime.bigint() - t0) / 1e3 / n; // µs per op
}
function calibrate(fn, c) {
  let n = 1;
  for (;;) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink += fn(c) ? 1 : 0;
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (ms > 5) return n;
    n *= 2;
  }
}
const fastest = (xs) => Math.min(...xs);

const results = [];
for (const c of cases) {
  const per = {};
  const sizes = {};
  for (const [m, fn] of Object.entries(METHODS)) {
    const n = calibrate(fn, c);
    // warm up ~ BENCH_MS / 4 so every tier of the JIT (and the wasm tier-up) has kicked in
    const warm = Math.max(1, Math.round((BENCH_MS / 4 / 5) * n));
    batch(fn, c, warm);
    sizes[m] = n;
    per[m] = [];
  }
  const perRound = BENCH_MS / ROUNDS / Object.keys(METHODS).length;
  for (let r = 0; r < ROUNDS; r++) {
    for (const [m, fn] of Object.entries(METHODS)) {
      per[m].push(batch(fn, c, Math.max(1, Math.round((sizes[m] * perRound) / 5))));
    }
  }
  const us = Object.fromEntries(Object.entries(per).map(([m, xs]) => [m, fastest(xs)]));
  // benchCheckStep copies once and checks CHECK_N times
  us.check = Math.max(0, (us.check - us.copy) / CHECK_N);
  results.push({ name: c.name, step: c.step, size: c.size, valid: c.valid, bytes: Buffer.byteLength(c.raw), us });
}

// 3. Report.
const f = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const sp = (num, den) => (num / den).toFixed(2) + '×';
const cols = Object.keys(METHODS);
console.log(
  `node ${process.version}, ${os.cpus().length} × ${os.cpus()[0].model}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; ` +
    `${BENCH_MS} ms per answer, fastest of ${ROUNDS} rounds; µs per answer (lower is better)\n`,
);
console.log(
  ['answer'.padEnd(28), 'bytes'.padStart(6), ...cols.map((m) => LABEL[m].padStart(14)), '  a MB/s', '  b MB/s'].join(' '),
);
for (const r of results) {
  console.log(
    [
      r.name.padEnd(28),
      String(r.bytes).padStart(6),
      ...cols.map((m) => f(r.us[m]).padStart(14)),
      f(r.bytes / r.us.a).padStart(8),
      f(r.bytes / r.us.b).padStart(8),
    ].join(' '),
  );
}
console.log('\nspeed-ups (time of the JS validator / time of the wasm path; > 1 = wasm faster)\n');
console.log(['answer'.padEnd(28), ...['a vs c', 'a vs d', 'b vs c', 'b vs d', 'a vs c1', 'b vs c1'].map((s) => s.padStart(8))].join(' '));
for (const r of results) {
  const u = r.us;
  console.log(
    [r.name.padEnd(28), ...[[u.c, u.a], [u.d, u.a], [u.c, u.b], [u.d, u.b], [u.c1, u.a], [u.c1, u.b]].map(([x, y]) => sp(x, y).padStart(8))].join(' '),
  );
}
const geo = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
console.log(
  '\ngeometric mean over all answers: ' +
    ['c', 'd'].map((o) => `a vs ${o} ${geo(results.map((r) => r.us[o] / r.us.a)).toFixed(2)}×, b vs ${o} ${geo(results.map((r) => r.us[o] / r.us.b)).toFixed(2)}×`).join('; '),
);

// The target is read on its reference answer, the valid 20 KB PlanAssign: mode (b) hands
// back a parsed value, which only a valid answer has, and (a) is the same call without it. The
// invalid 20 KB PlanAssign is printed beside it for the cost of a refusal.
const target = results.filter((r) => r.step === 'plan_assign' && r.size === '20KB');
console.log('\ntarget on the valid 20 KB PlanAssign: verdict ≥ 2× both, with value ≥ 1× both');
let met = true;
for (const r of target) {
  const u = r.us;
  const best = Math.min(u.c, u.d);
  const okA = best / u.a >= 2;
  const okB = best / u.b >= 1;
  const judged = r.valid;
  if (judged) met &&= okA && okB;
  const word = (ok) => (judged ? (ok ? 'MET' : 'MISSED') : '(not the target answer)');
  console.log(
    `  ${r.name}: JSON.parse ${f(u.parse)} µs, ajv ${f(u.c)}, zod ${f(u.d)} | (a) ${f(u.a)} µs = ${sp(best, u.a)} ${word(okA)} | (b) ${f(u.b)} µs = ${sp(best, u.b)} ${judged ? word(okB) : ''}`,
  );
  console.log(
    `    (a) = copy in ${f(u.copy)} + check in wasm ${f(u.check)} + the rest (call, options, result) ${f(Math.max(0, u.a - u.copy - u.check))} µs; ` +
      `(b) − (a) = ${f(u.b - u.a)} µs (JSON.parse alone ${f(u.parse)})`,
  );
}
console.log(met ? 'target met' : 'target missed');
if (process.argv.includes('--markdown')) {
  // The same figures as a Markdown table, for BENCHMARKS.md.
  console.log('\n| answer | bytes | JSON.parse | (a) verdict | (b) + value | (c) ajv | (d) zod | copy in | check in wasm | a vs c | a vs d | b vs c | b vs d |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results) {
    const u = r.us;
    const times = [u.parse, u.a, u.b, u.c, u.d, u.copy, u.check].map(f);
    const ratios = [u.c / u.a, u.d / u.a, u.c / u.b, u.d / u.b].map((x) => x.toFixed(2) + '×');
    console.log(`| ${r.name} | ${r.bytes} | ${times.join(' | ')} | ${ratios.join(' | ')} |`);
  }
}
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ node: process.version, load: os.loadavg(), benchMs: BENCH_MS, rounds: ROUNDS, results }, null, 1));
if (sink < 0) console.log(sink); // keeps the work observable
