// The fixture corpus of core/tests/fixtures through the built Node package:
//  - validateStep (with the session's known ids) gives the verdict and the exact error pointers
//    that core/tests/fixtures/index.json records — the wasm build behaves like the native one;
//  - on every shape-only fixture, ajv compiled from stepSchema(step) agrees with validateStep
//    called without `known`: the JSON Schema handed to providers and the validator are one contract.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { core, root } from './load.mjs';

const dir = path.join(root, 'core', 'tests', 'fixtures');
const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8'));
const defaultKnown = JSON.parse(readFileSync(path.join(dir, index.defaultKnown), 'utf8'));
const fixtures = index.fixtures.map((f) => ({ ...f, raw: readFileSync(path.join(dir, f.file), 'utf8') }));

const ajv = new Ajv2020({ allErrors: true });
ajv.addFormat('int64', true); // schemars tags i64 fields; `type: integer` already checks them
const compiled = new Map();
const schemaOf = (step) => {
  if (!compiled.has(step)) compiled.set(step, ajv.compile(core.stepSchema(step)));
  return compiled.get(step);
};

test('the index lists fixtures for every step, valid and invalid, shape-only and not', () => {
  assert.ok(fixtures.length >= 30);
  for (const step of core.stepNames()) {
    const mine = fixtures.filter((f) => f.step === step);
    assert.ok(mine.some((f) => f.valid) && mine.some((f) => !f.valid), step);
  }
  assert.ok(fixtures.some((f) => f.shapeOnly) && fixtures.some((f) => !f.shapeOnly));
});

for (const f of fixtures) {
  test(`validateStep ${f.file}: ${f.valid ? 'valid' : f.errorPaths.join(' ')}`, () => {
    const r = core.validateStep(f.step, f.raw, f.known ?? defaultKnown);
    assert.equal(r.ok, f.valid, JSON.stringify(r.errors ?? r.warnings, null, 1));
    if (!f.valid) assert.deepEqual(r.errors.map((e) => e.path), f.errorPaths);
    // the verdict-only path gives the same verdict and errors
    const v = core.validateStep(f.step, f.raw, f.known ?? defaultKnown, { value: false });
    assert.equal(v.ok, r.ok);
    assert.deepEqual(v.errors, r.errors);
  });
}

for (const f of fixtures.filter((x) => x.shapeOnly)) {
  test(`ajv agrees with validateStep on ${f.file}`, () => {
    const validate = schemaOf(f.step);
    const ajvOk = validate(JSON.parse(f.raw));
    const ours = core.validateStep(f.step, f.raw);
    assert.equal(
      ajvOk,
      ours.ok,
      `ajv says ${ajvOk ? 'valid' : 'invalid ' + JSON.stringify(validate.errors?.slice(0, 4))}, ` +
        `validateStep says ${ours.ok ? 'valid' : 'invalid ' + JSON.stringify(ours.errors)}`,
    );
    assert.equal(ours.ok, f.valid);
  });
}
