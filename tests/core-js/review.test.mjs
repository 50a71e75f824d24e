// Spec 004's review-loop answers from JS (core-js/src/review.rs): every case of the Rust
// fixture core/tests/review/answers.json — a valid answer per contract, each acknowledgement
// and envelope mistake — gets exactly the violation pointers the fixture lists, as the Rust
// check does; a valid answer comes back in the wire's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { core } from './load.mjs';

const fixture = JSON.parse(readFileSync(new URL('../../core/tests/review/answers.json', import.meta.url), 'utf8'));
const nonce = core.reviewNonce('run-1', 'call-5');
const earlier = core.reviewNonce('run-1', 'call-3');
const directive = { runId: 'run-1', nonce, earlierNonces: ['call-1', 'call-2', 'call-3', 'call-4'].map((c) => core.reviewNonce('run-1', c)) };

/** `$NONCE` and `$EARLIER` in every string, replaced. */
function fill(value) {
  if (typeof value === 'string') return value.replaceAll('$NONCE', nonce).replaceAll('$EARLIER', earlier);
  if (Array.isArray(value)) return value.map(fill);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
  return value;
}

function parentOf(root, pointer) {
  const parts = pointer.split('/').slice(1);
  const key = parts.pop();
  let at = root;
  for (const p of parts) at = at[p];
  return [at, key];
}

test('reviewNonce is stable, and differs per call and per run', () => {
  assert.match(nonce, /^n[0-9a-f]{16}$/);
  assert.equal(core.reviewNonce('run-1', 'call-5'), nonce);
  assert.notEqual(core.reviewNonce('run-1', 'call-6'), nonce);
  assert.notEqual(core.reviewNonce('run-2', 'call-5'), nonce);
});

test('every fixture case gets exactly its violation pointers', () => {
  const valid = fill(fixture.valid);
  let ran = 0;
  for (const c of fixture.cases) {
    const keys = c.contract === '*' ? Object.keys(valid) : [c.contract];
    for (const key of keys) {
      let answer = structuredClone(valid[key]);
      for (const p of c.remove ?? []) {
        const [parent, k] = parentOf(answer, p);
        assert.ok(k in parent, `${c.name}: nothing at ${p}`);
        delete parent[k];
      }
      for (const [p, v] of Object.entries(c.set ?? {})) {
        const [parent, k] = parentOf(answer, p);
        parent[k] = fill(v);
      }
      if (c.wrap) answer = { [c.wrap]: answer };
      let raw = JSON.stringify(answer, null, 2);
      if (c.fence) raw = `Here is my answer:\n\`\`\`json\n${raw}\n\`\`\`\nThanks.`;
      const got = core.checkReviewAnswer(key, raw, directive);
      const paths = got.ok ? [] : got.errors.map((v) => v.path);
      assert.deepEqual(new Set(paths), new Set(c.errorPaths), `${c.name} (${key}, spec ${[c.spec].flat().join('; ')}): ${JSON.stringify(got)}`);
      for (const m of c.messages ?? []) {
        assert.ok(got.errors.some((v) => v.message.includes(m)), `${c.name}: no message says ${m}`);
      }
      if (typeof c.warnings === 'number') assert.equal(got.warnings.length, c.warnings, c.name);
      if (got.ok) {
        // The answer in the wire's shape: its payload under the contract's key, acknowledged.
        assert.deepEqual(Object.keys(got.answer.data), [key]);
        assert.equal(got.answer.data[key].thehoodDirectiveAck.nonce, nonce);
        assert.equal(got.answer.status, answer.status ?? answer.agent_response?.status);
      }
      ran += 1;
    }
  }
  assert.ok(ran >= 20, `only ${ran} cases ran`);
});

test('an unknown contract or a malformed directive throws, naming what is wrong', () => {
  assert.throws(() => core.checkReviewAnswer('verdict', '{}', directive), /unknown contract "verdict": one of decision, /);
  assert.throws(() => core.checkReviewAnswer('qa_result', '{}', { nonce }), /directive/);
});
