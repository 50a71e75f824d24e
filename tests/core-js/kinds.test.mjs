// The dialectic's and the meeting's functions of the JS module (core-js/src/dialectic.rs,
// meeting.rs), played against the fixture the native core wrote and judged
// (core/tests/fixtures/kinds.json, from core/tests/js_fixtures.rs): every case must get the same
// verdict, the same error pointers and the same answer or document from the wasm build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { core, root } from './load.mjs';

const { cases } = JSON.parse(readFileSync(path.join(root, 'core', 'tests', 'fixtures', 'kinds.json'), 'utf8'));

/** The wasm verdict in the fixture's form: the answer, or the error pointers. */
function asFixture(r) {
  return r.ok ? { ok: true, answer: r.answer } : { ok: false, paths: r.errors.map((e) => e.path) };
}

test('the fixture holds cases of every function, valid and refused', () => {
  const fns = new Set(cases.map((c) => c.fn));
  for (const f of ['checkDialecticConfig', 'checkDialecticAnswer', 'dialecticDocument', 'checkMeetingDecision', 'checkMeetingContribution', 'checkMeetingMinutes']) {
    assert.ok(fns.has(f), f);
  }
  assert.ok(cases.length > 40);
});

cases.forEach((c, i) => {
  test(`${i} ${c.fn} ${c.name ?? ''} ${c.step ?? c.format ?? ''}`, () => {
    switch (c.fn) {
      case 'checkDialecticConfig':
        assert.deepEqual(core.checkDialecticConfig(c.config), c.expect);
        break;
      case 'dialecticDocument':
        assert.deepEqual(core.dialecticDocument(c.config, c.format), c.expect);
        break;
      case 'checkDialecticAnswer':
        assert.deepEqual(asFixture(core.checkDialecticAnswer(c.config, c.step, c.raw)), c.expect);
        break;
      case 'checkMeetingDecision':
        assert.deepEqual(asFixture(core.checkMeetingDecision(c.raw, c.context)), c.expect);
        break;
      case 'checkMeetingContribution':
        assert.deepEqual(asFixture(core.checkMeetingContribution(c.raw)), c.expect);
        break;
      case 'checkMeetingMinutes':
        assert.deepEqual(asFixture(core.checkMeetingMinutes(c.raw, c.owners)), c.expect);
        break;
      default:
        assert.fail(`unknown function ${c.fn}`);
    }
  });
});

test('violations carry the five parts of 002\'s error format, and a fenced answer is recovered with a warning', () => {
  const config = cases.find((c) => c.fn === 'checkDialecticAnswer' && c.step === 'synthesis' && c.config.responseSchema).config;
  const bad = cases.find((c) => c.fn === 'checkDialecticAnswer' && c.step === 'synthesis' && c.config.responseSchema && !c.expect.ok);
  const r = core.checkDialecticAnswer(config, 'synthesis', bad.raw);
  assert.equal(r.ok, false);
  for (const v of r.errors) for (const k of ['path', 'message', 'expected', 'received', 'hint']) assert.equal(typeof v[k], 'string', k);
  assert.ok(r.errors.some((v) => v.path === '/result/decided' && /date/.test(v.message)));
  const good = cases.find((c) => c.fn === 'checkDialecticAnswer' && c.step === 'synthesis' && c.config.responseSchema && c.expect.ok);
  const ok = core.checkDialecticAnswer(config, 'synthesis', good.raw);
  assert.equal(ok.ok, true);
  assert.ok(ok.warnings.length > 0, 'the fence is noted');
});

test('bad arguments throw with a reason; a refused config is an answer, not a throw', () => {
  const config = cases.find((c) => c.fn === 'checkDialecticConfig' && c.expect.ok).config;
  assert.throws(() => core.checkDialecticAnswer(config, 'prologue', '{}'), /unknown step "prologue"/);
  assert.throws(() => core.dialecticDocument(config, 'yaml'), /unknown format "yaml"/);
  assert.throws(() => core.checkMeetingDecision('{}', { attendees: [], phase: 'Retrospective' }), /context/);
  const refused = cases.find((c) => c.fn === 'checkDialecticConfig' && !c.expect.ok);
  const r = core.checkDialecticConfig(refused.config);
  assert.equal(r.ok, false);
  assert.ok(r.errors.some((e) => e.pointer === '/properties/a/$ref'));
  assert.throws(() => core.dialecticDocument(refused.config, 'workflow'), /cannot be created|council/);
});
