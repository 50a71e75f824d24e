// The sandbox's harness, inlined into static/sandbox/sandbox.html by scripts/sandbox-page.mjs (the page's CSP
// allows this one script by its hash and nothing else). It runs inside an opaque-origin iframe
// (`sandbox="allow-scripts"`, never `allow-same-origin`) and takes one job from its parent: the
// player's JavaScript files. It runs them in a Worker made from blob: URLs, whose inherited policy
// (`default-src 'none'`) lets it reach nothing, and answers the parent once: the tests' results,
// or `timed_out` when the wall-clock limit passes first (the parent removes the frame then too).
(() => {
  'use strict';
  const MAX_FILES = 64;
  const MAX_BYTES = 512 * 1024;

  /** Runs inside the worker: the module loader, `test`/`assert`, the run. */
  function workerMain(paths, budgetMs) {
    'use strict';
    const post = self.postMessage.bind(self);
    const load = self.importScripts.bind(self);
    const MAX_TESTS = 200;
    const MAX_LOGS = 200;
    const MAX_TEXT = 2000;
    const MAX_BUFFER = 64 * 1024 * 1024;
    const cut = (text) => {
      const s = String(text);
      return s.length > MAX_TEXT ? s.slice(0, MAX_TEXT) + '…' : s;
    };
    const describe = (value) => {
      if (typeof value === 'string') return JSON.stringify(value);
      try {
        const json = JSON.stringify(value);
        if (json !== undefined) return json;
      } catch (_) {
        /* a cycle: fall through */
      }
      return String(value);
    };
    const failure = (error) =>
      error && typeof error === 'object' && 'message' in error
        ? `${error.name || 'Error'}: ${error.message}`
        : `thrown: ${describe(error)}`;

    // What a run can reach is nothing: the page's policy blocks every request, the origin is
    // opaque (no storage); these stubs only turn a blocked reach into a plain message.
    const unavailable = (name) =>
      function () {
        throw new Error(`${name} is not available: code in the sandbox reaches nothing`);
      };
    const closed = [
      'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'indexedDB',
      'caches', 'BroadcastChannel', 'WebTransport', 'Worker', 'SharedWorker', 'postMessage',
    ];
    for (let scope = self; scope; scope = Object.getPrototypeOf(scope)) {
      for (const name of closed) {
        if (Object.prototype.hasOwnProperty.call(scope, name)) {
          try {
            Object.defineProperty(scope, name, { value: unavailable(name), configurable: false, writable: false });
          } catch (_) {
            /* not configurable: the policy still blocks it */
          }
        }
      }
    }
    // A memory bound the browser does not give a worker: one buffer of at most 64 MiB.
    const RealBuffer = ArrayBuffer;
    const guard = (bytes) => {
      if (Number(bytes) > MAX_BUFFER) {
        throw new RangeError(`the sandbox allows at most ${MAX_BUFFER} bytes in one buffer`);
      }
    };
    self.ArrayBuffer = new Proxy(RealBuffer, {
      construct(target, args, newTarget) {
        guard(args[0]);
        return Reflect.construct(target, args, newTarget);
      },
    });
    for (const name of [
      'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
      'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
    ]) {
      const Typed = self[name];
      self[name] = new Proxy(Typed, {
        construct(target, args, newTarget) {
          if (typeof args[0] === 'number') guard(args[0] * Typed.BYTES_PER_ELEMENT);
          return Reflect.construct(target, args, newTarget);
        },
      });
    }

    const logs = [];
    const log = (level) => (...args) => {
      if (logs.length < MAX_LOGS) {
        logs.push(cut(`${level}: ${args.map((a) => (typeof a === 'string' ? a : describe(a))).join(' ')}`));
      }
    };
    self.console = { log: log('log'), info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug') };
    self.addEventListener('error', (e) => {
      log('uncaught')(e.message);
      e.preventDefault();
    });
    self.addEventListener('unhandledrejection', (e) => {
      log('unhandled rejection')(failure(e.reason));
      e.preventDefault();
    });

    // The player's files as CommonJS modules: `module.exports` and `require('./relative.js')`.
    const defined = new Map();
    const loadErrors = [];
    let defining = null;
    self.__define = (fn) => {
      if (defining !== null && !defined.has(defining)) defined.set(defining, fn);
    };
    for (const [path, url] of paths) {
      defining = path;
      try {
        load(url);
      } catch (error) {
        loadErrors.push({ file: path, message: cut(failure(error)) });
      }
    }
    defining = null;
    delete self.__define;

    const normalize = (path) => {
      const out = [];
      for (const part of path.split('/')) {
        if (part === '' || part === '.') continue;
        if (part === '..') {
          if (!out.length) return null;
          out.pop();
        } else out.push(part);
      }
      return out.join('/');
    };
    const modules = new Map();
    // The few built-in modules a test names: `assert` (and `node:assert/strict`) is the sandbox's
    // assert, `node:test` its `test`.
    const builtins = new Map();
    const resolve = (from, spec) => {
      if (typeof spec === 'string' && builtins.has(spec)) return null;
      if (typeof spec !== 'string' || !(spec.startsWith('./') || spec.startsWith('../'))) {
        throw new Error(`require(${describe(spec)}) in ${from}: only the session's own files can be required, by a relative path such as './lib.js'`);
      }
      const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/') + 1) : '';
      const base = normalize(dir + spec);
      const candidates = [base, `${base}.js`, `${base}.mjs`, `${base}.cjs`, `${base}/index.js`, `${base}/index.mjs`];
      for (const candidate of candidates) {
        if (candidate !== null && defined.has(candidate)) return candidate;
      }
      throw new Error(`require(${describe(spec)}) in ${from}: no such file among the session's files`);
    };
    const requireFrom = (from) => (spec) => {
      const path = resolve(from, spec);
      return path === null ? builtins.get(spec) : run(path);
    };
    const run = (path) => {
      const cached = modules.get(path);
      if (cached) return cached.exports;
      const module = { exports: {} };
      modules.set(path, module);
      defined.get(path).call(module.exports, module, module.exports, requireFrom(path));
      return module.exports;
    };

    const tests = [];
    let current = null;
    self.test = (name, fn) => {
      if (tests.length >= MAX_TESTS) throw new Error(`a run holds at most ${MAX_TESTS} tests`);
      if (typeof fn !== 'function') throw new TypeError(`test(${describe(name)}, …) needs a function`);
      tests.push({ file: current, name: cut(name), fn });
    };
    const fail = (message, fallback) => {
      throw new Error(message === undefined ? fallback : String(message));
    };
    const same = (a, b) => {
      if (Object.is(a, b)) return true;
      if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
      if (Array.isArray(a) !== Array.isArray(b)) return false;
      const ka = Object.keys(a);
      const kb = Object.keys(b);
      return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
    };
    const assert = (value, message) => {
      if (!value) fail(message, `expected a true value, got ${describe(value)}`);
    };
    assert.equal = (actual, expected, message) => {
      if (!Object.is(actual, expected)) fail(message, `expected ${describe(expected)}, got ${describe(actual)}`);
    };
    assert.deepEqual = (actual, expected, message) => {
      if (!same(actual, expected)) fail(message, `expected ${describe(expected)}, got ${describe(actual)}`);
    };
    assert.throws = (fn, message) => {
      try {
        fn();
      } catch (_) {
        return;
      }
      fail(message, 'expected the function to throw');
    };
    self.assert = assert;
    for (const name of ['assert', 'assert/strict', 'node:assert', 'node:assert/strict']) builtins.set(name, assert);
    const describeBlock = (name, fn) => (typeof fn === 'function' ? fn() : undefined);
    builtins.set('node:test', { test: self.test, it: self.test, describe: describeBlock, default: self.test });

    (async () => {
      const results = [];
      for (const path of defined.keys()) {
        if (!/\.test\.[cm]?js$/.test(path)) continue;
        current = path;
        try {
          run(path);
        } catch (error) {
          loadErrors.push({ file: path, message: cut(failure(error)) });
        }
      }
      current = null;
      // An async test that never settles fails on its own when the run's time is nearly up, so
      // the others' results still come back (a test that never yields is stopped with the run).
      const deadline = Date.now() + budgetMs;
      const timers = { setTimeout: self.setTimeout.bind(self), clearTimeout: self.clearTimeout.bind(self) };
      for (const t of tests) {
        let timer = 0;
        const left = Math.max(0, deadline - Date.now());
        const late = new Promise((_, no) => {
          timer = timers.setTimeout(() => no(new Error('did not finish before the run\'s time limit')), left);
        });
        try {
          await Promise.race([Promise.resolve().then(() => t.fn()), late]);
          results.push({ file: t.file, name: t.name, passed: true, message: '' });
        } catch (error) {
          results.push({ file: t.file, name: t.name, passed: false, message: cut(failure(error)) });
        } finally {
          timers.clearTimeout(timer);
        }
      }
      const failed = results.some((r) => !r.passed) || loadErrors.length > 0;
      post({
        status: results.length === 0 && !failed ? 'no_tests' : failed ? 'failed' : 'passed',
        tests: results,
        errors: loadErrors,
        logs,
      });
    })();
  }

  /** Whether `text` (at `path`) is an ES module: `.mjs`, or a `.js` with top-level import/export. */
  function esModule(path, text) {
    if (/\.mjs$/.test(path)) return true;
    if (!/\.js$/.test(path)) return false;
    return /^[ \t]*(import(?:[ \t]+[\w$*{'"]|[ \t]*['"{*])|export[ \t]+)/m.test(text);
  }

  /**
   * An ES module's text as CommonJS, line for line (each statement keeps its line, so an error's
   * line number still points at the file): `import … from './x.js'` becomes `require`,
   * `export`ed names become getters on `exports` (live, as ES bindings are), `export default x`
   * sets `exports.default`. Statements are found by their start of line, so an `import` or
   * `export` line inside a multi-line string is read as one too (a known limit).
   */
  function toCommonJs(text) {
    const names = [];
    const head = ["Object.defineProperty(exports, '__esModule', { value: true });"];
    let n = 0;
    const same = (matched, out) => out + '\n'.repeat((matched.match(/\n/g) || []).length);
    const ident = /^[A-Za-z_$][\w$]*$/;
    const bindings = (list) =>
      list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
        const [from, to] = s.split(/\s+as\s+/);
        return [from.trim(), (to || from).trim()];
      });
    let body = text.replace(
      /^([ \t]*)import[ \t]*((?:[\w$]+[ \t]*,?[ \t]*)?(?:\*[ \t]*as[ \t]+[\w$]+|\{[^}]*\})?)[ \t\n]*from[ \t]*(['"])([^'"\n]+)\3[ \t]*;?/gm,
      (m, indent, clause, _q, spec) => {
        const mod = `__import${(n += 1)}`;
        const parts = [`const ${mod} = require(${JSON.stringify(spec)});`];
        const def = clause.match(/^[ \t]*([\w$]+)/);
        if (def) parts.push(`const ${def[1]} = ${mod} && ${mod}.__esModule ? ${mod}.default : ${mod};`);
        const star = clause.match(/\*[ \t]*as[ \t]+([\w$]+)/);
        if (star) parts.push(`const ${star[1]} = ${mod};`);
        const named = clause.match(/\{([^}]*)\}/);
        if (named) {
          const list = bindings(named[1]).map(([from, to]) => (from === to ? from : `${from}: ${to}`));
          parts.push(`const { ${list.join(', ')} } = ${mod};`);
        }
        return same(m, indent + parts.join(' '));
      },
    );
    body = body.replace(/^([ \t]*)import[ \t]*(['"])([^'"\n]+)\2[ \t]*;?/gm, (m, indent, _q, spec) =>
      same(m, `${indent}require(${JSON.stringify(spec)});`),
    );
    body = body.replace(
      /^([ \t]*)export[ \t]*(\*(?:[ \t]*as[ \t]+([\w$]+))?|\{[^}]*\})[ \t\n]*from[ \t]*(['"])([^'"\n]+)\4[ \t]*;?/gm,
      (m, indent, what, ns, _q, spec) => {
        const req = `require(${JSON.stringify(spec)})`;
        if (ns) return same(m, `${indent}exports.${ns} = ${req};`);
        if (what.startsWith('*')) {
          return same(m, `${indent}{ const __all = ${req}; for (const k of Object.keys(__all)) if (k !== 'default' && !(k in exports)) Object.defineProperty(exports, k, { enumerable: true, get: () => __all[k] }); }`);
        }
        const list = bindings(what.slice(1, -1)).map(
          ([from, to]) => `Object.defineProperty(exports, ${JSON.stringify(to)}, { enumerable: true, get: () => __from[${JSON.stringify(from)}] });`,
        );
        return same(m, `${indent}{ const __from = ${req}; ${list.join(' ')} }`);
      },
    );
    body = body.replace(/^([ \t]*)export[ \t]*\{([^}]*)\}[ \t]*;?/gm, (m, indent, list) => {
      for (const [from, to] of bindings(list)) names.push([to, from]);
      return same(m, indent);
    });
    // A named default function or class stays a declaration the module itself can call.
    body = body.replace(
      /^([ \t]*)export[ \t]+default[ \t]+((?:async[ \t]+)?function\*?|class)[ \t]*([A-Za-z_$][\w$]*)/gm,
      (_m, indent, what, name) => {
        names.push(['default', name]);
        return `${indent}${what} ${name}`;
      },
    );
    body = body.replace(/^([ \t]*)export[ \t]+default[ \t]+/gm, (_m, indent) => `${indent}exports.default = `);
    body = body.replace(
      /^([ \t]*)export[ \t]+((?:async[ \t]+)?function\*?|class|const|let|var)[ \t]*([\w$]+)/gm,
      (_m, indent, what, name) => {
        if (ident.test(name)) names.push([name, name]);
        return `${indent}${what} ${name}`;
      },
    );
    for (const [name, local] of names) {
      head.push(`Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => ${local} });`);
    }
    return `${head.join(' ')}${body}`;
  }

  let taken = false;
  addEventListener('message', (event) => {
    if (taken || event.source !== parent) return;
    taken = true;
    const answer = (result) => parent.postMessage(result, '*');
    const job = event.data;
    const files = Array.isArray(job && job.files) ? job.files : null;
    const limit = Number(job && job.limitMs);
    if (!files || files.length > MAX_FILES || !(limit > 0)) {
      answer({ status: 'error', message: 'the sandbox was handed no valid job' });
      return;
    }
    const paths = [];
    for (const f of files) {
      if (typeof f.path !== 'string' || typeof f.text !== 'string' || f.text.length > MAX_BYTES) {
        answer({ status: 'error', message: 'the sandbox was handed no valid job' });
        return;
      }
      // The wrapper opens a function the file's own text cannot see out of by accident; a file
      // that closes it on purpose only runs in the same worker, under the same policy.
      // An ES module (`.mjs`, or a `.js` with top-level import/export) is read as CommonJS first.
      const text = esModule(f.path, f.text) ? toCommonJs(f.text) : f.text;
      const source = `self.__define(function (module, exports, require) {\n${text}\n});\n`;
      paths.push([f.path, URL.createObjectURL(new Blob([source], { type: 'text/javascript' }))]);
    }
    // The worker's tests stop a little before the frame's own limit, so their results arrive.
    const budget = Math.max(limit - Math.min(500, limit / 4), 0);
    const main = `(${workerMain.toString()})(${JSON.stringify(paths)}, ${budget});`;
    const worker = new Worker(URL.createObjectURL(new Blob([main], { type: 'text/javascript' })));
    let done = false;
    const finish = (result) => {
      if (done) return;
      done = true;
      worker.terminate();
      answer(result);
    };
    worker.onmessage = (e) => finish(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      finish({ status: 'error', message: String(e.message || 'the run stopped with an error') });
    };
    setTimeout(() => finish({ status: 'timed_out' }), limit);
  });
})();
