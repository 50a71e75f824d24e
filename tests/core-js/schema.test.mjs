// stepSchema / stepNames through the built Node package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Ajv2020 from 'ajv/dist/2020.js';
import { core, STEPS } from './load.mjs';

/** Every object node of a schema (one with `properties`), with its JSON pointer. */
function objectNodes(node, at = '') {
  const out = [];
  if (Array.isArray(node)) node.forEach((n, i) => out.push(...objectNodes(n, `${at}/${i}`)));
  else if (node && typeof node === 'object') {
    if (node.properties) out.push([at, node]);
    for (const [k, v] of Object.entries(node)) out.push(...objectNodes(v, `${at}/${k}`));
  }
  return out;
}

test('stepNames lists the seven steps in session order', () => {
  assert.deepEqual(core.stepNames(), STEPS);
});

test('stepSchema gives a draft 2020-12 schema per step that ajv compiles', () => {
  const ajv = new Ajv2020({ allErrors: true });
  ajv.addFormat('int64', true);
  for (const step of STEPS) {
    for (const strict of [false, true]) {
      const schema = core.stepSchema(step, { strict });
      assert.equal(typeof schema, 'object');
      assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema', step);
      assert.doesNotThrow(() => ajv.compile(schema), `${step} strict=${strict}`);
    }
  }
});

test('the halt branch exists only for bootstrap and plan_assign', () => {
  for (const step of STEPS) {
    const tags = core.stepSchema(step).oneOf.map((b) => b.properties.responseType.const);
    assert.equal(tags.includes('halt'), step === 'bootstrap' || step === 'plan_assign', step);
    assert.ok(tags.includes('request_context') && tags.includes('final_output'), step);
  }
});

test('strict flavour: every object requires all its properties and allows no others', () => {
  for (const step of STEPS) {
    const schema = core.stepSchema(step, { strict: true });
    assert.equal(schema.oneOf, undefined, `${step}: strict mode uses anyOf`);
    const nodes = objectNodes(schema);
    assert.ok(nodes.length >= 3, step); // (objects without properties: checkProviderSchema below)
    for (const [at, node] of nodes) {
      assert.equal(node.additionalProperties, false, `${step} ${at}`);
      assert.deepEqual([...node.required].sort(), Object.keys(node.properties).sort(), `${step} ${at}`);
    }
  }
});

test('plain flavour is the default and differs from strict', () => {
  const plain = core.stepSchema('write');
  assert.deepEqual(core.stepSchema('write', {}), plain);
  assert.deepEqual(core.stepSchema('write', { strict: false }), plain);
  assert.notDeepEqual(core.stepSchema('write', { strict: true }), plain);
});

test('the schema carries the spec limits', () => {
  const text = JSON.stringify(core.stepSchema('write'));
  assert.match(text, /"minLength":50/); // Write content ≥ 50 chars
  assert.match(text, /"maxLength":200/); // contentTitle
  assert.match(text, /"maxLength":120/); // shortestSummary
  const rc = core.stepSchema('reflect').oneOf.find((b) => b.properties.responseType.const === 'request_context');
  assert.equal(rc.properties.contextRequests.minItems, 1);
  assert.equal(rc.properties.contextRequests.maxItems, 5);
});

test('a bad step name throws an Error listing the allowed names', () => {
  assert.throws(() => core.stepSchema('planAssign'), (e) => {
    assert.ok(e instanceof Error);
    assert.match(e.message, /unknown step "planAssign"/);
    for (const s of STEPS) assert.ok(e.message.includes(s), s);
    return true;
  });
});

test('bad options throw instead of being read as false', () => {
  assert.throws(() => core.stepSchema('write', { strict: 'yes' }), /strict must be a boolean/);
  assert.throws(() => core.stepSchema('write', 'strict'), /must be an object/);
});

test('checkProviderSchema: the strict flavour meets OpenAI\'s rules; a map, a default and a shared first key do not', () => {
  for (const step of STEPS) {
    // (the committed file names its dialect in `$schema`; the request sends the schema without it)
    const { $schema, ...sent } = core.stepSchema(step, { strict: true });
    assert.ok($schema);
    assert.deepEqual(core.checkProviderSchema('openai_strict', sent), [], step);
  }
  const breaks = core.checkProviderSchema('openai_strict', {
    type: 'object', additionalProperties: false, required: ['personas', 'op'],
    properties: {
      personas: { type: 'object', additionalProperties: { type: 'string' }, default: {} },
      op: { anyOf: [
        { type: 'object', additionalProperties: false, required: ['action'], properties: { action: { const: 'ADD' } } },
        { type: 'object', additionalProperties: false, required: ['action'], properties: { action: { const: 'MOVE' } } },
      ] },
    },
  });
  const said = breaks.map((b) => `${b.at}: ${b.message}`);
  assert.ok(said.some((m) => m.startsWith('/properties/personas: `additionalProperties: false`')), said.join('\n'));
  assert.ok(said.some((m) => m.includes('keyword `default`')), said.join('\n'));
  assert.ok(said.some((m) => m.includes('identical first keys')), said.join('\n'));
  assert.ok(breaks.every((b) => b.sourceUrl.startsWith('https://')));
  assert.throws(() => core.checkProviderSchema('cohere', {}), /unknown schema family/);
});

test('plainAnswer turns a strict answer\'s pair lists back into maps', () => {
  const raw = JSON.stringify({ responseType: 'final_output', personas: [{ key: 'chair-1', value: 'Leads.' }] });
  assert.deepEqual(JSON.parse(core.plainAnswer('bootstrap', raw)).personas, { 'chair-1': 'Leads.' });
  assert.equal(core.plainAnswer('bootstrap', '{"responseType":"final_output"}'), null);
});
