// The --target web package (core/pkg-web) loads as an ES module and gives the same answers as the
// Node one. Browsers fetch the .wasm; here it is handed to initSync from disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { core, root } from './load.mjs';

const webDir = path.join(root, 'core', 'pkg-web');
const web = await import(pathToFileURL(path.join(webDir, 'roundtable_core.js')).href);
web.initSync({ module: readFileSync(path.join(webDir, 'roundtable_core_bg.wasm')) });

test('pkg-web exports the same API as pkg-node', () => {
  for (const name of ['validateStep', 'stepSchema', 'stepNames', 'newTree', 'knownFromTree', 'applyTreeOperations']) {
    assert.equal(typeof web[name], 'function', name);
  }
  assert.equal(typeof web.default, 'function', 'the async init for browsers');
});

test('pkg-web validates, describes and applies like pkg-node', () => {
  const raw = JSON.stringify({ responseType: 'final_output', messages: [] });
  assert.deepEqual(web.validateStep('presentation', raw), core.validateStep('presentation', raw));
  assert.deepEqual(web.stepSchema('write', { strict: true }), core.stepSchema('write', { strict: true }));
  const ops = [{ action: 'ADD', newId: 'new-1', parentId: 'p0', product: { name: 'A', type: 'Content', dod: 'x' } }];
  assert.deepEqual(web.applyTreeOperations(web.newTree('R'), ops), core.applyTreeOperations(core.newTree('R'), ops));
});
