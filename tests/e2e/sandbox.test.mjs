// The code sandbox (static/sandbox/: host.js in the page, sandbox.html in an opaque-origin frame)
// runs a player's JavaScript and its tests, and a hostile file does nothing but fail its own run:
// no request leaves (a loopback listener the hostile code aims at counts every hit, and the
// browser's own request log shows none), the page's storage is untouched, and the app keeps
// working. Issue 21, item 4.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { serveDist, launch, open } from './helpers.mjs';

let srv;
let b;
let trap;
let trapHits = 0;
let trapUrl;
const requests = [];

before(async () => {
  srv = await serveDist();
  trap = createServer((req, res) => {
    trapHits += 1;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.end('self.__reached = true;');
  });
  await new Promise((ok) => trap.listen(0, '127.0.0.1', ok));
  trapUrl = `http://127.0.0.1:${trap.address().port}`;
  b = await launch();
  b.context.on('request', (r) => requests.push(r));
  await open(b.page, srv.url);
  await b.page.evaluate(() => localStorage.setItem('sandbox-probe', 'kept'));
});
after(async () => {
  await b?.close();
  await srv?.stop();
  await new Promise((ok) => trap?.close(ok) ?? ok());
});

/** Runs `files` in the sandbox from the app's page. */
function run(files, limitMs = 3000) {
  return b.page.evaluate(
    async ([files, limitMs]) => (await import('./sandbox/host.js')).runInSandbox(files, { limitMs }),
    [files, limitMs],
  );
}
const one = (text) => [{ path: 'hostile.test.js', text }];

test('a player\'s files run with their tests: each test passed or failed with its message', async () => {
  const r = await run([
    { path: 'lib/sum.js', text: 'module.exports = (a, b) => a + b;' },
    { path: 'lib/index.js', text: "exports.sum = require('./sum');" },
    {
      path: 'sum.test.js',
      text: [
        "const { sum } = require('./lib');",
        "test('adds', () => assert.equal(sum(1, 2), 3));",
        "test('adds wrongly', () => assert.equal(sum(1, 2), 4));",
        "test('lists', () => assert.deepEqual([sum(1, 1)], [2]));",
        "test('async', async () => { await null; console.log('ran', { n: 1 }); });",
        "test('throws', () => assert.throws(() => require('fs')));",
      ].join('\n'),
    },
  ]);
  assert.equal(r.status, 'failed');
  assert.deepEqual(
    r.tests.map((t) => [t.name, t.passed, t.message]),
    [
      ['adds', true, ''],
      ['adds wrongly', false, 'Error: expected 4, got 3'],
      ['lists', true, ''],
      ['async', true, ''],
      ['throws', true, ''],
    ],
  );
  assert.deepEqual(r.logs, ['log: ran {"n":1}']);
  assert.ok(r.tests.every((t) => t.file === 'sum.test.js'));

  const green = await run([
    { path: 'a.js', text: 'module.exports = 2;' },
    { path: 'a.test.js', text: "test('two', () => assert(require('./a.js') === 2));" },
  ]);
  assert.equal(green.status, 'passed');
  assert.equal((await run([{ path: 'a.js', text: 'module.exports = 1;' }])).status, 'no_tests');
});

test('module formats a person writes run: .mjs and .cjs, ES import/export between the files, node:assert and node:test', async () => {
  const r = await run([
    { path: 'lib/sum.mjs', text: 'export default function sum(a, b) {\n  return a + b;\n}\nexport const twice = (x) => sum(x, x);\n' },
    { path: 'lib/index.js', text: "export { default as sum, twice } from './sum.mjs';\nexport * from './words.cjs';\n" },
    { path: 'lib/words.cjs', text: "exports.shout = (s) => s.toUpperCase();\n" },
    {
      path: 'sum.test.mjs',
      text: [
        "import assert from 'node:assert/strict';",
        "import { test } from 'node:test';",
        "import { sum, twice, shout } from './lib/index.js';",
        "import * as all from './lib/sum.mjs';",
        "test('imports a default and named exports', () => assert.equal(sum(1, 2), 3));",
        "test('a live named export', () => assert.equal(twice(2), 4));",
        "test('re-exports a CommonJS module', () => assert.equal(shout('a'), 'A'));",
        "test('a namespace import', () => assert.equal(all.default(2, 2), 4));",
      ].join('\n'),
    },
    { path: 'words.test.cjs', text: "const { shout } = require('./lib/words.cjs');\ntest('cjs test file', () => assert.equal(shout('b'), 'B'));\n" },
  ]);
  assert.equal(r.status, 'passed', JSON.stringify(r));
  assert.deepEqual(r.tests.map((t) => [t.file, t.name, t.passed]), [
    ['sum.test.mjs', 'imports a default and named exports', true],
    ['sum.test.mjs', 'a live named export', true],
    ['sum.test.mjs', 're-exports a CommonJS module', true],
    ['sum.test.mjs', 'a namespace import', true],
    ['words.test.cjs', 'cjs test file', true],
  ]);
  assert.deepEqual(r.errors, []);
});

test('a test that never settles is timed_out with the limit named, and the results before it come back', async () => {
  const r = await run([
    {
      path: 'a.test.js',
      text: "test('before it', () => assert(true));\ntest('hangs', () => new Promise(() => {}));\ntest('after it', () => assert(true));",
    },
  ], 2000);
  assert.equal(r.status, 'timed_out');
  assert.match(r.message, /time limit of \d+ ms/);
  assert.deepEqual(r.tests.map((t) => [t.name, t.passed]), [['before it', true], ['hangs', false]]);
  assert.match(r.tests[1].message, /did not finish within the run's time limit of 2000 ms/);
});

test('code that keeps scheduling work past the limit is timed_out, not failed', async () => {
  const cases = {
    'a timer chain': "test('chain', () => new Promise(() => { const tick = () => setTimeout(tick, 1); tick(); }));",
    'an interval and a promise that never settles': "test('interval', () => { setInterval(() => {}, 0); return new Promise(() => {}); });",
    'a microtask chain that never yields': "test('spin', () => { const spin = () => Promise.resolve().then(spin); spin(); return new Promise(() => {}); });",
    'a timer chain at the top level': "const tick = () => setTimeout(tick, 0); tick();\nwhile (Date.now() < 0) {}\ntest('waits', () => new Promise((ok) => setTimeout(ok, 60000)));",
  };
  for (const [name, text] of Object.entries(cases)) {
    const r = await run(one(text), 1500);
    assert.equal(r.status, 'timed_out', `${name}: ${JSON.stringify(r)}`);
    assert.match(r.message, /time limit of 1500 ms/, `${name}: the limit is named`);
  }
});

test('the time limit is capped at 30 s, where a tab stays usable', async () => {
  // A limit past the cap is run at the cap: the frame says so when it stops the run.
  const r = await b.page.evaluate(async () => {
    const { runInSandbox, MAX_LIMIT_MS } = await import('./sandbox/host.js');
    return { cap: MAX_LIMIT_MS, run: await runInSandbox([{ path: 'a.test.js', text: "test('t', () => assert(true));" }], { limitMs: 10 ** 9 }) };
  });
  assert.equal(r.cap, 30000);
  assert.equal(r.run.status, 'passed');
});

// Each poisons the run's own realm, then a real failure must still reach the coach, counted and
// with its message, and a real pass still passes.
const POISONS = {
  'Array.prototype.push': 'Array.prototype.push = function () { return 0; };',
  'an Array.prototype index setter': "Object.defineProperty(Array.prototype, '0', { set() {}, get() { return undefined; }, configurable: true }); Object.defineProperty(Array.prototype, '1', { set() {}, configurable: true });",
  'Array.prototype iteration': 'Array.prototype[Symbol.iterator] = function* () {}; Map.prototype.get = () => undefined; Map.prototype.has = () => false; Array.prototype.some = () => false;',
  'Object.prototype getters': "for (const k of ['passed', 'status', 'kind', 'message', 'tests', 'then']) Object.defineProperty(Object.prototype, k, { get() { return k === 'passed' ? true : undefined; }, set() {}, configurable: true });",
  'Object.keys and Object.is': 'Object.keys = () => []; Object.is = () => true; Object.defineProperty = () => {};',
  JSON: "JSON.stringify = () => '\"ok\"'; JSON.parse = () => ({ status: 'passed' });",
  Promise: "Promise.prototype.then = function (ok) { return ok(); }; Promise.race = () => Promise.resolve(); Promise.resolve = () => ({ then: (ok) => ok() }); self.Promise = function () {};",
  'Promise species': "Object.defineProperty(Promise, Symbol.species, { get() { throw new Error('species'); } });",
  postMessage: "self.postMessage = () => {}; try { DedicatedWorkerGlobalScope.prototype.postMessage = () => {}; } catch (_) {}",
  'Function.prototype.call, apply and bind': 'Function.prototype.call = function () {}; Function.prototype.apply = function () {}; Function.prototype.bind = function () { return () => {}; }; Reflect.apply = () => {};',
  'Error.prototype and String.prototype': "Error.prototype.name = 'Passed'; Object.defineProperty(Error.prototype, 'message', { get() { return 'ok'; }, configurable: true }); String.prototype.slice = () => ''; String.prototype.indexOf = () => -1;",
  'setTimeout and Date.now': 'self.setTimeout = () => 0; self.clearTimeout = () => {}; Date.now = () => 0; Math.max = () => 0;',
};

for (const [name, poison] of Object.entries(POISONS)) {
  test(`poisoned ${name}: a real failure is still counted and reported, a pass still passes`, async () => {
    for (const where of ['top', 'test']) {
      const text = [
        where === 'top' ? `try { ${poison} } catch (_) {}` : '',
        "const lib = require('./lib.js');",
        `test('poisons', () => { try { ${poison} } catch (_) {} });`,
        "test('fails for real', () => assert.equal(lib.one(), 2));",
        "test('fails async', async () => { await null; throw new TypeError('real async failure'); });",
        "test('passes for real', () => assert.deepEqual({ a: [lib.one()] }, { a: [1] }));",
      ].join('\n');
      const r = await run([{ path: 'lib.js', text: 'exports.one = () => 1;' }, { path: 'p.test.js', text }], 3000);
      const rows = r.tests.map((t) => [t.name, t.passed]);
      assert.equal(r.status, 'failed', `${name} (${where}): ${JSON.stringify(r)}`);
      assert.deepEqual(rows, [['poisons', true], ['fails for real', false], ['fails async', false], ['passes for real', true]], `${name} (${where})`);
      assert.equal(r.tests[1].message, 'Error: expected 2, got 1', `${name} (${where}): the failure's own message`);
      assert.match(r.tests[2].message, /real async failure/, `${name} (${where})`);
    }
  });
}

test('a file that does not parse is named with its error, and the other files still run', async () => {
  const r = await run([
    { path: 'bad.js', text: 'module.exports = (;' },
    { path: 'a.test.js', text: "test('fine', () => assert(true));\ntest('uses bad', () => require('./bad.js'));" },
  ]);
  assert.equal(r.status, 'failed');
  assert.equal(r.errors.length, 1);
  assert.equal(r.errors[0].file, 'bad.js');
  assert.match(r.errors[0].message, /SyntaxError/);
  assert.deepEqual(r.tests.map((t) => [t.name, t.passed]), [['fine', true], ['uses bad', false]]);
  assert.match(r.tests[1].message, /no such file/);
});

test('the demo player\'s code is real: a test fails on its first turn, its last turn passes them all, and each run is the one core plays sessions with', async () => {
  // Written by the demo player turn by turn, each with the run core's stand-in for the sandbox
  // reports (core/tests/autocoding.rs keeps the file current): the real sandbox must agree.
  const fixture = JSON.parse(readFileSync(new URL('./fixtures/autocoding-demo-turns.json', import.meta.url), 'utf8'));
  const passed = async (files, recorded) => {
    const r = await run(files.map((f) => ({ path: f.path, text: f.content })));
    assert.deepEqual(r.errors, []);
    assert.deepEqual({ status: r.status, tests: r.tests, errors: r.errors }, recorded);
    return [r.status, r.tests.filter((t) => t.passed).map((t) => t.name.split(':')[0])];
  };
  const slug = [];
  for (const [i, files] of fixture.slug.turns.entries()) slug.push(await passed(files, fixture.slug.runs[i]));
  assert.deepEqual(slug, [
    ['failed', ['R1']],
    ['failed', ['R1', 'R2', 'R3']],
    ['passed', ['R1', 'R2', 'R3', 'R4']],
  ]);
  const list = [];
  for (const [i, files] of fixture.checklist.turns.entries()) list.push(await passed(files, fixture.checklist.runs[i]));
  assert.deepEqual(list, [
    ['failed', ['R1', 'R2']],
    ['passed', ['R1', 'R2', 'R3']],
  ]);
});

const HOSTILE = {
  'an endless loop': () => 'while (true) {}',
  'an endless loop inside a test': () => "test('spin', () => { for (;;) {} });",
  fetch: (url) => `test('fetch', async () => { await fetch('${url}/fetch'); });`,
  'fetch through the prototype': (url) =>
    `test('fetch', async () => { await WorkerGlobalScope.prototype.fetch.call(self, '${url}/proto'); });`,
  XMLHttpRequest: (url) =>
    `test('xhr', () => { const x = new XMLHttpRequest(); x.open('GET', '${url}/xhr', false); x.send(); });`,
  WebSocket: (url) => `test('ws', () => { new WebSocket('${url.replace('http', 'ws')}/ws'); });`,
  EventSource: (url) => `test('sse', () => { new EventSource('${url}/sse'); });`,
  'importScripts of a URL': (url) => `test('import', () => { importScripts('${url}/import.js'); });`,
  'a dynamic import of a URL': (url) => `test('import()', async () => { await import('${url}/module.js'); });`,
  'code built from a string': () => "test('eval', () => { new Function('return 1')(); });",
  'reading parent and top': () => "test('parent', () => parent.document.title);\ntest('top', () => top.location.href);",
  'document.cookie': () => "test('cookie', () => document.cookie);",
  IndexedDB: () =>
    "test('idb', () => new Promise((ok, no) => { const r = indexedDB.open('x'); r.onsuccess = ok; r.onerror = () => no(r.error); }));",
  localStorage: () => "test('ls', () => localStorage.getItem('sandbox-probe'));",
  'a 1 GB buffer': () => "test('gb', () => { new ArrayBuffer(2 ** 30); });",
  'a 1 GB typed array': () => "test('gb', () => { new Float64Array(2 ** 27); });",
  'a 1 GB string': () => "test('gb', () => { 'x'.repeat(2 ** 30); });",
  'a postMessage flood': () => "test('flood', () => { for (let i = 0; i < 1e6; i++) postMessage('x'); });",
  'a postMessage flood through the prototype': () =>
    "test('flood', () => { for (let i = 0; i < 1e6; i++) DedicatedWorkerGlobalScope.prototype.postMessage.call(self, 'x'); });",
};

for (const [name, make] of Object.entries(HOSTILE)) {
  test(`hostile: ${name} fails its own run and reaches nothing`, async () => {
    const before = requests.length;
    const r = await run(one(make(trapUrl)), 2000);
    assert.ok(['failed', 'timed_out'].includes(r.status), `${name}: ${JSON.stringify(r)}`);
    assert.ok(r.tests.every((t) => !t.passed), `${name}: a test passed: ${JSON.stringify(r.tests)}`);
    assert.equal(trapHits, 0, `${name}: the listener was reached`);
    // The app's own files and the frame's blob: scripts (the run's files, made in the frame) are
    // all a run may load; a request the frame's policy stopped before it left (Chromium logs it,
    // failed with `csp`) reached nothing.
    const left = requests
      .slice(before)
      .filter((r) => !r.url().startsWith(srv.url) && !r.url().startsWith('blob:null/'))
      .filter((r) => r.failure()?.errorText !== 'csp')
      .map((r) => r.url());
    assert.deepEqual(left, [], `${name}: requests left the page`);
    // The app is still alive and its own storage untouched.
    assert.equal(await b.page.evaluate(() => localStorage.getItem('sandbox-probe')), 'kept');
  });
}

test('an endless loop is stopped at the limit, and the frame it ran in is gone', async () => {
  const r = await run(one('while (true) {}'), 1500);
  assert.equal(r.status, 'timed_out');
  assert.ok(r.ms >= 1400 && r.ms < 5000, `stopped after ${r.ms} ms`);
  assert.equal(await b.page.evaluate(() => document.querySelectorAll('iframe').length), 0);
});

test('a sandbox page that never loads settles as an error: nothing ran, nothing hangs', async () => {
  // The request is held forever, so the frame's load event never comes.
  await b.page.route('**/never-loads.html', () => {});
  const r = await b.page.evaluate(async () => {
    const { runInSandbox } = await import('./sandbox/host.js');
    return runInSandbox([{ path: 'a.test.js', text: "test('t', () => {});" }], {
      limitMs: 1000,
      page: new URL('never-loads.html', document.baseURI).href,
      loadMs: 800,
    });
  });
  await b.page.unroute('**/never-loads.html');
  assert.equal(r.status, 'error');
  assert.match(r.message, /did not load within 800 ms/);
  assert.deepEqual(r.tests, []);
  assert.equal(await b.page.evaluate(() => document.querySelectorAll('iframe').length), 0);
});

test('the app keeps working after every hostile run', async () => {
  assert.deepEqual(b.errors, []);
  await b.page.getByRole('link', { name: /new session/i }).first().click();
  await b.page.getByRole('heading', { level: 1 }).first().waitFor();
  const r = await run([{ path: 'ok.test.js', text: "test('still runs', () => assert(true));" }]);
  assert.equal(r.status, 'passed');
});
