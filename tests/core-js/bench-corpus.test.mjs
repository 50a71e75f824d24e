// The benchmark corpus (bench/corpus.mjs) as a test: every method the benchmark times must give
// the expected verdict on every answer, so a speed-up can never come from a wrong answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020.js';
import { corpus } from '../../bench/corpus.mjs';
import { zodSchemas } from '../../bench/zod-schemas.mjs';
import { core } from './load.mjs';

const ajv = new Ajv2020({ allErrors: true });
ajv.addFormat('int64', true);

for (const c of corpus()) {
  test(`bench corpus ${c.name}`, () => {
    const full = core.validateStep(c.step, c.raw);
    assert.equal(full.ok, c.valid, JSON.stringify(full.errors));
    const verdict = core.validateStep(c.step, c.raw, null, { value: false });
    assert.equal(verdict.ok, c.valid);
    assert.equal(ajv.validate(core.stepSchema(c.step), JSON.parse(c.raw)), c.valid, 'ajv');
    assert.equal(zodSchemas[c.step].safeParse(JSON.parse(c.raw)).success, c.valid, 'zod');
    if (c.valid) {
      const parsed = JSON.parse(c.raw);
      for (const [k, v] of Object.entries(parsed)) assert.deepEqual(full.value[k], v, k);
    } else {
      assert.ok(full.errors.length >= 2, 'every invalid answer has several violations');
    }
  });
}

test('the corpus is deterministic and has the promised sizes', () => {
  const a = corpus();
  const b = corpus();
  assert.deepEqual(a.map((c) => c.raw), b.map((c) => c.raw));
  assert.equal(a.length, 7 * 2 * 2);
  for (const c of a.filter((x) => x.size === '20KB' && x.valid)) {
    assert.ok(c.raw.length >= 19_000 && c.raw.length <= 24_000, `${c.name}: ${c.raw.length}`);
  }
});
