// Spec 002's autocoding tools from JS (core-js/src/autocoding.rs): each operation, each phase
// error, and loading a state written by Hegelion or by hand — the way Hegelion's MCP tools are
// used, without the app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { core } from './load.mjs';

const REQUIREMENTS = '- add(a, b) returns the sum\n- add throws a TypeError on non-numbers';

function started(extra = {}) {
  const s = core.autocodingInit({ requirements: REQUIREMENTS, max_turns: 3, ...extra }, 'session-1');
  assert.equal(s.error, undefined, JSON.stringify(s));
  return s;
}

/** One whole turn: player prompt, coach prompt, advance. */
function turn(state, approved, score) {
  const player = core.playerPrompt({ state });
  const coach = core.coachPrompt({ state: player.state });
  return core.autocodingAdvance({ state: coach.state, coach_feedback: `score ${score}`, approved, compliance_score: score });
}

test('init returns spec 002\'s state, field for field, in the player phase', () => {
  assert.deepEqual(started({ session_name: 'adder' }), {
    schema_version: 1,
    session_id: 'session-1',
    session_name: 'adder',
    requirements: REQUIREMENTS,
    current_turn: 0,
    max_turns: 3,
    phase: 'player',
    status: 'active',
    turn_history: [],
    last_coach_feedback: null,
    quality_scores: [],
    approval_threshold: 0.9,
  });
});

test('a bad argument is an error object naming it, as Hegelion\'s are', () => {
  assert.deepEqual(core.autocodingInit({ requirements: 'r', max_turns: 0 }, 'x'), {
    schema_version: 1, tool: 'autocoding_init', error: 'Invalid argument: max_turns', expected: '>=1', received: 0, pointer: '/max_turns',
  });
  assert.equal(core.autocodingInit(undefined, 'x').error, 'Invalid arguments: expected object');
  assert.equal(core.autocodingAdvance({ state: started(), coach_feedback: 'f', approved: 'yes' }).error, 'Invalid argument: approved');
  assert.equal(core.autocodingSingleShot({}).error, 'Invalid argument: requirements');
});

test('playerPrompt moves the state to the coach and shows the files it is given', () => {
  const out = core.playerPrompt({ state: started(), files: [{ path: 'lib/add.js', content: 'module.exports = (a, b) => a + b;' }] });
  assert.equal(out.schema_version, 1);
  assert.equal(out.phase, 'player');
  assert.equal(out.current_phase, 'player');
  assert.equal(out.next_phase, 'coach');
  assert.equal(out.state.phase, 'coach');
  assert.equal(out.requirements_embedded, true);
  assert.match(out.prompt, /## Turn 1 of 3/);
  assert.match(out.prompt, /### lib\/add\.js\n```js\nmodule\.exports/);
  assert.match(out.expected_format, /"files"/);
});

test('coachPrompt keeps the coach phase and shows the test run', () => {
  const coach = core.coachPrompt({
    state: core.playerPrompt({ state: started() }).state,
    files: [{ path: 'add.test.js', content: "test('adds', () => {});" }],
    test_run: { status: 'failed', tests: [{ file: 'add.test.js', name: 'adds', passed: false, message: 'Error: no' }] },
  });
  assert.equal(coach.current_phase, 'coach');
  assert.equal(coach.next_phase, 'coach');
  assert.equal(coach.state.phase, 'coach');
  assert.match(coach.prompt, /0 of 1 tests passed\.\n- FAILED: adds \(add\.test\.js\): Error: no/);
});

test('each tool called in the wrong phase answers with 002\'s phase error', () => {
  const player = started();
  const coach = core.playerPrompt({ state: player }).state;
  assert.deepEqual(core.playerPrompt({ state: coach }), {
    schema_version: 1,
    tool: 'player_prompt',
    error: 'Invalid phase: coach',
    expected: 'player',
    received: 'coach',
    hint: 'If you just called autocoding_init or autocoding_advance, pass that returned state into player_prompt.',
    pointer: '/state/phase',
  });
  const c = core.coachPrompt({ state: player });
  assert.deepEqual([c.tool, c.error, c.expected, c.received], ['coach_prompt', 'Invalid phase: player', 'coach', 'player']);
  const a = core.autocodingAdvance({ state: player, coach_feedback: 'f', approved: true });
  assert.deepEqual([a.tool, a.error, a.expected], ['autocoding_advance', 'Invalid phase: player', 'coach']);
  const done = turn(turn(started(), false, 0.5), true, 0.95);
  assert.equal(done.status, 'approved');
  assert.equal(core.playerPrompt({ state: done }).error, 'Invalid phase: approved');
});

test('advance approves only at the threshold, and times out at max_turns', () => {
  let s = turn(started(), true, 0.85);
  assert.deepEqual([s.phase, s.status, s.current_turn], ['player', 'active', 1]);
  assert.equal(s.turn_history[0].approved, true, "the history keeps the coach's own word");
  s = turn(s, false, 0.6);
  s = turn(s, false, 0.7);
  assert.deepEqual([s.phase, s.status, s.current_turn], ['timeout', 'timeout', 3]);
  assert.deepEqual(s.quality_scores, [0.85, 0.6, 0.7]);
  assert.equal(s.last_coach_feedback, 'score 0.7');
});

test('save writes what load reads; a state Hegelion wrote goes on here', () => {
  const s = turn(started(), false, 0.5);
  const text = core.autocodingSave({ state: s });
  assert.equal(typeof text, 'string');
  assert.deepEqual(core.autocodingLoad(text), { schema_version: 1, state: s, warnings: [] });
  const hegelion = { schema_version: 1, session_id: 'a1b2', session_name: null, requirements: REQUIREMENTS, current_turn: 1, max_turns: 10, phase: 'player', status: 'active', turn_history: [{ turn: 0, feedback: 'no tests', approved: false, score: 0.4 }], last_coach_feedback: 'no tests', quality_scores: [0.4], approval_threshold: 0.9 };
  const loaded = core.autocodingLoad(JSON.stringify(hegelion));
  assert.deepEqual(loaded.state, hegelion);
  assert.match(core.playerPrompt({ state: loaded.state }).prompt, /## The coach's feedback on your last turn\nno tests/);
});

// ---- The state documents of core/tests/autocoding/states.json, as the Rust test plays them. ----

const states = JSON.parse(readFileSync(new URL('../../core/tests/autocoding/states.json', import.meta.url), 'utf8'));

function unescape(token) {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Sets `key` on `obj` as an own data property (never through a `__proto__` setter). */
function put(obj, key, value) {
  if (Array.isArray(obj) && Number(key) === obj.length) obj.push(value);
  else Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A case's text: its `text`, or its base with `set` and `remove` applied. */
function documentOf(c) {
  if (typeof c.text === 'string') return c.text;
  const doc = structuredClone(states.bases[c.from]);
  const parentOf = (pointer) => {
    const parts = pointer.split('/').slice(1).map(unescape);
    const key = parts.pop();
    let at = doc;
    for (const p of parts) at = at[p];
    return [at, key];
  };
  for (const [pointer, value] of Object.entries(c.set ?? {})) {
    const [at, key] = parentOf(pointer);
    put(at, key, value);
  }
  for (const pointer of c.remove ?? []) {
    const [at, key] = parentOf(pointer);
    assert.ok(Object.hasOwn(at, key), pointer);
    delete at[key];
  }
  return JSON.stringify(doc, null, 2);
}

/**
 * A case's name with where its rule is written (`spec`: `002:<line>` of spec 002, or
 * `DESIGN: Autocoding (002)` for a reading where 002 is silent; several joined by `; `), for every
 * failure's message. A case without a well-formed `spec` fails.
 */
function caseName(c) {
  assert.equal(typeof c.spec, 'string', `${c.name}: no \`spec\` (the line of 002 its rule comes from)`);
  for (const part of c.spec.split('; ')) {
    const line = /^002:(\d+)$/.exec(part);
    assert.ok((line && Number(line[1]) >= 1 && Number(line[1]) <= SPEC_002_LINES) || part === 'DESIGN: Autocoding (002)', `${c.name}: \`spec\` is "002:<line>" or "DESIGN: Autocoding (002)", not ${JSON.stringify(part)}`);
  }
  return `${c.name} [${c.spec}]`;
}

/** The lines of spec 002 (not in the repository; a line number past its end is a typo). */
const SPEC_002_LINES = 156;

test('every state document of the Rust fixture gets its verdict and pointers from autocodingLoad', () => {
  assert.ok(states.cases.length >= 60);
  for (const c of states.cases) {
    const name = caseName(c);
    const text = documentOf(c);
    const out = core.autocodingLoad(text);
    const errors = out.error ? out.violations.map((v) => v.path) : [];
    const warnings = out.error ? [] : out.warnings.map((v) => v.path);
    assert.deepEqual(errors, c.errors, `${name}: errors`);
    assert.deepEqual(warnings, c.warnings, `${name}: warnings`);
    assert.equal(out.error ? 'refused' : 'loads', c.verdict, name);
    const found = out.error ? out.violations : out.warnings;
    for (const [pointer, words] of Object.entries(c.expect ?? {})) {
      const v = found.find((x) => x.path === pointer);
      assert.ok(v, `${name}: nothing at ${pointer}`);
      if (words.expected !== undefined) assert.equal(v.expected, words.expected, `${name}: expected at ${pointer}`);
      if (words.received !== undefined) assert.equal(v.received, words.received, `${name}: received at ${pointer}`);
    }
    if (out.error) {
      assert.equal(out.tool, 'autocoding_load');
      assert.equal(out.pointer, c.errors[0], `${name}: the error object's pointer`);
      // Save refuses it too, at the same pointers under /state.
      let doc;
      try { doc = JSON.parse(text); } catch { continue; }
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) continue;
      const saved = core.autocodingSave({ state: doc });
      assert.deepEqual(saved.violations.map((v) => v.path), c.errors.map((p) => `/state${p}`), `${name}: save`);
    } else {
      // Saved, it loads back the same, warnings and all.
      const again = core.autocodingLoad(core.autocodingSave({ state: out.state }));
      assert.deepEqual(again, out, `${name}: save then load`);
    }
  }
});

test('__proto__ and constructor keys come back as data: no prototype is set or polluted', () => {
  const c = states.cases.find((x) => x.name === '__proto__ and constructor are data');
  const out = core.autocodingLoad(c.text);
  assert.equal(out.error, undefined);
  assert.equal(Object.getPrototypeOf(out.state), Object.prototype);
  assert.ok(Object.hasOwn(out.state, '__proto__'));
  assert.deepEqual(Object.getOwnPropertyDescriptor(out.state, '__proto__').value, { polluted: true, phase: 'approved' });
  assert.equal(out.state.phase, 'player');
  assert.equal({}.polluted, undefined);
  assert.equal(Object.prototype.polluted, undefined);
  // Passed on through a tool, the key stays data.
  const next = core.playerPrompt({ state: out.state });
  assert.ok(Object.hasOwn(next.state, '__proto__'));
  assert.equal(Object.getPrototypeOf(next.state), Object.prototype);
  assert.equal(next.state.phase, 'coach');
  // A key missing from the state is not looked up on __proto__.
  const missing = core.autocodingLoad(states.cases.find((x) => x.name === 'a missing phase is not found on __proto__').text);
  assert.equal(missing.pointer, '/phase');
});

test('single shot returns one prompt with the requirements', () => {
  const out = core.autocodingSingleShot({ requirements: REQUIREMENTS, max_turns: 4 });
  assert.deepEqual([out.schema_version, out.phase, out.max_turns, out.requirements], [1, 'single_shot', 4, REQUIREMENTS]);
  assert.match(out.prompt, /at most 4 iterations/);
});

// ---- The tools and the hegelion entry point: core/tests/autocoding/tools.json, as the Rust test plays it. ----

const toolCases = JSON.parse(readFileSync(new URL('../../core/tests/autocoding/tools.json', import.meta.url), 'utf8'));

/** `$name` as the file's state, `$text:name[:field=value]` as its text (one field changed). */
function resolve(v) {
  if (typeof v === 'string' && v.startsWith('$text:')) {
    const [name, change] = v.slice('$text:'.length).split(':');
    const state = structuredClone(toolCases.states[name]);
    if (change) {
      const [field, value] = change.split('=');
      let parsed;
      try { parsed = JSON.parse(value); } catch { parsed = value; }
      state[field] = parsed;
    }
    return JSON.stringify(state, null, 2);
  }
  if (typeof v === 'string' && v.startsWith('$')) return structuredClone(toolCases.states[v.slice(1)]);
  if (Array.isArray(v)) return v.map(resolve);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
  return v;
}

function at(value, pointer) {
  if (pointer === '') return value;
  return pointer.split('/').slice(1).map(unescape).reduce((v, k) => (v == null ? undefined : v[k]), value);
}

const TOOLS = {
  hegelion: (args, id) => core.hegelion(args, id),
  autocoding_init: (args, id) => core.autocodingInit(args, id),
  player_prompt: (args) => core.playerPrompt(args),
  coach_prompt: (args) => core.coachPrompt(args),
  autocoding_advance: (args) => core.autocodingAdvance(args),
  autocoding_single_shot: (args) => core.autocodingSingleShot(args),
  autocoding_save: (args) => core.autocodingSave(args),
  autocoding_load: (args) => core.autocodingLoad(args.text),
};

test('every tool call and the hegelion entry point answer or err as the Rust fixture says', () => {
  let errors = 0;
  for (const c of toolCases.cases) {
    const name = caseName(c);
    if (c.rust_only) continue;
    let answer = TOOLS[c.tool](resolve(c.args), c.session_id);
    if (c.error) {
      errors += 1;
      assert.equal(answer.schema_version, 1, name);
      assert.equal(typeof answer.pointer, 'string', `${name}: every error has a pointer`);
      for (const [field, want] of Object.entries(c.error)) assert.deepEqual(answer[field], want, `${name}: ${field}`);
      continue;
    }
    assert.equal(answer.error, undefined, `${name}: ${JSON.stringify(answer)}`);
    if (typeof answer === 'string') answer = JSON.parse(answer);
    for (const [pointer, want] of Object.entries(c.ok)) assert.deepEqual(at(answer, pointer), resolve(want), `${name}: at ${pointer}`);
  }
  assert.ok(errors >= 25, `the error cases ran: ${errors}`);
});
