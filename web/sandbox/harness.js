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
  /** The longest run a tab stays usable through (the app's form says so too). */
  const MAX_LIMIT_MS = 30000;

  /** Runs inside the worker: the module loader, `test`/`assert`, the run. The code under test
   *  shares this realm, so every built-in the harness uses is taken before any of it runs and
   *  called through those copies, and the harness keeps no count of its own: each result, load
   *  error and log line goes to the frame as it happens (through `post`, bound before the code
   *  runs), and the frame — a realm the code cannot reach — counts them and decides the status.
   *  Poisoned `Array.prototype`, `Object.prototype`, `JSON`, `Promise` or `postMessage` change
   *  what the code itself sees, never what is counted or reported. */
  function workerMain(paths, budgetMs, limitMs) {
    'use strict';
    // Taken before any file runs.
    const post = self.postMessage.bind(self);
    const load = self.importScripts.bind(self);
    const wait = self.setTimeout.bind(self);
    const unwait = self.clearTimeout.bind(self);
    const { apply } = Reflect;
    const { defineProperty, create, keys, is, getOwnPropertyDescriptor } = Object;
    const hasOwn = Object.prototype.hasOwnProperty;
    const { isArray } = Array;
    const stringify = JSON.stringify;
    const Str = String;
    const Num = Number;
    const ErrorType = Error;
    const TypeErrorType = TypeError;
    const RangeErrorType = RangeError;
    const ProxyType = Proxy;
    const construct = Reflect.construct;
    const slice = String.prototype.slice;
    const indexOf = String.prototype.indexOf;
    const lastIndexOf = String.prototype.lastIndexOf;
    const promiseThen = Promise.prototype.then;
    const now = Date.now;
    const max = Math.max;
    const MAX_TESTS = 200;
    const MAX_LOGS = 200;
    const MAX_TEXT = 2000;
    const MAX_BUFFER = 64 * 1024 * 1024;
    // A promise's settlement is read through `then` and the species it names: both are fixed
    // before the code runs, so a poisoned `Promise` cannot turn a rejection into a pass.
    for (const [target, key] of [[Promise.prototype, 'then'], [Promise.prototype, 'constructor'], [Promise, Symbol.species]]) {
      const d = getOwnPropertyDescriptor(target, key);
      if (d && d.configurable) {
        if ('value' in d) defineProperty(target, key, { value: d.value, writable: false, configurable: false, enumerable: d.enumerable });
        else defineProperty(target, key, { get: d.get, set: d.set, configurable: false, enumerable: d.enumerable });
      }
    }
    /** `list` with `value` added as an own element (no setter on `Array.prototype` is called). */
    const add = (list, value) => {
      defineProperty(list, list.length, { value, writable: true, enumerable: true, configurable: true });
    };
    const cut = (text) => {
      let s = '';
      try {
        s = typeof text === 'string' ? text : Str(text);
      } catch (_) {
        s = '(a value that could not be read)';
      }
      if (typeof s !== 'string') s = '';
      return s.length > MAX_TEXT ? apply(slice, s, [0, MAX_TEXT]) + '…' : s;
    };
    const describe = (value) => {
      if (typeof value === 'string') return apply(stringify, null, [value]);
      try {
        const json = apply(stringify, null, [value]);
        if (typeof json === 'string') return json;
      } catch (_) {
        /* a cycle or a throwing toJSON: fall through */
      }
      return cut(value);
    };
    const failure = (error) => {
      try {
        if (error !== null && (typeof error === 'object' || typeof error === 'function') && 'message' in error) {
          const name = error.name;
          const message = error.message;
          return cut(`${typeof name === 'string' && name !== '' ? name : 'Error'}: ${typeof message === 'string' ? message : describe(message)}`);
        }
        return cut(`thrown: ${describe(error)}`);
      } catch (_) {
        return 'thrown: a value that could not be read';
      }
    };
    let logged = 0;
    const log = (level) => (...args) => {
      if (logged >= MAX_LOGS) return;
      logged += 1;
      let line = `${level}:`;
      for (let i = 0; i < args.length; i += 1) line += ` ${typeof args[i] === 'string' ? args[i] : describe(args[i])}`;
      post({ kind: 'log', text: cut(line) });
    };
    const loadError = (file, message) => post({ kind: 'error', file, message: cut(message) });

    // What a run can reach is nothing: the page's policy blocks every request, the origin is
    // opaque (no storage); these stubs only turn a blocked reach into a plain message.
    const unavailable = (name) =>
      function () {
        throw new ErrorType(`${name} is not available: code in the sandbox reaches nothing`);
      };
    const closed = [
      'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'indexedDB',
      'caches', 'BroadcastChannel', 'WebTransport', 'Worker', 'SharedWorker', 'postMessage', 'close',
    ];
    for (let scope = self; scope; scope = Object.getPrototypeOf(scope)) {
      for (let i = 0; i < closed.length; i += 1) {
        const name = closed[i];
        if (apply(hasOwn, scope, [name])) {
          try {
            defineProperty(scope, name, { value: unavailable(name), configurable: false, writable: false });
          } catch (_) {
            /* not configurable: the policy still blocks it */
          }
        }
      }
    }
    // A memory bound the browser does not give a worker: one buffer of at most 64 MiB.
    const guard = (bytes) => {
      if (Num(bytes) > MAX_BUFFER) {
        throw new RangeErrorType(`the sandbox allows at most ${MAX_BUFFER} bytes in one buffer`);
      }
    };
    self.ArrayBuffer = new ProxyType(ArrayBuffer, {
      construct(target, args, newTarget) {
        guard(args[0]);
        return construct(target, args, newTarget);
      },
    });
    for (const name of [
      'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
      'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
    ]) {
      const Typed = self[name];
      self[name] = new ProxyType(Typed, {
        construct(target, args, newTarget) {
          if (typeof args[0] === 'number') guard(args[0] * Typed.BYTES_PER_ELEMENT);
          return construct(target, args, newTarget);
        },
      });
    }

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
    // Kept in objects without a prototype, so no poisoned one is consulted.
    const defined = create(null);
    const order = [];
    let defining = null;
    self.__define = (fn) => {
      if (defining !== null && !(defining in defined)) {
        defined[defining] = fn;
        add(order, defining);
      }
    };
    for (let i = 0; i < paths.length; i += 1) {
      defining = paths[i][0];
      try {
        load(paths[i][1]);
      } catch (error) {
        loadError(paths[i][0], failure(error));
      }
    }
    defining = null;
    delete self.__define;

    /** `path` without `.` and `..` segments, or null when it leaves the project. */
    const normalize = (path) => {
      const out = [];
      let rest = path;
      for (;;) {
        const at = apply(indexOf, rest, ['/']);
        const part = at < 0 ? rest : apply(slice, rest, [0, at]);
        if (part === '..') {
          if (out.length === 0) return null;
          out.length -= 1;
        } else if (part !== '' && part !== '.') add(out, part);
        if (at < 0) break;
        rest = apply(slice, rest, [at + 1]);
      }
      let joined = '';
      for (let i = 0; i < out.length; i += 1) joined += (i ? '/' : '') + out[i];
      return joined;
    };
    const startsWith = (s, prefix) => apply(slice, s, [0, prefix.length]) === prefix;
    const endsWith = (s, suffix) => s.length >= suffix.length && apply(slice, s, [s.length - suffix.length]) === suffix;
    const modules = create(null);
    // The few built-in modules a test names: `assert` (and `node:assert/strict`) is the sandbox's
    // assert, `node:test` its `test`. A null-prototype object, so no poisoned prototype is read.
    const builtins = create(null);
    const resolve = (from, spec) => {
      if (typeof spec === 'string' && spec in builtins) return null;
      if (typeof spec !== 'string' || !(startsWith(spec, './') || startsWith(spec, '../'))) {
        throw new ErrorType(`require(${describe(spec)}) in ${from}: only the session's own files can be required, by a relative path such as './lib.js'`);
      }
      const dir = apply(slice, from, [0, apply(lastIndexOf, from, ['/']) + 1]);
      const base = normalize(dir + spec);
      if (base !== null) {
        const candidates = [base, `${base}.js`, `${base}.mjs`, `${base}.cjs`, `${base}/index.js`, `${base}/index.mjs`];
        for (let i = 0; i < candidates.length; i += 1) {
          if (candidates[i] in defined) return candidates[i];
        }
      }
      throw new ErrorType(`require(${describe(spec)}) in ${from}: no such file among the session's files`);
    };
    const run = (path) => {
      if (path in modules) return modules[path].exports;
      const module = { exports: {} };
      modules[path] = module;
      const requireFrom = (spec) => {
        const found = resolve(path, spec);
        return found === null ? builtins[spec] : run(found);
      };
      apply(defined[path], module.exports, [module, module.exports, requireFrom]);
      return module.exports;
    };

    const tests = [];
    let current = null;
    self.test = (name, fn) => {
      if (tests.length >= MAX_TESTS) throw new ErrorType(`a run holds at most ${MAX_TESTS} tests`);
      if (typeof fn !== 'function') throw new TypeErrorType(`test(${describe(name)}, …) needs a function`);
      add(tests, { file: current, name: cut(name), fn });
    };
    /** An assertion's failure: its name and message are its own properties, so a poisoned
     *  `Error.prototype` does not change how it reads. */
    const fail = (message, fallback) => {
      const e = new ErrorType(message === undefined ? fallback : cut(message));
      defineProperty(e, 'name', { value: 'Error', writable: true, configurable: true });
      throw e;
    };
    const same = (a, b) => {
      if (is(a, b)) return true;
      if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
      if (isArray(a) !== isArray(b)) return false;
      const ka = keys(a);
      const kb = keys(b);
      if (ka.length !== kb.length) return false;
      for (let i = 0; i < ka.length; i += 1) {
        if (!apply(hasOwn, b, [ka[i]]) || !same(a[ka[i]], b[ka[i]])) return false;
      }
      return true;
    };
    const assert = (value, message) => {
      if (!value) fail(message, `expected a true value, got ${describe(value)}`);
    };
    assert.equal = (actual, expected, message) => {
      if (!is(actual, expected)) fail(message, `expected ${describe(expected)}, got ${describe(actual)}`);
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
    const assertNames = ['assert', 'assert/strict', 'node:assert', 'node:assert/strict'];
    for (let i = 0; i < assertNames.length; i += 1) builtins[assertNames[i]] = assert;
    const describeBlock = (name, fn) => (typeof fn === 'function' ? fn() : undefined);
    builtins['node:test'] = { test: self.test, it: self.test, describe: describeBlock, default: self.test };

    // Each test file's top level registers its tests.
    const files = [];
    for (let i = 0; i < order.length; i += 1) add(files, order[i]);
    for (let i = 0; i < files.length; i += 1) {
      const path = files[i];
      if (!endsWith(path, '.test.js') && !endsWith(path, '.test.mjs') && !endsWith(path, '.test.cjs')) continue;
      current = path;
      try {
        run(path);
      } catch (error) {
        loadError(path, failure(error));
      }
    }
    current = null;

    // The tests, one after another, each settled by its own result or by the run's time limit:
    // a test still running when the time is up is named, the run is `timed_out`, and the tests
    // after it are not run. No promise of the harness's own is awaited.
    const deadline = now() + budgetMs;
    const limitWords = `the run's time limit of ${limitMs} ms`;
    let index = 0;
    const next = () => {
      for (;;) {
        if (index >= tests.length) {
          post({ kind: 'done' });
          return;
        }
        const t = tests[index];
        index += 1;
        const left = deadline - now();
        if (!(left > 0)) {
          post({ kind: 'late', message: `${tests.length - index + 1} tests were not run: ${limitWords} was reached` });
          post({ kind: 'done' });
          return;
        }
        let settled = false;
        let sync = true;
        let timer = 0;
        const settle = (passed, message) => {
          if (settled) return;
          settled = true;
          unwait(timer);
          post({ kind: 'result', file: t.file, name: t.name, passed: passed === true, message: cut(message) });
          if (!sync) next();
        };
        timer = wait(() => {
          if (settled) return;
          settled = true;
          post({ kind: 'result', file: t.file, name: t.name, passed: false, message: `did not finish within ${limitWords}` });
          post({ kind: 'late', message: `test ${describe(t.name)} did not finish within ${limitWords}` });
          post({ kind: 'done' });
        }, max(0, left));
        let value;
        let threw = false;
        try {
          value = apply(t.fn, undefined, []);
        } catch (error) {
          threw = true;
          settle(false, failure(error));
        }
        if (!threw) {
          if (value !== null && (typeof value === 'object' || typeof value === 'function')) {
            const ok = () => settle(true, '');
            const no = (error) => settle(false, failure(error));
            try {
              apply(promiseThen, value, [ok, no]);
            } catch (_) {
              // Not a promise of this realm: a thenable is read by its own `then`.
              try {
                const then = value.then;
                if (typeof then === 'function') apply(then, value, [ok, no]);
                else ok();
              } catch (error) {
                no(error);
              }
            }
          } else {
            settle(true, '');
          }
        }
        sync = false;
        if (!settled) return; // `settle` goes on with the next test when this one ends.
      }
    };
    next();
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
    const limit = Math.min(Number(job && job.limitMs), MAX_LIMIT_MS);
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
    const main = `(${workerMain.toString()})(${JSON.stringify(paths)}, ${budget}, ${limit});`;
    const worker = new Worker(URL.createObjectURL(new Blob([main], { type: 'text/javascript' })));
    // The count is kept here, in a realm the code under test cannot reach.
    const tests = [];
    const errors = [];
    const logs = [];
    let late = '';
    const text = (v) => (typeof v === 'string' ? v.slice(0, 2000) : '');
    let done = false;
    const finish = (stopped) => {
      if (done) return;
      done = true;
      worker.terminate();
      const failed = tests.some((t) => !t.passed) || errors.length > 0;
      const message = stopped || late;
      answer({
        status: message ? 'timed_out' : tests.length === 0 && !failed ? 'no_tests' : failed ? 'failed' : 'passed',
        tests,
        errors,
        logs,
        message,
      });
    };
    worker.onmessage = (e) => {
      const m = e.data;
      if (done || !m || typeof m !== 'object') return;
      if (m.kind === 'result' && tests.length < 200) {
        tests.push({ file: text(m.file), name: text(m.name), passed: m.passed === true, message: text(m.message) });
      } else if (m.kind === 'error' && errors.length < 200) {
        errors.push({ file: text(m.file), message: text(m.message) });
      } else if (m.kind === 'log' && logs.length < 200) {
        logs.push(text(m.text));
      } else if (m.kind === 'late') {
        late = text(m.message);
      } else if (m.kind === 'done') {
        finish('');
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      errors.push({ file: '', message: String(e.message || 'the run stopped with an error') });
      finish('');
    };
    setTimeout(() => finish(`the run did not finish within its time limit of ${limit} ms and was stopped`), limit);
  });
})();
