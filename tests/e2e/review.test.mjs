// The review loop (spec 004, issue 22) in the browser, on the demo model: a bad config in the
// new-session form shows every problem core finds and creates nothing; the home page's demo runs
// to the orchestrator's request for approval, which waits in the inbox (the header counts it,
// "Later" puts it aside and the count brings it back) and is approved there; the run goes on to
// its reconciliation — the board of the seven roles, every gate met, a critic trigger, a
// revision packet and a fan-out with the calls they point to, two runs of the implementer's
// tests in the real sandbox (failed, then passed), the files with their versions and diffs;
// then exported, deleted, imported back (the same page, no code run again), opened from a share
// link in a fresh profile, and forked at the verifier's last call and run to the end again; a
// revision's note reaches the orchestrator and a rejection stops the run; with edits needing
// approval, each implementation waits in the inbox too; an approval waiting across a reload still
// waits, and approving it repeats no answered call; screenshots at 1440 and 390 px, each checked
// by axe-core.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serveDist, launch, open, shot, waitStatus, axeViolations, checkWideAndPhone, exportDeleteImport, throughShareLink } from './helpers.mjs';



let srv;
let b;
/** Sandbox runs so far: each run loads sandbox/sandbox.html in a fresh frame. */
let runs = 0;
before(async () => {
  srv = await serveDist();
  b = await launch();
  await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
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

/** The page's picture of the run: the status, the board, the gates, the artifacts, the runs, the
 *  files and the reconciliation. */
async function picture(page) {
  return page.evaluate(() => ({
    status: document.querySelector('[data-review-status]')?.textContent.trim(),
    roles: [...document.querySelectorAll('.role-card')].map((c) => ({
      role: c.dataset.role,
      status: c.dataset.roleStatus,
      verdict: c.querySelector('header [data-verdict]')?.dataset.verdict ?? null,
      slots: [...c.querySelectorAll('[data-slot]')].map((s) => `${s.dataset.slot}:${s.dataset.slotStatus}`),
    })),
    gates: [...document.querySelectorAll('[data-gate]')].map((g) => `${g.dataset.gate}:${g.dataset.met}`),
    artifacts: [...document.querySelectorAll('[data-artifact]')].map((a) => a.dataset.artifact),
    runs: [...document.querySelectorAll('[data-runtime-run]')].map((r) => r.dataset.runStatus),
    runWords: [...document.querySelectorAll('[data-runtime-run]')].map((r) => r.textContent.replace(/\s+/g, ' ').trim()),
    files: [...document.querySelectorAll('.files-panel [data-file]')].map((f) => `${f.dataset.file}:${f.dataset.versions}`),
    decisions: [...document.querySelectorAll('[data-decision]')].map((d) => d.dataset.decision),
    reconciliation: document.querySelector('[data-reconciliation]')?.dataset.reconciliation ?? null,
  }));
}

let originalId;
let finished;
/** The calls of the demo run, in the timeline. */
let calls;

test('a bad config shows every problem core finds, and nothing is created', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="review"]');
  await page.waitForSelector('form[data-form="review"]');
  // thehood's defaults, on the demo model.
  assert.equal(await page.inputValue('input[name="max-iterations"]'), '40');
  assert.equal(await page.inputValue('input[name="fanout-max"]'), '3');
  assert.equal(await page.inputValue('input[name="time-budget"]'), '');
  assert.equal(await page.locator('input[name="approval-mode"][value="manual"]').isChecked(), true);
  assert.equal(await page.locator('[data-member="members"] input[name="members-model"]').inputValue(), 'demo-1');
  assert.deepEqual(await axeViolations(page), [], 'the form passes axe-core');
  // Five things wrong at once: each said, all together.
  await page.fill('input[name="max-iterations"]', '0');
  await page.fill('input[name="fanout-max"]', '9');
  await page.fill('input[name="time-budget"]', '0');
  await page.fill('textarea[name="protected-paths"]', '../outside.test.js');
  await page.click('button[name="create-review"]');
  await page.waitForSelector('[data-error="review"] [data-problem]');
  const problems = await page.locator('[data-error="review"] [data-problem]').allTextContents();
  for (const want of [/goal is empty/, /success criterion/, /call limit must be from 1/i, /fan-out runs 1 to 8/, /time budget of 0/, /protected test path "\.\.\/outside\.test\.js"/i]) {
    assert.ok(problems.some((p) => want.test(p)), `${want} among ${JSON.stringify(problems)}`);
  }
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.error), 'review', 'focus goes to the problems');
  // Each field with a problem says so to a screen reader; the others do not.
  for (const f of ['textarea[name="goal"]', 'textarea[name="criteria"]', 'input[name="max-iterations"]', 'input[name="fanout-max"]', 'input[name="time-budget"]', 'textarea[name="protected-paths"]']) {
    assert.equal(await page.getAttribute(f, 'aria-invalid'), 'true', f);
  }
  assert.equal(await page.getAttribute('input[name="token-budget"]', 'aria-invalid'), 'false');
  assert.ok(page.url().endsWith('#/new'), 'still on the form');
  await shot(page, 'review-form-problems');
  // Nothing was stored.
  await open(page, srv.url, '#/');
  await page.waitForSelector('text=No sessions yet.');

  // Put right, it creates a draft with what was typed.
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="review"]');
  await page.click('button[name="use-demo-goal"]');
  await page.fill('input[name="fanout-max"]', '4');
  await page.check('input[name="approval-mode"][value="autopilot"]');
  // The verifier on a model of its own; the others keep the shared one.
  await page.check('input[name="own-models"]');
  assert.equal(await page.locator('[data-member="verifier"] input[name="verifier-model"]').inputValue(), 'demo-1');
  await page.fill('[data-member="verifier"] input[name="verifier-model"]', 'demo-2');
  await page.click('button[name="create-review"]');
  await page.waitForSelector('.review');
  assert.equal(await page.getAttribute('.session', 'data-status'), 'draft');
  assert.match(await page.textContent('.review-status .goal'), /Write parse\(text\) for \.env-style config files/);
  assert.equal(await page.locator('.role-card').count(), 7);
  // Models by their names, on each card since the roles do not share one.
  assert.match(await page.textContent('.role-card[data-role="verifier"] .byline'), /· demo model, second voice$/);
  assert.match(await page.textContent('.role-card[data-role="implementer"] .byline'), /· demo model$/);
  assert.equal(await page.locator('.every-model').count(), 0);

  // On a phone the form fits and passes axe-core.
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="review"]');
  await page.waitForSelector('form[data-form="review"]');
  await page.check('input[name="own-models"]');
  await shot(page, 'review-form-390');
  assert.deepEqual(await axeViolations(page), [], 'the form at 390 px passes axe-core');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing scrolls sideways');
  await page.setViewportSize({ width: 1440, height: 900 });
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('the demo runs to its reconciliation: approved through the inbox, the critic summoned, the repair passing in the sandbox', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.click('button[name="demo-review"]');
  await page.waitForSelector('.review');
  originalId = sessionId(page);
  assert.equal(await page.getAttribute('.session', 'data-status'), 'draft');
  let p = await picture(page);
  assert.deepEqual(p.roles.map((r) => `${r.role}:${r.status}`), [
    'orchestrator:not called yet', 'planner:not called yet', 'researcher:not called yet', 'implementer:not called yet',
    'QA tester:not called yet', 'verifier:not called yet', 'critic:not called yet',
  ]);
  assert.equal(await page.locator('button[name="inbox"]').count(), 0, 'an empty inbox has no count');
  // Every role shares the demo model: said once, by its name, and on no card.
  assert.equal((await page.textContent('#panel-board .every-model')).trim(), 'Every role runs on demo model.');
  assert.equal(await page.locator('.role-card .model-ref').count(), 0);

  // Run: the plan, the fan-out of two researchers, then the orchestrator asks for approval.
  await page.click('button[name="run"]');
  const halt = page.locator('[data-dialog="halt"]');
  await halt.waitFor({ timeout: 120000 });
  await waitStatus(page, 'awaiting_person');
  assert.match(await halt.textContent(), /approve it before the implementer writes lib\/config\.js/);
  assert.equal(await page.getAttribute('button[name="inbox"]', 'data-open-asks'), '1', 'the header counts the open ask');
  assert.equal(await page.getAttribute('[data-open-approvals]', 'data-open-approvals'), '1');
  assert.equal(await page.locator('[data-approval="open"]').count(), 1, 'the approvals list shows it waiting');
  assert.match(await page.textContent('.role-card[data-role="orchestrator"] header'), /waits for you/, 'the board says who waits');
  assert.ok((await picture(page)).gates.includes('Verifier approval:false'), 'nothing is verified yet');
  assert.equal(runs, 0, 'no code ran before the approval');
  // Later puts it aside; the header's count brings it back.
  await halt.locator('button:has-text("Later")').click();
  await halt.waitFor({ state: 'detached' });
  await page.click('button[name="inbox"]');
  await halt.waitFor();
  await halt.locator('button[name="approve"]').click();

  // The implementation, its failing run, QA, the critic, the packet, the repair, the pass.
  await waitStatus(page, 'done', 180000);
  await page.waitForSelector('[data-reconciliation="complete"]');
  p = await picture(page);
  assert.equal(await page.locator('button[name="inbox"]').count(), 0, 'the inbox is empty again');
  assert.match(await page.textContent('[data-approval="decided"]'), /The person approved it\./);
  assert.match(p.status, /completed: every gate met/);
  assert.deepEqual(p.gates, ['Verifier approval:true', 'Runtime QA:true', 'No open approval:true']);
  assert.deepEqual(p.artifacts, ['critic_trigger-1', 'revision_packet-1', 'fanout-1']);
  assert.deepEqual(p.runs, ['failed', 'passed']);
  assert.match(p.runWords[0], /1 of 3 tests passed/);
  // The failed run's message says the sandbox's values in words, not as JSON.
  assert.match(p.runWords[0], /expected an object with a “1” and b “2”, got an object with/);
  assert.match(p.runWords[1], /3 of 3 tests passed/);
  assert.equal(runs, 2, 'the runtime ran the files twice, in the sandbox');
  assert.deepEqual(p.files, ['lib/config.js:2', 'test/config.test.js:1']);
  const byRole = Object.fromEntries(p.roles.map((r) => [r.role, r]));
  assert.equal(byRole.verifier.verdict, 'approve');
  assert.equal(byRole['QA tester'].verdict, 'pass');
  assert.equal(byRole.orchestrator.verdict, 'complete');
  assert.deepEqual(byRole.researcher.slots, ['1:ok', '2:ok'], 'the fan-out\'s two researchers');
  assert.match(await page.textContent('.role-card[data-role="researcher"] header'), /answered in a fan-out/);
  assert.ok(p.decisions.includes('request_approval') && p.decisions.at(-1) === 'complete', p.decisions.join());
  // The repair's diff: the second version of the parser adds the blank-line skip.
  const parser = page.locator('.files-panel [data-file="lib/config.js"] [data-version="2"]');
  assert.ok(await parser.evaluate((d) => d.open), 'the latest version is open');
  assert.ok((await parser.locator('.diff .add').allTextContents()).some((l) => l.includes("startsWith('#')")));
  assert.ok(await parser.locator('.diff .del').count() > 0);
  // A revision packet points to the calls behind it; one opens its transcript.
  const packet = page.locator('[data-artifact="revision_packet-1"]');
  assert.ok(await packet.locator('button[data-call]').count() >= 1, 'the packet links the answers that caused it');
  await packet.locator('summary').click();
  assert.match(await packet.locator('pre').textContent(), /"repairObjective"/);
  await packet.locator('button[data-call]').first().click();
  await page.waitForSelector('.dialog[aria-labelledby="transcript-title"]');
  await page.keyboard.press('Escape');
  await page.waitForSelector('.dialog[aria-labelledby="transcript-title"]', { state: 'detached' });
  // The packet names the trigger behind it: a button takes focus to that artifact on the page.
  await packet.locator('button[data-jump-to="critic_trigger-1"]').click();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.artifact), 'critic_trigger-1');
  // The trigger names the runtime's failed run: a button takes focus to it.
  await page.locator('[data-artifact="critic_trigger-1"] button[data-jump-to="effect-1"]').click();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.runStatus), 'failed');
  // A plan, rendered from Markdown (its table too).
  const plan = page.locator('[data-report="Plan v1"]');
  await plan.locator('summary').click();
  assert.equal(await plan.locator('.markdown table').count(), 1);
  finished = p;
  calls = await page.locator('.timeline .call-line').count();

  // A person's words: no record or run ids, no spec number, no run id, no raw verdict words
  // outside the raw records (shown verbatim in code), and the finished history is not "Live".
  const shown = await page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.querySelector('.session') ?? document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest('pre, code, .msg, [data-section]') || !el.getClientRects().length) continue;
      if (n.textContent.trim()) out.push(n.textContent.trim());
    }
    return out.join('\n');
  });
  for (const [re, what] of [
    [/\b(critic_trigger|revision_packet|fanout|effect)-\d+\b/, 'a record or run id'],
    [/\b004\b/, 'a spec number'],
    [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/, 'a run id'],
    [/\b(needs_revision|request_approval|revise_plan|ask_user|no_change)\b/, 'a raw verdict word'],
    [/\bLive\b/, '"Live" on a finished run'],
    [/[{[]\s*"|"\s*:\s*["{[\d]/, 'raw JSON (the failed run\'s message included)'],
  ]) {
    assert.doesNotMatch(shown, re, `${what} on the finished review page`);
  }
  assert.match(shown, /Latest/, 'the finished history says Latest');
  assert.match(await page.textContent('.role-card[data-role="researcher"]'), /2 slots ran at the same time/);
  assert.match(await page.textContent('[data-artifact="fanout-1"] h3'), /2 researchers at the same time/);
  // The report: a person's account, the raw records in a collapsed appendix.
  const [report] = await Promise.all([page.waitForEvent('download'), page.click('.session-head button[name="report"]')]);
  const md = readFileSync(await report.path(), 'utf8');
  const [body, appendix] = md.split('## Appendix');
  assert.ok(appendix, 'the report ends with an appendix of the raw records');
  // Folded: the one <details> construct the app's renderer and HTML-rendering viewers collapse.
  assert.match(appendix, /^\n\n<details>\n<summary>The runtime's records, as written<\/summary>\n/);
  assert.match(appendix, /\n<\/details>\n$/);
  assert.match(appendix, /### The critic was called \(1\): QA found a failure\n/);
  assert.match(appendix, /"schemaVersion": 1/);
  assert.match(body, /## Who took part\nEvery role ran on one model: demo model\.\n\n- Olga \(orchestrator\): orchestrator\n/);
  assert.match(body, /Olga \(orchestrator\) asks for your approval/);
  assert.match(body, /Run 1 \(the files after Ivo \(implementer\)'s implementation, iteration 3\): failed/);
  for (const [re, what] of [
    [/\b(critic_trigger|revision_packet|fanout|effect|call)-\d+\b/, 'an id'],
    [/\b004\b/, 'a spec number'],
    [/"schemaVersion"/, 'raw JSON'],
    [/[{[]\s*"|"\s*:\s*["{[\d]/, 'raw JSON (the failed run\'s message included)'],
  ]) {
    assert.doesNotMatch(body, re, `${what} in the report before its appendix`);
  }

  await checkWideAndPhone(page, 'review-done');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('exported, imported, shared and forked at the verifier\'s last call, the run shows the same and runs no code again', async () => {
  const { page } = b;
  assert.ok(originalId, 'the run of the test before');
  await open(page, srv.url, `#/s/${originalId}`);
  await waitStatus(page, 'done');
  const before = runs;
  const file = await exportDeleteImport(page, srv.url, originalId, 'review');
  assert.equal(file.kind, 'review');
  assert.equal(file.events.filter((e) => e.kind.type === 'effect_done').length, 2, 'the runs travel in the file');
  await page.waitForSelector('.review');
  await waitStatus(page, 'done');
  await page.waitForSelector('[data-reconciliation="complete"]');
  assert.deepEqual(await picture(page), finished, 'the imported run shows the same');
  assert.equal(runs, before, 'importing ran nothing');

  // A share link opens the same run, read-only, in a fresh profile.
  assert.deepEqual(await throughShareLink(page, '[data-reconciliation="complete"]', picture), finished, 'the link shows the same');

  // Fork at the verifier's last call (the timeline lists the newest first): the fork asks the
  // verifier again, from the runs the file holds, and goes on to its own reconciliation.
  const verifierCalls = page.locator('.timeline .call-line[data-member="verifier"]');
  assert.ok(await verifierCalls.count() >= 1);
  await verifierCalls.first().locator('button[name="fork"]').click();
  const dialog = page.locator('.fork-dialog[role="dialog"]');
  await dialog.waitFor();
  const importedId = sessionId(page);
  await dialog.locator('button[name="make-fork"]').click();
  await page.waitForFunction((o) => !location.hash.includes(o), importedId);
  await page.waitForSelector('.review');
  await waitStatus(page, 'paused');
  const kept = await picture(page);
  assert.deepEqual(kept.runs, ['failed', 'passed'], 'the fork keeps both runs');
  assert.equal(kept.reconciliation, null, 'the fork is not reconciled yet');
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 120000);
  await page.waitForSelector('[data-reconciliation="complete"]');
  const forked = await picture(page);
  assert.deepEqual(forked.gates, finished.gates);
  assert.deepEqual(forked.artifacts, finished.artifacts);
  assert.equal(runs, before, 'the fork ran no code: its runs came from the log');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('a revision\'s note reaches the orchestrator, who asks again; a rejection stops the run, and no code runs', async () => {
  const { page } = b;
  await open(page, srv.url, '#/');
  await page.click('button[name="demo-review"]');
  await page.waitForSelector('.review');
  const before = runs;
  await page.click('button[name="run"]');
  const halt = page.locator('[data-dialog="halt"]');
  await halt.waitFor({ timeout: 120000 });
  // A revision needs a note; with one, it goes back to the orchestrator.
  await halt.locator('button[name="revise"]').click();
  await halt.locator('[role="alert"]:has-text("needs a note")').waitFor();
  const NOTE = 'Name the line number in the error message.';
  await halt.locator('textarea[name="halt-answer"]').fill(NOTE);
  await halt.locator('button[name="revise"]').click();
  // The orchestrator decides again, with the note, and asks again (iteration 4).
  await page.waitForSelector('[data-review-status^="Iteration 4 ·"]', { timeout: 120000 });
  await waitStatus(page, 'awaiting_person');
  assert.equal(await page.getAttribute('button[name="inbox"]', 'data-open-asks'), '1');
  assert.match(await page.textContent('[data-banner="question"]'), /Olga \(orchestrator\) asks for your approval/);
  // The revised request stays listed with the person's note; the new one waits.
  assert.match(await page.textContent('[data-approval="decided"]'), /asked for a revision: Name the line number/);
  assert.equal(await page.locator('[data-approval="open"]').count(), 1);
  await halt.locator('button:has-text("Later")').click();
  // Its call, newest first in the timeline.
  await page.locator('.timeline .call-line[data-member="orchestrator"] button.link').first().click();
  const transcript = page.locator('.dialog[aria-labelledby="transcript-title"]');
  await transcript.waitFor();
  assert.ok((await transcript.locator('[data-section="messages"]').textContent()).includes(NOTE), 'the orchestrator read the note');
  await page.keyboard.press('Escape');
  await transcript.waitFor({ state: 'detached' });
  // Rejected (from the approvals list's own button): the run stops, nothing was implemented,
  // no code ran.
  await page.click('[data-approval="open"] button[name="open-inbox"]');
  await halt.locator('button[name="reject"]').click();
  await waitStatus(page, 'done', 120000);
  await page.waitForSelector('[data-reconciliation]');
  const p = await picture(page);
  assert.match(p.status, /rejected an approval/);
  assert.notEqual(p.reconciliation, 'complete');
  assert.ok(p.gates.includes('Verifier approval:false'));
  assert.deepEqual(p.runs, []);
  assert.equal(runs, before, 'no code ran');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('what the policy names waits in the inbox too: with edits needing approval, each implementation asks', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="review"]');
  await page.click('button[name="use-demo-goal"]');
  await page.check('input[name="edit-requires-approval"]');
  await page.click('button[name="create-review"]');
  await page.waitForSelector('.review');
  await page.click('button[name="run"]');
  // Each ask, approved in the inbox as it comes, until the run is done.
  const asked = [];
  while ((await waitStatus(page, ['done', 'awaiting_person'], 180000)) === 'awaiting_person') {
    const halt = page.locator('[data-dialog="halt"]');
    await halt.waitFor();
    assert.equal(await page.getAttribute('button[name="inbox"]', 'data-open-asks'), '1');
    asked.push((await halt.locator('.markdown').textContent()).trim());
    await halt.locator('button[name="approve"]').click();
    await page.waitForFunction(() => document.querySelector('.session')?.dataset.status !== 'awaiting_person');
  }
  assert.equal(asked.length, 3, asked.join('\n'));
  // Each ask said once: the dialog's title names who asks, the message what.
  assert.match(asked[0], /^The plan is ready: approve it/);
  assert.match(asked[1], /^It wants to write lib\/config\.js \(parse reads key=value lines\.\), test\/config\.test\.js/);
  assert.match(asked[2], /^It wants to write lib\/config\.js \(Skips blanks and comments/);
  for (const a of asked) assert.doesNotMatch(a, /asks (you|for your approval)/, a);
  await page.waitForSelector('[data-reconciliation="complete"]');
  assert.equal(await page.locator('[data-approval="decided"]').count(), 3, 'each decision listed');
  assert.deepEqual((await picture(page)).runs, ['failed', 'passed']);
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('an approval waiting when the page reloads still waits, and approving it repeats no answered call', async () => {
  const { page } = b;
  assert.ok(calls > 0, 'the demo run of the test before');
  await open(page, srv.url, '#/');
  await page.click('button[name="demo-review"]');
  await page.waitForSelector('.review');
  await page.click('button[name="run"]');
  await page.locator('[data-dialog="halt"]').waitFor({ timeout: 120000 });
  const before = await page.locator('.timeline .call-line').count();
  await page.reload();
  await page.waitForSelector('.review');
  await waitStatus(page, 'awaiting_person');
  await page.locator('[data-dialog="halt"]').waitFor();
  assert.equal(await page.getAttribute('button[name="inbox"]', 'data-open-asks'), '1');
  assert.equal(await page.locator('.timeline .call-line').count(), before, 'the reload made no call');
  await page.locator('[data-dialog="halt"] button[name="approve"]').click();
  await waitStatus(page, 'done', 180000);
  await page.waitForSelector('[data-reconciliation="complete"]');
  assert.equal(await page.locator('.timeline .call-line').count(), calls, 'as many calls as the run with no reload');
  assert.deepEqual(b.errors, [], 'no page errors');
});
