// validateStep through the built Node package: verdicts, values, defaults, known ids, options.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { core, STEPS } from './load.mjs';

const VIOLATION_KEYS = ['expected', 'hint', 'message', 'path', 'received'];
const presentation = (messages, extra = {}) => JSON.stringify({ responseType: 'final_output', messages, ...extra });
const hello = [{ content: 'Here is the launch plan.', asAgent: 'envoy' }];

test('a valid answer gives ok, the parsed value and no warnings', () => {
  const r = core.validateStep('presentation', presentation(hello));
  assert.deepEqual(r, { ok: true, value: { responseType: 'final_output', messages: hello }, warnings: [] });
});

test('value: false gives the verdict only', () => {
  const r = core.validateStep('presentation', presentation(hello), null, { value: false });
  assert.deepEqual(r, { ok: true, warnings: [] });
  const bad = core.validateStep('presentation', presentation([]), undefined, { value: false });
  assert.equal(bad.ok, false);
  assert.equal(bad.errors[0].path, '/messages');
});

test('omitted default lists are filled with [] in the value, per step', () => {
  const cases = {
    reflect: [{ reflections: [] }, ['collabs', 'remarks']],
    plan_assign: [
      { thinking: { roundStrategy: 'a', acceptanceRationale: 'b' } },
      ['treeOperations', 'assignments', 'acceptance', 'remarks'],
    ],
    write: [{}, ['versions', 'collabs', 'remarks']],
    peer_review: [{ reviews: [] }, ['collabs', 'remarks']],
    // An inspection inspects at least one version (issue 19 point 12).
    inspection: [
      { inspections: [{ productId: 'p1', versionId: 'v1', assessment: 'approved', findings: [] }] },
      ['collabs', 'remarks'],
    ],
  };
  for (const [step, [body, lists]] of Object.entries(cases)) {
    const r = core.validateStep(step, JSON.stringify({ responseType: 'final_output', ...body }));
    assert.equal(r.ok, true, `${step}: ${JSON.stringify(r.errors)}`);
    for (const k of lists) assert.deepEqual(r.value[k], [], `${step}.${k}`);
    // optional (non-default) fields stay absent
    assert.equal('chairVersions' in r.value, false, step);
  }
  // lists that were sent are kept as sent
  const sent = [{ recipients: ['user-1'], type: 'note', content: 'FYI' }];
  const r = core.validateStep('write', JSON.stringify({ responseType: 'final_output', remarks: sent }));
  assert.deepEqual(r.value.remarks, sent);
  assert.deepEqual(r.value.versions, []);
});

test('defaults are not added to request_context or halt answers', () => {
  const rc = { responseType: 'request_context', contextRequests: [{ productId: 'p1', need: 'full_content', reason: 'need it' }] };
  assert.deepEqual(core.validateStep('write', JSON.stringify(rc)).value, rc);
  const halt = { responseType: 'halt', halt: { type: 'question', to: ['user-1'], message: 'Which market?' } };
  assert.deepEqual(core.validateStep('plan_assign', JSON.stringify(halt)).value, halt);
});

test('an invalid answer gives every error, each a full violation, and a repair prompt', () => {
  const raw = JSON.stringify({
    responseType: 'final_output',
    reviews: [{ productId: 'p1', versionId: 'v1', assessment: 'rejected', summary: 'no' }],
    collabs: [{ refersToProduct: 'p1', type: 'feedback', importance: 11, comment: 'x', shortestSummary: 'y' }],
  });
  const r = core.validateStep('peer_review', raw);
  assert.equal(r.ok, false);
  assert.deepEqual(r.errors.map((e) => e.path), ['/reviews/0/assessment', '/collabs/0/importance']);
  for (const e of r.errors) {
    assert.deepEqual(Object.keys(e).sort(), VIOLATION_KEYS);
    for (const k of VIOLATION_KEYS) assert.equal(typeof e[k], 'string');
  }
  assert.match(r.errors[0].received, /rejected/);
  assert.match(r.errors[0].expected, /approved/);
  assert.equal('value' in r, false);
  assert.equal(typeof r.repairPrompt, 'string');
  assert.match(r.repairPrompt, /PeerReview/);
  assert.match(r.repairPrompt, /\/reviews\/0\/assessment/);
  assert.match(r.repairPrompt, /\/collabs\/0\/importance/);
});

test('halt is refused outside bootstrap and plan_assign', () => {
  const raw = JSON.stringify({ responseType: 'halt', halt: { type: 'done', to: ['user-1'], message: 'Done.' } });
  for (const step of STEPS) {
    const r = core.validateStep(step, raw, null, { value: false });
    assert.equal(r.ok, step === 'bootstrap' || step === 'plan_assign', step);
    if (!r.ok) assert.equal(r.errors[0].path, '/responseType', step);
  }
});

test('recovery from a fence, prose and trailing commas: ok, with warnings, value parsed', () => {
  const raw = 'Sure, here it is:\n```json\n{"responseType":"final_output","messages":[{"content":"Hi","asAgent":"envoy",},],}\n```\nAnything else?';
  const r = core.validateStep('presentation', raw);
  assert.equal(r.ok, true, JSON.stringify(r.errors));
  assert.deepEqual(r.value, { responseType: 'final_output', messages: [{ content: 'Hi', asAgent: 'envoy' }] });
  assert.ok(r.warnings.length >= 3);
  assert.ok(r.warnings.every((w) => w.path === ''));
  assert.ok(r.warnings.some((w) => /fence/.test(w.message)));
});

test('a BOM is dropped and reported', () => {
  const r = core.validateStep('presentation', '\uFEFF' + presentation(hello));
  assert.equal(r.ok, true);
  assert.deepEqual(r.value.messages, hello);
  assert.equal(r.warnings.length, 1);
});

test('text that holds no JSON object is one error at the whole answer', () => {
  const r = core.validateStep('write', 'I could not finish the task, sorry.');
  assert.equal(r.ok, false);
  assert.equal(r.errors.length, 1);
  assert.equal(r.errors[0].path, '');
});

test('unknown extra fields are warnings; the value keeps them as sent', () => {
  const r = core.validateStep('presentation', presentation(hello, { mood: 'happy' }));
  assert.equal(r.ok, true);
  assert.deepEqual(r.warnings.map((w) => w.path), ['/mood']);
  assert.equal(r.value.mood, 'happy');
});

test('known: ids must exist; omitted known checks the shape only', () => {
  const raw = JSON.stringify({
    responseType: 'final_output',
    reviews: [{ productId: 'p9', versionId: 'v1', assessment: 'approved', summary: 'Good.' }],
  });
  assert.equal(core.validateStep('peer_review', raw).ok, true);
  const known = { products: ['p1'], versions: ['v1'], members: ['chair'], collabs: [] };
  const r = core.validateStep('peer_review', raw, known);
  assert.equal(r.ok, false);
  assert.deepEqual(r.errors.map((e) => e.path), ['/reviews/0/productId']);
  assert.match(r.errors[0].hint, /p1/);
  // a partial known object: the missing lists count as empty
  const r2 = core.validateStep('peer_review', raw.replace('p9', 'p1'), { products: ['p1'] });
  assert.deepEqual(r2.errors.map((e) => e.path), ['/reviews/0/versionId']);
});

test('known from a tree: new-N ids introduced by an ADD may be assigned in the same answer', () => {
  const known = { ...core.knownFromTree(core.newTree('Root')), members: ['chair', 'operative-1'] };
  const answer = {
    responseType: 'final_output',
    thinking: { roundStrategy: 'Start.', acceptanceRationale: 'Nothing yet.' },
    treeOperations: [
      { action: 'ADD', newId: 'new-1', parentId: 'p0', product: { name: 'Brief', type: 'Content', dod: 'One page.' } },
    ],
    assignments: [{ productId: 'new-1', assignee: 'operative-1', directive: { objective: 'Draft', dod: 'Done', why: 'Start' } }],
  };
  assert.equal(core.validateStep('plan_assign', JSON.stringify(answer), known).ok, true);
  answer.assignments[0].productId = 'new-2';
  const r = core.validateStep('plan_assign', JSON.stringify(answer), known);
  assert.equal(r.ok, false);
  assert.deepEqual(r.errors.map((e) => e.path), ['/assignments/0/productId']);
});

test('truncated: an invalid answer is reported as cut off', () => {
  const cut = presentation(hello).slice(0, 40);
  const r = core.validateStep('presentation', cut, null, { truncated: true });
  assert.equal(r.ok, false);
  assert.match(r.errors[0].message, /cut off/);
  assert.match(r.repairPrompt, /cut off/);
});

test('a bad step name throws an Error listing the allowed names', () => {
  for (const bad of ['PlanAssign', 'plan-assign', '', 'review']) {
    assert.throws(() => core.validateStep(bad, '{}'), (e) => {
      assert.ok(e instanceof Error);
      assert.match(e.message, /unknown step/);
      for (const s of STEPS) assert.ok(e.message.includes(s), s);
      return true;
    });
  }
});

test('a bad known throws and says what is wrong', () => {
  const raw = presentation(hello);
  assert.throws(() => core.validateStep('presentation', raw, ['p1']), /known must be an object/);
  assert.throws(() => core.validateStep('presentation', raw, 'p1'), /known must be an object/);
  assert.throws(() => core.validateStep('presentation', raw, { products: 'p1' }), /known.products must be an array/);
  assert.throws(() => core.validateStep('presentation', raw, { products: ['p1', 2] }), /known.products\[1\] must be a string/);
  assert.throws(() => core.validateStep('presentation', raw, { product: ['p1'] }), /unknown key "product"/);
});

test('bad options or a non-string answer throw', () => {
  const raw = presentation(hello);
  assert.throws(() => core.validateStep('presentation', raw, null, { value: 'no' }), /options.value must be a boolean/);
  assert.throws(() => core.validateStep('presentation', raw, null, { truncated: 1 }), /options.truncated must be a boolean/);
  assert.throws(() => core.validateStep('presentation', raw, null, 'fast'), /options must be an object/);
  assert.throws(() => core.validateStep('presentation', { responseType: 'final_output' }), /raw must be a string/);
});

test('non-ASCII text survives the trip (chars counted as chars, value intact)', () => {
  const content = 'Café — “naïve” 😀 '.repeat(10);
  const r = core.validateStep('presentation', presentation([{ content, asAgent: 'envoy' }]));
  assert.equal(r.ok, true);
  assert.equal(r.value.messages[0].content, content);
  // shortestSummary max 120 chars: 120 emoji are 240 UTF-16 units but 120 chars
  const collab = (s) =>
    JSON.stringify({
      responseType: 'final_output',
      reviews: [],
      collabs: [{ refersToProduct: 'p1', type: 'feedback', importance: 5, comment: 'c', shortestSummary: s }],
    });
  assert.equal(core.validateStep('peer_review', collab('😀'.repeat(120)), null, { value: false }).ok, true);
  const over = core.validateStep('peer_review', collab('😀'.repeat(121)), null, { value: false });
  assert.deepEqual(over.errors.map((e) => e.path), ['/collabs/0/shortestSummary']);
  // the refusal crosses as ASCII JSON with \u escapes: the text comes back whole
  assert.match(over.errors[0].received, /^121 chars: 😀😀/);
  assert.ok(over.repairPrompt.includes(over.errors[0].received), over.repairPrompt);
  const enumMiss = core.validateStep('peer_review', collab('ok').replace('"feedback"', '"naïve — “x” 😀"'));
  assert.equal(enumMiss.errors[0].received, '"naïve — “x” 😀"');
});

test('an all-ASCII answer and a repaired one give the same value as JSON.parse', () => {
  const body = { responseType: 'final_output', messages: [{ content: 'plain ascii '.repeat(500), asAgent: 'envoy' }] };
  const raw = JSON.stringify(body);
  assert.deepEqual(core.validateStep('presentation', raw).value, body);
  assert.deepEqual(core.validateStep('presentation', '```json\n' + raw + '\n```').value, body);
});

test('long non-ASCII answers cross intact (the buffer grows past its first guess)', () => {
  for (const content of ['😀é—'.repeat(2000), 'a'.repeat(3000) + '“quoted” 😀'.repeat(1500), 'é'.repeat(1023) + '😀']) {
    const raw = presentation([{ content, asAgent: 'envoy' }]);
    const r = core.validateStep('presentation', raw);
    assert.equal(r.ok, true, JSON.stringify(r.errors));
    assert.equal(r.value.messages[0].content, content);
    // a repaired answer is parsed from the copy that crossed, so the copy itself must be exact
    const fenced = core.validateStep('presentation', '```json\n' + raw + '\n```');
    assert.equal(fenced.value.messages[0].content, content);
  }
});

test('with the value, a clean long answer is built from the checker\'s tape, not parsed again', async () => {
  const { corpus } = await import('../../bench/corpus.mjs');
  assert.equal(core.benchValueBuilder(), true, 'on Node the tape builder is compiled');
  for (const c of corpus().filter((x) => x.valid && x.size === '20KB' && x.step !== 'bootstrap')) {
    // the checker wrote a whole tape for it (bootstrap's free `personas` keys give it up)
    assert.ok(core.benchValueTape(c.step, c.raw) > 0, `${c.name}: a tape`);
    // and the value built from it is exactly JSON.parse's (plus the default lists)
    const value = core.validateStep(c.step, c.raw).value;
    for (const [k, v] of Object.entries(JSON.parse(c.raw))) assert.deepEqual(value[k], v, `${c.name}: ${k}`);
    assert.deepEqual(Object.keys(value).slice(0, Object.keys(JSON.parse(c.raw)).length), Object.keys(JSON.parse(c.raw)));
  }
  // What the tape cannot say falls back to JSON.parse, with the same result.
  const extra = JSON.stringify({ responseType: 'final_output', messages: [{ content: 'é'.repeat(1500), asAgent: 'envoy' }], note: 1 });
  assert.equal(core.benchValueTape('presentation', extra), undefined, 'an unknown field gives the tape up');
  const r = core.validateStep('presentation', extra);
  assert.equal(r.ok, true);
  assert.equal(r.value.note, 1);
  assert.equal(r.value.messages[0].content, 'é'.repeat(1500));
});
