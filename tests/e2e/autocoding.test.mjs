// Autocoding (spec 002's player/coach loop) in the browser, on the demo model: a session created
// from the form runs to approval with its code run in the sandbox — a test fails on the first
// turn and passes later, the scores rise — its files shown, diffed and downloaded; exported,
// deleted, imported back and forked at the coach's last call, with no code run again (each sandbox
// run is a frame that loads sandbox.html, counted); the person's approval waits in the inbox and
// a revision's note reaches the player; a run that took the page down is handed in as interrupted
// after a reload, not run again; screenshots at 1440 and 390 px, each checked by axe-core.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
  assert.equal(await turn.getAttribute('data-run'), 'failed to start');
  await turn.locator('summary:has-text("Test results")').click();
  assert.match(await turn.textContent(), /interrupted: the code crashed the page \(probably ran out of memory\)/);
  // The next turn runs its code as usual.
  await page.click('button[name="round"]');
  await page.waitForSelector('article.turn[data-turn="2"][data-turn-score]', { timeout: 60000 });
  assert.equal(runs, before + 1, 'the next turn ran once');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('a state Hegelion saved goes on in the app: its turn and score carry on', async () => {
  const { page } = b;
  const saved = {
    schema_version: 1, session_id: '3f1c9a', session_name: 'slugs', requirements: 'the form\'s requirements are used',
    current_turn: 1, max_turns: 10, phase: 'player', status: 'active',
    turn_history: [{ turn: 0, feedback: 'Nothing runs yet.', approved: false, score: 0.1 }],
    last_coach_feedback: 'Nothing runs yet.', quality_scores: [0.1], approval_threshold: 0.9,
  };
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="autocoding"]');
  await page.click('button[name="use-demo-requirements"]');
  await page.fill('input[name="max-turns"]', '5');
  // A state in the coach phase cannot be gone on from: said with its reason, nothing created.
  await page.fill('textarea[name="saved-state"]', JSON.stringify({ ...saved, phase: 'coach' }));
  await page.click('button[name="create-autocoding"]');
  await page.waitForSelector('[data-error="autocoding"]:has-text("in the coach phase")');
  await page.fill('textarea[name="saved-state"]', JSON.stringify(saved));
  await page.click('button[name="create-autocoding"]');
  await page.waitForSelector('.autocoding');
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 120000);
  const p = await picture(page);
  assert.equal(p.status, 'Approved after 4 of 5 turns');
  assert.deepEqual(p.turns.map((t) => t.turn), [2, 3, 4]);
  assert.deepEqual(p.points, ['0.10', '0.25', '0.75', '1.00'], 'the saved score leads the chart');
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
