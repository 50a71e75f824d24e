// The sandbox page (static/sandbox/sandbox.html) is what scripts/sandbox-page.mjs writes from
// web/sandbox/harness.js, and its policy is read here as a browser reads it: the one inline script
// is allowed by its SHA-256 (CSP3 hash-source, computed over the script element's text), and
// nothing else may be fetched, framed or built from a string.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { page, PAGE } from '../../scripts/sandbox-page.mjs';

const html = readFileSync(PAGE, 'utf8');

test('the committed page is what the generator writes from the harness', () => {
  assert.equal(html, page(), 'run: node scripts/sandbox-page.mjs');
});

test('the policy allows the inline harness by its hash, blob: scripts and workers, and nothing else', () => {
  const policy = html.match(/http-equiv="Content-Security-Policy" content="([^"]*)"/)[1];
  const directives = Object.fromEntries(
    policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]),
  );
  assert.deepEqual(Object.keys(directives).sort(), ['default-src', 'script-src', 'worker-src']);
  assert.deepEqual(directives['default-src'], ["'none'"]);
  assert.deepEqual(directives['worker-src'], ['blob:']);
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  assert.equal(scripts.length, 1, 'one inline script');
  assert.equal(html.match(/<script/g).length, 1, 'no other script element');
  const hash = createHash('sha256').update(scripts[0]).digest('base64');
  assert.deepEqual(directives['script-src'], [`'sha256-${hash}'`, 'blob:']);
});
