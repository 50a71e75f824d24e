// A dialectic (spec 002, Hegelion) in the browser, on the demo model: a bad JSON Schema refused in
// the form with nothing created; a dialectic with the council created from the form, run to its
// synthesis (thesis, three critique cards, synthesis); its 002 document downloaded; exported,
// deleted, imported back (the same view); opened from a share link; forked with a critic on the
// demo's second voice and the fork run; the columns stacked at phone width; the home page's demo.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveDist, launch, open, shot, waitStatus, OUTPUT, throughShareLink } from './helpers.mjs';

let srv;
let b;
before(async () => {
  srv = await serveDist();
  b = await launch();
  await b.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
});
after(async () => {
  await b?.close();
  await srv?.stop();
});

const QUERY = 'Should a small software company move to a four-day work week?';
const CRITICS = ['logician', 'empiricist', 'ethicist'];

/** The page's picture of the dialectic: each card's status and text, the synthesis. */
async function picture(page) {
  return page.evaluate(() => {
    const text = (el) => el?.textContent.replace(/\s+/g, ' ').trim() ?? null;
    return {
      phases: [...document.querySelectorAll('.dialectic nav.phases li')].map((li) => `${li.dataset.phase}:${li.dataset.phaseStatus}`),
      // The thesis as written, without its byline (which names the model only while the roles'
      // models differ).
      thesis: (() => {
        const body = document.querySelector('[data-card="thesis"] .panel-body')?.cloneNode(true);
        body?.querySelector('.byline')?.remove();
        return text(body);
      })(),
      critiques: [...document.querySelectorAll('[data-card="critique"]')].map((c) => `${c.dataset.critic}:${c.dataset.status}:${text(c)}`),
      synthesis: text(document.querySelector('[data-card="synthesis"] .panel-body')),
    };
  });
}

/** The session id in the address. */
const sessionId = (page) => page.url().split('#/s/')[1].split(/[/@]/)[0];

test('a bad JSON Schema is shown at its field with its keyword, and nothing is created', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="dialectic"]');
  await page.waitForSelector('form[data-form="dialectic"]');
  // The defaults: the council of three on the demo model, the five styles each with its line.
  assert.equal(await page.locator('input[name="response-style"]').count(), 5);
  assert.equal(await page.locator('input[name="use-council"]').isChecked(), true);
  assert.deepEqual(
    await page.$$eval('[data-member]', (els) => els.map((e) => e.dataset.member)),
    [...CRITICS, 'thesis', 'synthesis'],
  );
  assert.equal(await page.locator('[data-member="logician"] input[name="critic-model"]').inputValue(), 'demo-1');
  await page.waitForSelector('[data-note="search"]:has-text("no search was made")');
  // An empty query is refused at its field.
  await page.click('button[name="create-dialectic"]');
  await page.waitForSelector('[data-error="query"]:has-text("query is empty")');
  assert.equal(await page.evaluate(() => document.activeElement?.name), 'query');
  // With the json style, a schema with a pattern that needs backtracking is refused at its place.
  await page.fill('textarea[name="query"]', QUERY);
  await page.check('input[name="response-style"][value="json"]');
  await page.fill('textarea[name="response-schema"]', JSON.stringify({
    type: 'object', properties: { verdict: { type: 'string', pattern: '^(?=[a-z])' } },
  }));
  await page.click('button[name="create-dialectic"]');
  await page.waitForSelector('[data-error="schema"]:has-text("at /properties/verdict/pattern: the pattern uses a lookaround")');
  assert.equal(await page.textContent('[data-error="query"]'), '', 'the query is fine now');
  assert.equal(await page.getAttribute('textarea[name="response-schema"]', 'aria-invalid'), 'true');
  // Text that is not JSON says so.
  await page.fill('textarea[name="response-schema"]', '{"type": ');
  await page.click('button[name="create-dialectic"]');
  await page.waitForSelector('[data-error="schema"]:has-text("JSON Schema of the answer, at the root: the schema is not valid JSON")');
  // A council of one is refused at the critics.
  await page.click('[data-member="empiricist"] button:has-text("Remove")');
  await page.click('[data-member="ethicist"] button:has-text("Remove")');
  await page.click('button[name="create-dialectic"]');
  await page.waitForSelector('[data-error="critics"]:has-text("at least two critics")');
  await shot(page, 'dialectic-form-errors');
  assert.ok(page.url().endsWith('#/new'), 'still on the form');
  await open(page, srv.url, '#/');
  await page.waitForSelector('text=No sessions yet.');
  assert.deepEqual(b.errors, [], 'no page errors');
});

let originalId;
let finished;

test('a dialectic with the council runs from the form to its synthesis, and travels as files', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="dialectic"]');
  await page.fill('textarea[name="query"]', QUERY);
  await page.fill('[data-member="ethicist"] textarea[name="critic-persona"]', 'You check who bears the costs: the staff, the customers, and those left out of the framing.');
  await page.click('button[name="add-source"]');
  await page.fill('input[name="source-title"]', 'Pilot notes');
  await page.fill('textarea[name="source-text"]', 'A 2023 pilot at a 40-person firm kept output flat while sick days fell by a third.');
  await shot(page, 'dialectic-form-1440');
  await page.click('button[name="create-dialectic"]');
  await page.waitForSelector('.dialectic');
  originalId = sessionId(page);
  assert.equal(await page.getAttribute('.session', 'data-status'), 'draft');
  assert.match(await page.textContent('.session-head'), /pass \d of 1/);
  let p = await picture(page);
  assert.deepEqual(p.phases, ['Thesis:waiting', 'Critiques:waiting', 'Synthesis:waiting']);
  assert.deepEqual(p.critiques.map((c) => c.split(':').slice(0, 2).join(':')), CRITICS.map((c) => `${c}:waiting`));
  await page.waitForSelector('[data-section="sources"]:has-text("Pilot notes")');
  // One phase: the thesis is written, the critiques wait.
  await page.click('button[name="step"]');
  await page.waitForSelector('.dialectic nav.phases li[data-phase="Thesis"][data-phase-status="done"]', { timeout: 60000 });
  await waitStatus(page, 'paused');
  p = await picture(page);
  assert.ok(p.thesis.length > 100, p.thesis);
  assert.ok(p.critiques.every((c) => c.split(':')[1] === 'waiting'), p.critiques.join('\n'));
  // The rest: the council's three critiques and the synthesis.
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 120000);
  p = await picture(page);
  assert.deepEqual(p.phases, ['Thesis:done', 'Critiques:done', 'Synthesis:done']);
  assert.equal(p.critiques.length, 3);
  for (const [i, c] of p.critiques.entries()) {
    assert.ok(c.startsWith(`${CRITICS[i]}:done:`), c.slice(0, 80));
    // Every role on one model: no card names it (issue 33); the summary line says it once.
    assert.doesNotMatch(c, /demo\/demo-1|demo model/);
  }
  assert.match(await page.textContent('.dialectic-meta'), /every role: demo model$/);
  assert.ok(new Set(p.critiques.map((c) => c.split(':').slice(2).join(':'))).size === 3, 'three different critiques');
  assert.ok(await page.locator('[data-card="critique"] [data-contradiction]').count() >= 3, 'contradictions with evidence');
  assert.match(await page.textContent('[data-card="critique"] [data-contradiction]'), /evidence:/);
  assert.ok(p.synthesis.length > 100, p.synthesis);
  assert.ok(await page.locator('[data-card="synthesis"] [data-proposal]').count() >= 1, 'research proposals');
  await page.waitForSelector('[data-banner="done"]:has-text("synthesis")');
  finished = p;
  await shot(page, 'dialectic-done-1440');

  // The 002 document of the run, beside the session file.
  const [doc] = await Promise.all([page.waitForEvent('download'), page.click('.session-head button[name="export-002"]')]);
  assert.match(doc.suggestedFilename(), /\.dialectical_workflow\.json$/);
  const workflow = JSON.parse(readFileSync(await doc.path(), 'utf8'));
  assert.equal(workflow.query, QUERY);
  assert.equal(workflow.schema_version, 1);
  assert.equal(workflow.workflow_type, 'prompt_driven_dialectic');
  assert.deepEqual(workflow.steps.map((s) => s.name), [
    'Generate Thesis',
    'Generate Antithesis (The Logician)', 'Generate Antithesis (The Empiricist)', 'Generate Antithesis (The Ethicist)',
    'Generate Synthesis',
  ]);
  assert.deepEqual(Object.keys(workflow.steps[0].prompt).sort(), ['expected_format', 'instructions', 'phase', 'prompt']);
  assert.equal(workflow.instructions.response_style, 'sections');
  // The same dialectic as 002's one prompt: the single shot's fields and `format`.
  const [one] = await Promise.all([page.waitForEvent('download'), page.click('.session-head button[name="export-single-prompt"]')]);
  assert.match(one.suggestedFilename(), /\.single_prompt\.json$/);
  const single = JSON.parse(readFileSync(await one.path(), 'utf8'));
  assert.deepEqual(Object.keys(single).sort(), ['format', 'prompt', 'query', 'response_style', 'schema_version', 'use_council', 'use_search']);
  assert.equal(single.format, 'single_prompt');
  assert.equal(single.use_council, true);
  assert.match(single.prompt, /## The Logician/);

  // Export, delete, import: the same view.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('.session-head button[name="export"]')]);
  const path = join(OUTPUT, 'dialectic.roundtable.json');
  await download.saveAs(path);
  const first = JSON.parse(readFileSync(path, 'utf8'));
  assert.equal(first.kind, 'dialectic');
  await open(page, srv.url, '#/');
  await page.click(`tr[data-session-id="${originalId}"] button:has-text("Delete")`);
  await page.click('dialog[data-dialog="ask"] button[name="ask-confirm"]');
  await page.waitForSelector('text=No sessions yet.');
  await page.setInputFiles('#import-file', path);
  await page.waitForSelector('.dialectic');
  await waitStatus(page, 'done');
  assert.deepEqual(await picture(page), finished, 'the imported dialectic shows the same');
  originalId = sessionId(page);
  const [again] = await Promise.all([page.waitForEvent('download'), page.click('.session-head button[name="export"]')]);
  const second = JSON.parse(readFileSync(await again.path(), 'utf8'));
  assert.deepEqual(second.events, first.events);

  // A share link opens the same dialectic, read-only, in a fresh profile.
  assert.deepEqual(await throughShareLink(page, '.dialectic', picture), finished, 'the link shows the same');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('a fork with a critic on demo-2 runs to its own synthesis', async () => {
  const { page } = b;
  assert.ok(originalId, 'the dialectic of the test before');
  await open(page, srv.url, `#/s/${originalId}`);
  await waitStatus(page, 'done');
  // The Empiricist's first call, in the timeline.
  const line = page.locator('.timeline .call-line[data-member="empiricist"]').first();
  await line.locator('button[name="fork"]').click();
  const dialog = page.locator('.fork-dialog[role="dialog"]');
  await dialog.waitFor();
  const fields = dialog.locator('fieldset[data-member="empiricist"]');
  assert.equal(await fields.locator('input[name="fork-model"]').inputValue(), 'demo-1');
  await fields.locator('input[name="fork-model"]').fill('demo-2');
  await dialog.locator('button[name="make-fork"]').click();
  await page.waitForFunction((o) => !location.hash.includes(o), originalId);
  await page.waitForSelector('.dialectic');
  await waitStatus(page, 'paused');
  let p = await picture(page);
  // Models differ now: each card names its model by name (issue 33), never by its id.
  assert.ok(p.critiques.find((c) => c.startsWith('empiricist:')).includes('demo model, second voice'), 'the what-if shows on the card');
  assert.ok(p.critiques.every((c) => !c.includes('demo/demo-')), 'no model id on a card');
  assert.equal(p.thesis, finished.thesis, 'the thesis before the fork is kept');
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 120000);
  p = await picture(page);
  assert.deepEqual(p.phases, ['Thesis:done', 'Critiques:done', 'Synthesis:done']);
  const was = finished.critiques.find((c) => c.startsWith('empiricist:'));
  const now = p.critiques.find((c) => c.startsWith('empiricist:'));
  assert.ok(now.startsWith('empiricist:done:'), now.slice(0, 60));
  assert.notEqual(now, was, 'the Empiricist on demo-2 wrote another critique');
  assert.equal(p.critiques.length, 3);

  // A phone: the columns stack (each below the one before, as wide as the page).
  await page.setViewportSize({ width: 390, height: 844 });
  const boxes = await page.$$eval('#panel-thesis, #panel-critiques, #panel-synthesis', (els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, w: r.width, bottom: r.bottom };
  }));
  assert.equal(boxes.length, 3);
  assert.ok(boxes[1].y >= boxes[0].bottom && boxes[2].y >= boxes[1].bottom, JSON.stringify(boxes));
  assert.ok(boxes.every((r) => Math.abs(r.x - boxes[0].x) < 1 && r.w > 300), JSON.stringify(boxes));
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'nothing scrolls sideways');
  await shot(page, 'dialectic-done-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  const wide = await page.$$eval('#panel-thesis, #panel-critiques, #panel-synthesis', (els) => els.map((e) => e.getBoundingClientRect().y));
  assert.ok(Math.abs(wide[0] - wide[1]) < 1 && Math.abs(wide[1] - wide[2]) < 1, 'three columns side by side on a wide screen');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('with the json style and a schema of the person\'s, a single shot shows its result as formatted JSON', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="dialectic"]');
  await page.fill('textarea[name="query"]', 'Should the city library open on Sundays?');
  await page.check('input[name="response-style"][value="json"]');
  await page.check('input[name="mode"][value="single_shot"]');
  await page.uncheck('input[name="use-council"]');
  await page.fill('textarea[name="response-schema"]', JSON.stringify({
    type: 'object',
    properties: { verdict: { type: 'string', enum: ['yes', 'no', 'trial'] }, reasons: { type: 'array', items: { type: 'string' }, minItems: 1 } },
    required: ['verdict', 'reasons'],
    additionalProperties: false,
  }));
  await page.click('button[name="create-dialectic"]');
  await page.waitForSelector('.dialectic');
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 120000);
  const shown = JSON.parse(await page.textContent('[data-card="synthesis"] [data-result="json"]'));
  assert.ok(['yes', 'no', 'trial'].includes(shown.verdict), JSON.stringify(shown));
  assert.ok(Array.isArray(shown.reasons) && shown.reasons.length >= 1);
  assert.deepEqual(Object.keys(shown).sort(), ['reasons', 'verdict'], 'the person\'s shape, nothing else');
  // The prose of the synthesis beside its result.
  assert.ok((await page.textContent('[data-card="synthesis"] [data-result="prose"]')).trim().length > 40);
  // A single shot's 002 document.
  const [doc] = await Promise.all([page.waitForEvent('download'), page.click('.session-head button[name="export-002"]')]);
  assert.match(doc.suggestedFilename(), /\.dialectical_single_shot\.json$/);
  const single = JSON.parse(readFileSync(await doc.path(), 'utf8'));
  assert.equal(single.response_style, 'json');
  assert.equal(single.use_search, false);
  assert.deepEqual(single.response_schema.required, ['verdict', 'reasons']);
  await shot(page, 'dialectic-json-1440');
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('at 390 px a refused schema keeps its field in view, in the field\'s words, with the pointer', async () => {
  const { page } = b;
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await open(page, srv.url, '#/new');
    await page.click('button[data-kind="dialectic"]');
    await page.fill('textarea[name="query"]', QUERY);
    await page.check('input[name="response-style"][value="json"]');
    // A Pydantic schema with a remote $ref in it: the rest of it is fine.
    await page.fill('textarea[name="response-schema"]', JSON.stringify({
      $defs: { Reason: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
      type: 'object',
      properties: { reasons: { type: 'array', items: { $ref: '#/$defs/Reason' } }, owner: { $ref: 'https://example.com/person.json' } },
      required: ['reasons'],
    }));
    // The person is at the bottom of the form when they press Create.
    await page.locator('button[name="create-dialectic"]').scrollIntoViewIfNeeded();
    await page.click('button[name="create-dialectic"]');
    const error = page.locator('[data-error="schema"]');
    await page.waitForSelector('[data-error="schema"]:has-text("remote $ref")');
    const text = (await error.textContent()).trim();
    assert.match(text, /^JSON Schema of the answer, at \/properties\/owner\/\$ref: "https:\/\/example\.com\/person\.json" is a remote \$ref/);
    assert.doesNotMatch(text, /\b(above|below)\b/, 'no direction to get wrong');
    // The field has the focus and is in view, not under the sticky header; its message too.
    await page.waitForFunction(() => document.activeElement?.name === 'response-schema');
    const placed = () => page.evaluate(() => {
      const header = document.querySelector('.app-header').getBoundingClientRect();
      const field = document.querySelector('textarea[name="response-schema"]').getBoundingClientRect();
      const message = document.querySelector('[data-error="schema"]').getBoundingClientRect();
      return { headerBottom: header.bottom, fieldTop: field.top, messageBottom: message.bottom, height: window.innerHeight };
    });
    const inView = (p) => p.fieldTop >= p.headerBottom && p.messageBottom <= p.height;
    await page.waitForFunction(() => {
      const header = document.querySelector('.app-header').getBoundingClientRect();
      const field = document.querySelector('textarea[name="response-schema"]').getBoundingClientRect();
      const message = document.querySelector('[data-error="schema"]').getBoundingClientRect();
      return field.top >= header.bottom && message.bottom <= window.innerHeight;
    }, null, { timeout: 5000 }).catch(() => {});
    const p = await placed();
    assert.ok(inView(p), JSON.stringify(p));
    // The phase strip and the columns say "Critiques", one word.
    await shot(page, 'dialectic-form-schema-error-390');
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('a single shot with the council shows each standpoint as its own critique, written by one call', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="dialectic"]');
  await page.fill('textarea[name="query"]', 'Should cities ban cars from their historic centres?');
  await page.check('input[name="mode"][value="single_shot"]');
  await page.click('button[name="create-dialectic"]');
  await page.waitForSelector('.dialectic');
  await page.click('button[name="run"]');
  await waitStatus(page, 'done', 120000);
  assert.deepEqual(
    await page.$$eval('[data-card="critique"]', (els) => els.map((e) => e.dataset.critic)),
    CRITICS,
  );
  assert.match(await page.textContent('[data-one-call]'), /^One call by The Proponent \(demo model\) wrote every standpoint/);
  assert.match(await page.textContent('.dialectic-meta'), /council of 3 in one call/);
  assert.doesNotMatch(await page.textContent('.dialectic-meta'), /council of 1/);
  // One word for the critiques, in the strip and over the column.
  assert.deepEqual(
    await page.$$eval('.dialectic nav.phases li', (els) => els.map((e) => e.dataset.phase)),
    ['Thesis', 'Critiques', 'Synthesis'],
  );
  assert.match((await page.textContent('#critiques-heading')).trim(), /^Critiques\b|^Critiques\d/);
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('the form works from the keyboard alone: Create is three Tabs after the query', async () => {
  const { page } = b;
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="dialectic"]');
  await page.focus('textarea[name="query"]');
  await page.keyboard.type('Is remote work better for junior developers?');
  const focused = () => page.evaluate(() => `${document.activeElement?.name}:${document.activeElement?.value ?? ''}`);
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'response-style:sections');
  // The arrow keys move along the styles; JSON brings its schema field.
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 'response-style:json');
  await page.waitForSelector('textarea[name="response-schema"]');
  await page.keyboard.press('ArrowUp');
  assert.equal(await focused(), 'response-style:sections');
  await page.waitForSelector('textarea[name="response-schema"]', { state: 'detached' });
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'mode:workflow');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'create-dialectic:');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.dialectic');
  assert.match(await page.textContent('.session-head h1'), /remote work/);
  assert.deepEqual(b.errors, [], 'no page errors');
});

test('"Try a demo dialectic" on the home page opens a dialectic with the council, ready to run', async () => {
  const { page } = b;
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, srv.url, '#/new');
  await page.click('button[data-kind="dialectic"]');
  await page.waitForSelector('form[data-form="dialectic"]');
  await shot(page, 'dialectic-form-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, srv.url, '#/');
  await page.click('button[name="demo-dialectic"]');
  await page.waitForSelector('.dialectic');
  assert.equal(await page.getAttribute('.session', 'data-status'), 'draft');
  assert.equal(await page.locator('[data-card="critique"]').count(), 3);
  await page.click('button[name="step"]');
  await page.waitForSelector('.dialectic nav.phases li[data-phase="Thesis"][data-phase-status="done"]', { timeout: 60000 });
  assert.deepEqual(b.errors, [], 'no page errors');
});
