// The TypeScript declarations of core-js/pkg-node: precise types, not `any`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { root, pkgDir } from './load.mjs';

const dts = readFileSync(path.join(pkgDir, 'roundtable_core.d.ts'), 'utf8');

test('the .d.ts declares every function with precise types', () => {
  for (const decl of [
    /export function validateStep<S extends StepName>\(\s*step: S, raw: string, known: Known \| null \| undefined, options: ValidateOptions & \{ value: false \},?\s*\): ValidateVerdictOk \| ValidateErr;/,
    /export function validateStep<S extends StepName>\(\s*step: S, raw: string, known\?: Known \| null, options\?: ValidateOptions,?\s*\): ValidateOk<S> \| ValidateErr;/,
    /export function stepSchema\(step: StepName, options\?: StepSchemaOptions\): JsonSchema;/,
    /export function stepNames\(\): StepName\[\];/,
    /export function newTree\(rootName: string\): ProductTree;/,
    /export function knownFromTree\(tree: ProductTree\): Required<Known>;/,
    /export function applyTreeOperations\(tree: ProductTree, operations: TreeOperation\[\]\): ApplyResult;/,
    /export interface Violation \{\s*path: string;\s*message: string;\s*expected: string;\s*received: string;\s*hint: string;\s*\}/,
    /export interface ValidateErr \{[^}]*ok: false;[^}]*errors: Violation\[\];[^}]*repairPrompt: string;/,
  ]) {
    assert.match(dts, decl);
  }
});

test('no exported function falls back to any', () => {
  const exported = dts.split('\n').filter((l) => /^export function/.test(l) || /^\s+step: S/.test(l));
  assert.ok(exported.length >= 7);
  for (const line of exported) assert.doesNotMatch(line, /\bany\b/, line);
  // exactly one declaration block per exported function: wasm-bindgen's own `any` signatures are skipped
  for (const name of ['stepSchema', 'stepNames', 'newTree', 'knownFromTree', 'applyTreeOperations']) {
    assert.equal(dts.split(`export function ${name}(`).length - 1, 1, name);
  }
  assert.equal(dts.split('export function validateStep<').length - 1, 2, 'validateStep has two overloads');
});

test('every field of the JSON Schema of each step appears in the TypeScript types', async () => {
  const { core, STEPS } = await import('./load.mjs');
  const props = new Set();
  const walk = (n) => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object') {
      if (n.properties && typeof n.properties === 'object') Object.keys(n.properties).forEach((k) => props.add(k));
      Object.values(n).forEach(walk);
    }
  };
  for (const s of STEPS) walk(core.stepSchema(s));
  for (const p of props) assert.match(dts, new RegExp(`\\b${p}\\??:`), `field ${p} missing from the .d.ts`);
});

test('tsc --strict accepts correct usage and rejects wrong usage (tests/core-js/types/usage.ts)', () => {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tests', 'core-js', 'types', 'tsconfig.json')], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (e) {
    assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
  }
});

test('the declared ProductTree and Product fields are the ones the tree really has', async () => {
  const { core } = await import('./load.mjs');
  const fields = (name) => {
    const body = dts.match(new RegExp(`export interface ${name} \\{([^}]*)\\}`))[1];
    return [...body.matchAll(/(\w+)\??:/g)].map((m) => m[1]).sort();
  };
  const tree = core.applyTreeOperations(core.newTree('Root'), [
    { action: 'ADD', newId: 'new-1', parentId: 'p0', product: { name: 'A', type: 'Content', dod: 'x', description: 'd', assignee: 'operative-1' } },
  ]).tree;
  assert.deepEqual(Object.keys(tree).sort(), fields('ProductTree'));
  for (const p of tree.products) assert.deepEqual(Object.keys(p).sort(), fields('Product'));
});
