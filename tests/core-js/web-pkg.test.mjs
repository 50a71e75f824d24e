// The --target web package (core-js/pkg-web) loads as an ES module and gives the same answers as the
// Node one. Browsers fetch the .wasm; here it is handed to initSync from disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { core, root } from './load.mjs';

const webDir = path.join(root, 'core-js', 'pkg-web');
const web = await import(pathToFileURL(path.join(webDir, 'roundtable_core.js')).href);
web.initSync({ module: readFileSync(path.join(webDir, 'roundtable_core_bg.wasm')) });

// In a browser there is no `Buffer`: long answers cross by `TextEncoder.encodeInto`, while on Node
// they cross as UTF-16 (`Buffer.write(s, 'utf16le')`) and are transcoded in WASM. Each instance
// looks for `Buffer` once, at its first call: hiding it then gives this pkg-web the browser's way,
// so the two packages below compare the two ways into the validator.
const savedBuffer = globalThis.Buffer;
globalThis.Buffer = undefined;
try {
  web.validateStep('presentation', '{}');
} finally {
  globalThis.Buffer = savedBuffer;
}

test('without Buffer (a browser), values come from JSON.parse: no code is compiled from strings', () => {
  assert.equal(web.benchValueBuilder(), false);
  assert.equal(core.benchValueBuilder(), true);
});

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

test('long answers read the same by encodeInto (browsers) and by the UTF-16 copy (Node)', () => {
  const presentation = (content) =>
    JSON.stringify({ responseType: 'final_output', messages: [{ content, asAgent: 'envoy' }] });
  const contents = [
    'plain ascii '.repeat(400),
    'Café — “naïve” 😀 → '.repeat(300),
    'a'.repeat(5000) + '中文'.repeat(700) + 'z'.repeat(33),
    '😀'.repeat(1500), // surrogate pairs on every block boundary
  ];
  for (const content of contents) {
    const raw = presentation(content);
    assert.deepEqual(web.validateStep('presentation', raw), core.validateStep('presentation', raw));
    const fenced = '```json\n' + raw + '\n```'; // repaired: the value is parsed from the copy
    const viaNode = core.validateStep('presentation', fenced);
    assert.equal(viaNode.value.messages[0].content, content);
    assert.deepEqual(web.validateStep('presentation', fenced), viaNode);
  }
  // Unpaired surrogates become U+FFFD on both ways (as encodeInto does), so a repaired answer's
  // value carries U+FFFD where the original string had the lone half.
  const lone = 'x'.repeat(2000) + '\ud800 then \udc00 and a pair 😀';
  // (spliced in raw: JSON.stringify would write them as \u escapes)
  const fenced = '```json\n' + presentation('LONE').replace('LONE', lone) + '\n```';
  const viaNode = core.validateStep('presentation', fenced);
  assert.equal(viaNode.value.messages[0].content, lone.replace(/\ud800|\udc00/g, '\ufffd'));
  assert.deepEqual(web.validateStep('presentation', fenced), viaNode);
  // Too long is too long on both ways (limits count chars, not bytes or units).
  const over = presentation('é'.repeat(100_001));
  assert.deepEqual(
    web.validateStep('presentation', over, null, { value: false }),
    core.validateStep('presentation', over, null, { value: false }),
  );
});

test('random long texts cross the same both ways (the SIMD transcoder against encodeInto)', () => {
  // A seeded generator: ASCII runs of every length around the 32-unit blocks, with Latin-1,
  // BMP, astral and unpaired-surrogate chars between them.
  let seed = 20261122;
  const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  const pieces = ['a', 'é', '—', '中', '😀', '\ud800', '\udc00', '"', '\\', '\n'];
  for (let round = 0; round < 200; round++) {
    let text = '';
    while (text.length < 1100 + rand(900)) {
      text += 'x'.repeat(rand(70));
      text += pieces[rand(pieces.length)];
    }
    const raw = '```json\n' + JSON.stringify({ responseType: 'final_output', messages: [{ content: 'C', asAgent: 'envoy' }] })
      .replace('"C"', JSON.stringify(text).replace(/\\ud[89abcdef][0-9a-f]{2}/g, (m) => JSON.parse('"' + m + '"'))) + '\n```';
    const viaWeb = web.validateStep('presentation', raw);
    const viaNode = core.validateStep('presentation', raw);
    assert.deepEqual(viaNode, viaWeb, `round ${round}`);
    assert.equal(viaNode.ok, true, `round ${round}: ${JSON.stringify(viaNode.errors)}`);
    assert.equal(viaNode.value.messages[0].content, text.replace(/[\ud800-\udfff]/g, (c, i, all) => {
      const code = c.charCodeAt(0);
      const paired = code < 0xdc00 ? /[\udc00-\udfff]/.test(all[i + 1] ?? '') : /[\ud800-\udbff]/.test(all[i - 1] ?? '');
      return paired ? c : '\ufffd';
    }));
  }
});
