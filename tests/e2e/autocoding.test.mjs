// Autocoding (spec 002's player/coach loop) in the browser, on the demo model: a session created
// from the form runs to approval with its code run in the sandbox — a test fails on the first
// turn and passes later, the scores rise — its files shown, diffed and downloaded; exported,
// deleted, imported back and forked at the coach's last call, with no code run again (each sandbox
// run is a frame that loads sandbox.html, counted); the person's approval waits in the inbox and
// a revision's note reaches the player; a run that took the page down is handed in as interrupted
// after a reload, not run again; screenshots at 1440 and 390 px, each checked by axe-core.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist, launch, open, shot, waitStatus, axeViolations, checkWideAndPhone, exportDeleteImport } from './helpers.mjs';



let srv;
let b;
/** Sandbox runs so far: each run loads sandbox/sandbox.html in a fresh frame. */
let runs = 0;
before(async () => {
  srv = await serveDist();
  b = await launch();
  b.page.on('framenavigated', (frame) => {
    if (frame !== b.page.mainFrame() && frame.url().includes('sandbox/sandbox.html')) runs += 1;
  });
});
after(async () => {
  await b?.close();
  await srv?.stop();
});

/** The session id in the address. */
const sessionId = (page) => page.url().split('#/s/')[1].split(/[/@]/)[0];

/** The page's picture of the loop: the status, each turn (oldest first) with its run, score and
 *  unmet requirements, and the chart's points. */
async function picture(page) {
  return page.evaluate(() => ({
    status: document.querySelector('[data-autocoding-status]')?.textContent.trim(),
    turns: [...document.querySelectorAll('article.turn')].reverse().map((t) => ({
      turn: Number(t.dataset.turn),
      run: t.dataset.run,
      score: t.dataset.turnScore ?? null,
      unmet: [...t.querySelectorAll('[data-met="false"]')].map((f) => f.dataset.requirement),
      failed: t.querySelectorAll('[data-test-passed="false"]').length,
    })),
    points: [...document.querySelectorAll('.score-chart circle')].map((c) => c.dataset.score),
  }));
}

let originalId;
let finished;

test('a demo session runs to approval with its code run in the sandbox: a test fails early, passes later, and the scores rise', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="autocoding"]');
  await page.waitForSelector('form[data-form="autocoding"]');
  // 002's defaults, on the demo model.
  assert.equal(await page.inputValue('input[name="max-turns"]'), '10');
  assert.equal(await page.inputValue('input[name="threshold"]'), '0.9');
  assert.equal(await page.locator('[data-member="player"] input[name="player-model"]').inputValue(), 'demo-1');
  assert.deepEqual(await axeViolations(page), [], 'the form passes axe-core');
  // Empty requirements are refused, nothing created.
  await page.click('button[name="create-autocoding"]');
  await page.waitForSelector('[data-error="autocoding"]:has-text("requirements are empty")');
  await page.click('button[name="use-demo-requirements"]');
  await page.click('button[name="create-autocoding"]');
  await page.waitForSelector('.autocoding');
  originalId = sessionId(page);
  assert.equal(await page.getAttribute('.session', 'data-status'), 'draft');
  assert.equal(await page.locator('.autocoding .requirements li').count(), 4);

  // One turn: the player writes, the sandbox runs the tests, the coach reviews.
  await page.click('button[name="round"]');
  await page.waitForSelector('article.turn[data-turn="1"][data-turn-score]', { timeout: 60000 });
  await waitStatus(page, 'paused');
  assert.equal(runs, 1, 'the first turn ran once');
  let p = await picture(page);
  assert.deepEqual(p.turns, [{ turn: 1, run: '1 of 4 tests passed', score: '0.25', unmet: ['R2', 'R3', 'R4'], failed: 3 }]);
  const first = await page.textContent('article.turn[data-turn="1"]');
  assert.match(first, /expected "creme-brulee", got "crème-brûlée"/, 'the feedback says why');

  // The rest, to approval.
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 120000);
  p = await picture(page);
  assert.equal(p.status, 'Approved after 3 of 10 turns');
  assert.deepEqual(p.turns.map((t) => [t.run, t.score, t.unmet.join(',')]), [
    ['1 of 4 tests passed', '0.25', 'R2,R3,R4'],
    ['3 of 4 tests passed', '0.75', 'R4'],
    ['4 of 4 tests passed', '1.00', ''],
  ]);
  assert.deepEqual(p.points, ['0.25', '0.75', '1.00']);
  assert.equal(runs, 3, 'each turn\'s code ran once');
  finished = p;

  // The files of the last turn against the first: the slug module changed, the tests did not.
  await page.selectOption('select[name="files-against"]', '1');
  await page.waitForSelector('.files-panel [data-file="lib/slugify.js"][data-change="changed"]');
  assert.equal(await page.getAttribute('.files-panel [data-file="slugify.test.js"]', 'data-change'), 'unchanged');
  assert.ok(await page.locator('.files-panel [data-file="lib/slugify.js"] .diff .add').count() > 3);
  const [bundle] = await Promise.all([page.waitForEvent('download'), page.click('button[name="download-turn"]')]);
  assert.match(bundle.suggestedFilename(), /\.turn-3\.txt$/);
  const text = readFileSync(await bundle.path(), 'utf8');
  assert.match(text, /the files of turn 3 \(2 files\)/);
  assert.match(text, /=+ lib\/slugify\.js =+\n\/\/ stage 3/);

  // 002's state, as autocoding_save writes it.
  const [state] = await Promise.all([page.waitForEvent('download'), page.click('.session-head button[name="export-002"]')]);
  const saved = JSON.parse(readFileSync(await state.path(), 'utf8'));
  assert.deepEqual([saved.phase, saved.status, saved.current_turn, saved.quality_scores], ['approved', 'approved', 3, [0.25, 0.75, 1]]);

  await checkWideAndPhone(page, 'autocoding-done');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('exported, imported and forked at the coach\'s call, the session runs no code again', async () => {
  const { page } = b;
  assert.ok(originalId, 'the session of the test before');
  await open(page, srv.url, `#/s/${originalId}`);
  await waitStatus(page, 'done');
  const before = runs;
  const file = await exportDeleteImport(page, srv.url, originalId, 'autocoding');
  assert.equal(file.kind, 'autocoding');
  assert.equal(file.events.filter((e) => e.kind.type === 'effect_done').length, 3, 'the runs travel in the file');
  await page.waitForSelector('.autocoding');
  await waitStatus(page, 'done');
  assert.deepEqual(await picture(page), finished, 'the imported session shows the same');
  assert.equal(runs, before, 'importing ran nothing');

  // Fork at the coach's last call (the third turn's review; the timeline lists the newest first):
  // the fork asks the coach again, from the run the file holds.
  const coachCalls = page.locator('.timeline .call-line', { has: page.locator('button.link', { hasText: /coach/i }) });
  assert.equal(await coachCalls.count(), 3);
  await coachCalls.first().locator('button[name="fork"]').click();
  const dialog = page.locator('.fork-dialog[role="dialog"]');
  await dialog.waitFor();
  const importedId = sessionId(page);
  await dialog.locator('button[name="make-fork"]').click();
  await page.waitForFunction((o) => !location.hash.includes(o), importedId);
  await page.waitForSelector('.autocoding');
  await waitStatus(page, 'paused');
  const kept = await picture(page);
  assert.deepEqual(
    kept.turns.map((t) => [t.run, t.score]),
    [['1 of 4 tests passed', '0.25'], ['3 of 4 tests passed', '0.75'], ['4 of 4 tests passed', null]],
    'the fork keeps every run, the third review to be made again',
  );
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 120000);
  const forked = await picture(page);
  assert.equal(forked.status, 'Approved after 3 of 10 turns');
  assert.deepEqual(forked.points, finished.points);
  assert.equal(runs, before, 'the fork ran no code: the third turn\'s run came from the log');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('with the person\'s approval, the coach\'s alone does not end it: a revision\'s note reaches the player, then approve', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="autocoding"]');
  await page.click('button[name="use-demo-requirements"]');
  await page.check('input[name="person-approval"]');
  await page.click('button[name="create-autocoding"]');
  await page.waitForSelector('.autocoding');
  await page.click('button[name="run"]');
  const halt = page.locator('[data-dialog="halt"]');
  await halt.waitFor({ timeout: 120000 });
  await waitStatus(page, 'awaiting_person');
  assert.match(await halt.textContent(), /The coach approves turn 3 at or over the threshold \(0\.9\)[\s\S]*Score 1\.00; approved\./);
  await halt.locator('textarea[name="halt-answer"]').fill('Keep digits: "Top 10 tips" must give top-10-tips.');
  await halt.locator('button[name="revise"]').click();
  // Turn 4 runs; its player was told the note; the coach approves again and waits.
  await page.locator('[data-dialog="halt"]:has-text("approves turn 4")').waitFor({ timeout: 120000 });
  assert.match(await page.textContent('article.turn[data-turn="3"] [data-person]'), /asked for a revision: Keep digits/);
  await page.locator('[data-dialog="halt"] button[name="approve"]').click();
  await waitStatus(page, 'done', 60000);
  assert.equal((await picture(page)).status, 'Approved after 4 of 10 turns');
  await shot(page, 'autocoding-approved-by-person-1440');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('a run that took the page down is handed in as interrupted on the next run, never run again', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="autocoding"]');
  await page.click('button[name="use-demo-requirements"]');
  await page.click('button[name="create-autocoding"]');
  await page.waitForSelector('.autocoding');
  const id = sessionId(page);
  // The sandbox's page never arrives: the run hangs as a crashed one would have left it, with
  // its crash-guard mark stored before it started.
  const hang = () => {};
  await page.route('**/sandbox/sandbox.html', hang);
  await page.click('button[name="run"]');
  await page.waitForSelector('[data-running-code="true"]', { timeout: 60000 });
  // The page goes away mid-run and comes back. The hanging route stays until the old page is
  // gone, so its sandbox frame can never arrive late and count as a run of the new page.
  await page.reload();
  await page.waitForSelector('.autocoding');
  await waitStatus(page, 'paused');
  await page.unroute('**/sandbox/sandbox.html', hang);
  const before = runs;
  await page.click('button[name="round"]');
  await page.waitForSelector('article.turn[data-turn="1"][data-turn-score]', { timeout: 60000 });
  await waitStatus(page, 'paused');
  assert.equal(runs, before, 'the interrupted run was not run again');
  const turn = page.locator('article.turn[data-turn="1"]');
  assert.equal(await turn.getAttribute('data-run'), 'crashed the page');
  await turn.locator('summary:has-text("Test results")').click();
  assert.match(await turn.textContent(), /the code crashed the page \(probably ran out of memory\); it is not run again/);
  // The next turn runs its code as usual.
  await page.click('button[name="round"]');
  await page.waitForSelector('article.turn[data-turn="2"][data-turn-score]', { timeout: 60000 });
  assert.equal(runs, before + 1, 'the next turn ran once');
  assert.deepEqual(b.errors, [], 'no page errors');
});

/** A state as Hegelion's autocoding saves it, `turns` coach turns in, with `over` laid on top. */
function savedState(requirements, turns, over = {}) {
  const history = Array.from({ length: turns }, (_, i) => ({ turn: i, feedback: `Turn ${i + 1}: not yet.`, approved: false, score: 0.1 * (i + 1) }));
  return {
    schema_version: 1, session_id: '3f1c9a', session_name: 'slugs', requirements,
    current_turn: turns, max_turns: 5, phase: 'player', status: 'active',
    turn_history: history, last_coach_feedback: history.at(-1)?.feedback ?? null,
    quality_scores: history.map((t) => t.score), approval_threshold: 0.9, ...over,
  };
}

/** What the form shows of the loaded state. */
async function report(page) {
  await page.waitForSelector('.saved-state-report');
  return page.evaluate(() => {
    const r = document.querySelector('.saved-state-report');
    return {
      status: r.dataset.savedState,
      continues: r.dataset.continues ?? null,
      words: r.querySelector('[data-saved-status]')?.textContent.trim() ?? null,
      turn: r.querySelector('[data-saved-turn]')?.dataset.savedTurn ?? null,
      cards: [...r.querySelectorAll('article.turn')].map((t) => Number(t.dataset.turn)).reverse(),
      warnings: [...r.querySelectorAll('li[data-kind="warning"]')].map((l) => l.dataset.pointer),
      errors: [...r.querySelectorAll('li[data-kind="error"]')].map((l) => l.dataset.pointer),
      axis: [...r.querySelectorAll('.score-chart [data-axis]')].map((t) => t.textContent),
      readonly: ['textarea[name="requirements"]', 'input[name="max-turns"]', 'input[name="threshold"]'].map((q) => document.querySelector(q).readOnly),
    };
  });
}

test('a saved state of every status loads from a file, by picker and by drop, and is shown as it is', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="autocoding"]');
  await page.click('button[name="use-demo-requirements"]');
  const requirements = await page.inputValue('textarea[name="requirements"]');
  // The saved state comes before the fields it sets, and the button that uses them comes last.
  const order = await page.evaluate(() => ['[data-drop="saved-state"]', 'textarea[name="requirements"]', 'input[name="max-turns"]', '[data-member="coach"]', 'button[name="create-autocoding"]']
    .map((q) => document.querySelector(q))
    .every((el, i, all) => i === 0 || (all[i - 1].compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)));
  assert.ok(order, 'saved state, requirements, limits, models, then the button');
  const dir = mkdtempSync(join(tmpdir(), 'rt-saved-'));
  const file = (name, state) => {
    const path = join(dir, name);
    writeFileSync(path, typeof state === 'string' ? state : JSON.stringify(state, null, 2));
    return path;
  };
  const done = (phase, status, turns, last) => {
    const s = savedState(requirements, turns, { phase, status });
    Object.assign(s.turn_history[turns - 1], last);
    s.last_coach_feedback = s.turn_history[turns - 1].feedback;
    s.quality_scores = s.turn_history.map((t) => t.score).filter((x) => x !== null);
    return s;
  };
  const cases = [
    ['active.json', savedState(requirements, 2), { status: 'active', continues: 'true', words: 'Turn 3 of 5: the player writes', turn: '2 of 5', cards: [1, 2], warnings: [] }],
    ['approved.json', done('approved', 'approved', 3, { approved: true, score: 0.95, feedback: 'All met.' }), { status: 'approved', continues: 'false', words: 'Approved after 3 of 5 turns', turn: '3 of 5', cards: [1, 2, 3], warnings: [] }],
    ['timeout.json', done('timeout', 'timeout', 5, {}), { status: 'timeout', continues: 'false', words: 'Out of turns: 5 of 5 without approval', turn: '5 of 5', cards: [1, 2, 3, 4, 5], warnings: [] }],
    ['rejected.json', done('coach', 'rejected', 2, { approved: true, score: 0.95 }), { status: 'rejected', continues: 'false', words: 'Rejected by you after 2 turns', turn: '2 of 5', cards: [1, 2], warnings: [] }],
    ['coach-word.json', done('approved', 'approved', 1, { approved: true, score: null, feedback: 'COACH APPROVED' }), { status: 'approved', continues: 'false', words: 'Approved after 1 of 5 turns', turn: '1 of 5', cards: [1], warnings: ['/turn_history/0/score'] }],
    ['extra.json', { ...savedState(requirements, 1), notes: 'from the CLI' }, { status: 'active', continues: 'true', words: 'Turn 2 of 5: the player writes', turn: '1 of 5', cards: [1], warnings: ['/notes'] }],
  ];
  for (const [name, state, want] of cases) {
    await page.setInputFiles('input[name="saved-state-file"]', file(name, state));
    await page.waitForSelector(`label:has-text("Read from “${name}”")`);
    const r = await report(page);
    assert.deepEqual(
      { status: r.status, continues: r.continues, words: r.words, turn: r.turn, cards: r.cards, warnings: r.warnings },
      want, name,
    );
    assert.deepEqual(r.axis, ['0', '1'], `${name}: the chart marks 0 and 1`);
    assert.deepEqual(r.readonly, [true, true, true], `${name}: the state's own requirements, turn limit and threshold`);
    assert.equal(await page.inputValue('input[name="max-turns"]'), '5');
    assert.equal(await page.inputValue('input[name="threshold"]'), '0.9');
    if (name === 'approved.json') await shot(page, 'autocoding-saved-approved');
  }
  // An ended state is viewed, never continued: the button says why, nothing is created.
  await page.setInputFiles('input[name="saved-state-file"]', file('timeout-again.json', cases[2][1]));
  await page.waitForSelector('label:has-text("Read from “timeout-again.json”")');
  await page.click('button[name="create-autocoding"]');
  await page.waitForSelector('[data-error="autocoding"]:has-text("cannot be continued")');
  assert.ok(page.url().includes('#/new'));
  // A state that breaks the rules is refused at each pointer, by drag-and-drop too.
  const broken = savedState(requirements, 2);
  delete broken.current_turn;
  broken.quality_scores = [0.1];
  const drop = async (name, text) => {
    const dt = await page.evaluateHandle(([name, text]) => {
      const d = new DataTransfer();
      d.items.add(new File([text], name, { type: 'application/json' }));
      return d;
    }, [name, text]);
    await page.dispatchEvent('[data-drop="saved-state"]', 'dragover', { dataTransfer: dt });
    await page.dispatchEvent('[data-drop="saved-state"]', 'drop', { dataTransfer: dt });
  };
  await drop('broken.json', JSON.stringify(broken));
  await page.waitForSelector('label:has-text("Read from “broken.json”")');
  let r = await report(page);
  assert.equal(r.status, 'refused');
  assert.deepEqual(r.errors, ['/current_turn']);
  await drop('disagrees.json', JSON.stringify({ ...savedState(requirements, 2), quality_scores: [0.1] }));
  await page.waitForSelector('label:has-text("Read from “disagrees.json”")');
  r = await report(page);
  assert.deepEqual(r.errors, ['/quality_scores']);
  assert.deepEqual(r.readonly, [false, false, false], 'a refused state sets nothing');
  await drop('approved-again.json', JSON.stringify(cases[1][1]));
  await page.waitForSelector('label:has-text("Read from “approved-again.json”")');
  assert.equal((await report(page)).status, 'approved');
  assert.deepEqual(await axeViolations(page), [], 'the form with a loaded state passes axe-core');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('a state Hegelion saved goes on in the app: the session shows its own turn, budget, timeline and turns', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="autocoding"]');
  await page.click('button[name="use-demo-requirements"]');
  const requirements = await page.inputValue('textarea[name="requirements"]');
  const saved = savedState(requirements, 1);
  const dir = mkdtempSync(join(tmpdir(), 'rt-saved-'));
  writeFileSync(join(dir, 'slugs.json'), JSON.stringify(saved));
  await page.setInputFiles('input[name="saved-state-file"]', join(dir, 'slugs.json'));
  assert.equal((await report(page)).continues, 'true');
  await page.click('button[name="create-autocoding"]');
  await page.waitForSelector('.autocoding');
  // Before it runs, the page stands where the state stands: one turn played of five.
  const head = await page.textContent('.session-head .session-state');
  assert.match(head, /turn 1 of 5/);
  assert.equal((await page.textContent('[data-autocoding-status]')).trim(), 'Turn 2 of 5: the player writes');
  assert.equal((await page.textContent('section[aria-label="Timeline"] .panel-body strong')).trim(), 'Turn 1');
  let p = await picture(page);
  assert.deepEqual(p.turns.map((t) => [t.turn, t.score]), [[1, '0.10']]);
  assert.match(await page.textContent('article.turn[data-turn="1"] [data-saved-feedback]'), /Turn 1: not yet\./);
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 120000);
  p = await picture(page);
  assert.equal(p.status, 'Approved after 4 of 5 turns');
  assert.deepEqual(p.turns.map((t) => t.turn), [1, 2, 3, 4]);
  assert.deepEqual(p.points, ['0.10', '0.25', '0.75', '1.00'], 'the saved score leads the chart');
  assert.match(await page.textContent('.session-head .session-state'), /finished in 4 turns/);
  const [state] = await Promise.all([page.waitForEvent('download'), page.click('.session-head button[name="export-002"]')]);
  const out = JSON.parse(readFileSync(await state.path(), 'utf8'));
  assert.deepEqual([out.session_id, out.session_name, out.current_turn, out.quality_scores], ['3f1c9a', 'slugs', 4, [0.1, 0.25, 0.75, 1]]);
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('"Try a demo of autocoding" on the home page opens a session on the demo model, ready to run', async () => {
  const { page } = b;
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="autocoding"]');
  await page.waitForSelector('form[data-form="autocoding"]');
  await shot(page, 'autocoding-form-390');
  assert.deepEqual(await axeViolations(page), [], 'the form at 390 px passes axe-core');
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, srv.url, '#/');
  await page.click('button[name="demo-autocoding"]');
  await page.waitForSelector('.autocoding');
  assert.equal(await page.getAttribute('.session', 'data-status'), 'draft');
  assert.equal(await page.locator('.autocoding .requirements li').count(), 4);
  await page.click('button[name="step"]');
  await page.waitForSelector('article.turn[data-turn="1"][data-run="1 of 4 tests passed"]', { timeout: 60000 });
  assert.deepEqual(b.errors, [], 'no page errors');
});
