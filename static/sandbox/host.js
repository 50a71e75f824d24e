// The page's side of the code sandbox: runs a set of JavaScript files in a fresh opaque-origin
// iframe (`sandbox="allow-scripts"`, never `allow-same-origin`) whose own policy lets the code
// reach nothing, and settles with the results. The frame is removed when the results arrive or
// the wall-clock limit passes, whichever comes first; removing it ends the worker inside, so an
// endless loop or a memory hog costs its own run only.
//
//   runInSandbox(files, { limitMs, page, loadMs }) → Promise<{ status, tests, errors, logs, message, ms }>
//
// `limitMs` is capped at MAX_LIMIT_MS (30 s). A run that does not end within it — code that never
// settles, or keeps scheduling work — is `timed_out`, its message naming the limit.
//
// `files` is [{ path, text }]: `*.test.js` files are run (`test(name, fn)`, `assert(…)`), the
// others are loaded when a test `require`s them. `status` is `passed`, `failed`, `no_tests`,
// `timed_out` or `error`. Everything in the answer comes from the run and is capped in size. A
// frame whose page does not load within `loadMs` settles as `error` (the run never started).

const STATUSES = new Set(['passed', 'failed', 'no_tests', 'timed_out', 'error']);
const MAX_TEXT = 2000;
const MAX_ROWS = 200;
/** How long past the limit the frame may take to answer before it is removed anyway. */
const GRACE_MS = 1000;
/** The longest run a person may set: past it a tab that waits on a run stops feeling usable
 *  (the frame's harness holds the same cap; core's config refuses more). */
export const MAX_LIMIT_MS = 30000;

const text = (value) => {
  const s = typeof value === 'string' ? value : '';
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s;
};
const rows = (value, pick) => (Array.isArray(value) ? value.slice(0, MAX_ROWS).map(pick) : []);

/** The frame's answer, reduced to the fields and sizes the app reads (it is the run's word, not
 *  ours: a hostile file may have shaped it). */
function clean(answer, ms) {
  const a = answer && typeof answer === 'object' ? answer : {};
  return {
    status: STATUSES.has(a.status) ? a.status : 'error',
    tests: rows(a.tests, (t) => ({
      file: text(t && t.file),
      name: text(t && t.name),
      passed: Boolean(t && t.passed === true),
      message: text(t && t.message),
    })),
    errors: rows(a.errors, (e) => ({ file: text(e && e.file), message: text(e && e.message) })),
    logs: rows(a.logs, text),
    message: text(a.message),
    ms,
  };
}

export function runInSandbox(files, { limitMs: asked = 5000, page, loadMs = 15000 } = {}) {
  const limitMs = Math.min(Math.max(Number(asked) || 0, 1), MAX_LIMIT_MS);
  const url = page || new URL('sandbox/sandbox.html', document.baseURI).href;
  const started = performance.now();
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.style.display = 'none';
    let settled = false;
    let timer = 0;
    const settle = (answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      frame.remove();
      resolve(clean(answer, Math.round(performance.now() - started)));
    };
    const onMessage = (event) => {
      if (event.source === frame.contentWindow && event.source !== null) settle(event.data);
    };
    addEventListener('message', onMessage);
    // The run's clock starts when the page has loaded; until then, this one.
    timer = setTimeout(
      () => settle({ status: 'error', message: `the sandbox page did not load within ${loadMs} ms, so nothing ran` }),
      loadMs,
    );
    frame.addEventListener('load', () => {
      clearTimeout(timer);
      const job = { files: files.map((f) => ({ path: String(f.path), text: String(f.text) })), limitMs };
      frame.contentWindow.postMessage(job, '*');
      timer = setTimeout(
        () => settle({ status: 'timed_out', message: `the run took longer than ${limitMs} ms and was stopped` }),
        limitMs + GRACE_MS,
      );
    }, { once: true });
    frame.src = url;
    document.body.append(frame);
  });
}
