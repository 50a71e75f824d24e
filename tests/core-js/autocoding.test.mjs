// Spec 002's autocoding tools from JS (core-js/src/autocoding.rs): each operation, each phase
// error, and loading a state written by Hegelion or by hand — the way Hegelion's MCP tools are
// used, without the app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
    schema_version: 1, tool: 'autocoding_init', error: 'Invalid argument: max_turns', expected: '>=1', received: 0,
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
  assert.equal(s.turn_history[0].approved, false);
  s = turn(s, false, 0.6);
  s = turn(s, false, 0.7);
  assert.deepEqual([s.phase, s.status, s.current_turn], ['timeout', 'timeout', 3]);
  assert.deepEqual(s.quality_scores, [0.85, 0.6, 0.7]);
  assert.equal(s.last_coach_feedback, 'score 0.7');
});

test('save writes what load reads; load checks a state field by field with pointers', () => {
  const s = turn(started(), false, 0.5);
  const text = core.autocodingSave({ state: s });
  assert.equal(typeof text, 'string');
  assert.deepEqual(core.autocodingLoad(text), s);
  const bad = core.autocodingLoad(JSON.stringify({ session_id: 'x', requirements: 'r', phase: 'review', quality_scores: [2] }));
  assert.equal(bad.tool, 'autocoding_load');
  assert.match(bad.error, /^Invalid autocoding state: phase/);
  assert.deepEqual(bad.violations.map((v) => v.path), ['/phase', '/quality_scores/0']);
  // A state Hegelion wrote is continued here.
  const hegelion = { schema_version: 1, session_id: 'a1b2', session_name: null, requirements: REQUIREMENTS, current_turn: 1, max_turns: 10, phase: 'player', status: 'active', turn_history: [{ turn: 0, feedback: 'no tests', approved: false, score: 0.4 }], last_coach_feedback: 'no tests', quality_scores: [0.4], approval_threshold: 0.9 };
  const loaded = core.autocodingLoad(JSON.stringify(hegelion));
  assert.deepEqual(loaded, hegelion);
  assert.match(core.playerPrompt({ state: loaded }).prompt, /## The coach's feedback on your last turn\nno tests/);
});

test('single shot returns one prompt with the requirements', () => {
  const out = core.autocodingSingleShot({ requirements: REQUIREMENTS, max_turns: 4 });
  assert.deepEqual([out.schema_version, out.phase, out.max_turns, out.requirements], [1, 'single_shot', 4, REQUIREMENTS]);
  assert.match(out.prompt, /at most 4 iterations/);
});
