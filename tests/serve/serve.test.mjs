// The app's static server (scripts/serve.mjs) over real HTTP on loopback, on a folder laid out as a
// build leaves dist/ (hashed and unhashed names, `.br`/`.gz` copies from scripts/precompress.mjs):
// the coding each Accept-Encoding gets (the decoded body equal to the file), the headers a browser
// caches by, 304 on a matching ETag, HEAD, and 404 for whatever is not a file inside the folder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startServer } from '../../scripts/serve.mjs';
import { precompressDir } from '../../scripts/precompress.mjs';

const WASM = 'roundtable-web-0123456789abcdef_bg.wasm';
const JS = 'roundtable-web-0123456789abcdef.js';
let parent;
let dir;
let srv;
const files = {};

before(async () => {
  parent = mkdtempSync(join(tmpdir(), 'rt-serve-'));
  dir = join(parent, 'dist');
  mkdirSync(join(dir, 'demo'), { recursive: true });
  // Compressible, but not trivially: a wasm-like header and varied text.
  const text = Array.from({ length: 4000 }, (_, i) => `line ${i} ${(i * 7919) % 1013}`).join('\n');
  files[WASM] = Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.from(text)]);
  files[JS] = Buffer.from(`export function start() { return ${JSON.stringify(text.slice(0, 3000))}; }\n`);
  files['index.html'] = Buffer.from(`<!doctype html><title>t</title><script type="module" src="./${JS}"></script>\n`.repeat(20));
  files['sw.js'] = Buffer.from(`const FILES = ${JSON.stringify(Array(200).fill('./x'))};\n`);
  files['demo/demo-session.roundtable.json'] = Buffer.from(JSON.stringify({ calls: text.split('\n').slice(0, 500) }));
  files['icon-192.png'] = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  writeFileSync(join(parent, 'secret.txt'), 'outside the served folder\n');
  symlinkSync(join(parent, 'secret.txt'), join(dir, 'link.txt'));
  precompressDir(dir);
  srv = await startServer({ dir });
});
after(async () => {
  await srv?.close();
  rmSync(parent, { recursive: true, force: true });
});

/** A raw request (the path sent as given: fetch would resolve `..` first). */
function get(path, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: srv.port, path, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(res) {
  const enc = res.headers['content-encoding'];
  if (enc === 'br') return brotliDecompressSync(res.body);
  if (enc === 'gzip') return gunzipSync(res.body);
  assert.equal(enc, undefined, `unknown coding ${enc}`);
  return res.body;
}

test('the build step writes .br and .gz copies that decode to the file, and none for a png', () => {
  for (const name of [WASM, JS, 'index.html', 'sw.js', 'demo/demo-session.roundtable.json']) {
    const br = readFileSync(join(dir, name + '.br'));
    const gz = readFileSync(join(dir, name + '.gz'));
    assert.deepEqual(brotliDecompressSync(br), files[name], name);
    assert.deepEqual(gunzipSync(gz), files[name], name);
    assert.ok(br.length < files[name].length && gz.length < files[name].length, name);
  }
  assert.equal(existsSync(join(dir, 'icon-192.png.br')), false);
  assert.equal(existsSync(join(dir, 'icon-192.png.gz')), false);
});

test('the coding follows Accept-Encoding and its q-values; the decoded body is the file', async () => {
  const cases = [
    ['gzip, deflate, br, zstd', 'br'], // what Chromium sends
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['gzip;q=0.5, identity;q=0.9', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['identity', undefined],
    ['*;q=0', undefined],
    [undefined, undefined],
  ];
  for (const [accept, want] of cases) {
    const res = await get(`/${WASM}`, accept === undefined ? {} : { 'Accept-Encoding': accept });
    assert.equal(res.status, 200, accept);
    assert.equal(res.headers['content-encoding'], want, `Accept-Encoding: ${accept}`);
    assert.equal(res.headers.vary, 'Accept-Encoding', accept);
    assert.equal(Number(res.headers['content-length']), res.body.length, accept);
    assert.deepEqual(decode(res), files[WASM], accept);
    if (want) assert.ok(res.body.length < files[WASM].length, 'the compressed copy is what is sent');
  }
});

test('content types, and cache lifetimes: a year for hashed names, no-cache for the rest', async () => {
  const expect = [
    [`/${WASM}`, 'application/wasm', 'public, max-age=31536000, immutable'],
    [`/${JS}`, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/', 'text/html; charset=utf-8', 'no-cache'],
    ['/index.html', 'text/html; charset=utf-8', 'no-cache'],
    ['/sw.js', 'text/javascript; charset=utf-8', 'no-cache'],
    ['/demo/demo-session.roundtable.json', 'application/json', 'no-cache'],
    ['/icon-192.png', 'image/png', 'no-cache'],
  ];
  for (const [path, type, cache] of expect) {
    const res = await get(path, { 'Accept-Encoding': 'gzip, br' });
    assert.equal(res.status, 200, path);
    assert.equal(res.headers['content-type'], type, path);
    assert.equal(res.headers['cache-control'], cache, path);
    const name = path === '/' ? 'index.html' : path.slice(1);
    assert.deepEqual(decode(res), files[name], path);
  }
  // No copies beside the png: sent as is, and nothing to vary on.
  const png = await get('/icon-192.png', { 'Accept-Encoding': 'br' });
  assert.equal(png.headers['content-encoding'], undefined);
  assert.equal(png.headers.vary, undefined);
});

test('a matching ETag gets a 304 with no body; each coding has its own ETag', async () => {
  const br = await get(`/${WASM}`, { 'Accept-Encoding': 'br' });
  const plain = await get(`/${WASM}`);
  assert.ok(br.headers.etag && plain.headers.etag);
  assert.notEqual(br.headers.etag, plain.headers.etag);
  const again = await get(`/${WASM}`, { 'Accept-Encoding': 'br', 'If-None-Match': br.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal(again.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(again.headers.vary, 'Accept-Encoding');
  // The br copy's tag does not match the file itself.
  const other = await get(`/${WASM}`, { 'If-None-Match': br.headers.etag });
  assert.equal(other.status, 200);
  assert.deepEqual(other.body, files[WASM]);
  const page = await get('/index.html');
  assert.equal((await get('/index.html', { 'If-None-Match': page.headers.etag })).status, 304);
});

test('HEAD sends the headers of GET and no body', async () => {
  const head = await get(`/${WASM}`, { 'Accept-Encoding': 'gzip' }, 'HEAD');
  const full = await get(`/${WASM}`, { 'Accept-Encoding': 'gzip' });
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  for (const h of ['content-type', 'content-encoding', 'content-length', 'cache-control', 'etag', 'vary']) {
    assert.equal(head.headers[h], full.headers[h], h);
  }
});

test('anything that is not a file inside the folder is a 404; other methods a 405', async () => {
  for (const path of ['/missing.js', '/../secret.txt', '/%2e%2e/secret.txt', '/demo/%2E%2E/%2E%2E/secret.txt',
    '/..%2fsecret.txt', '/..%5csecret.txt', '/link.txt', '/%00', '/%zz', '/demo/../../secret.txt']) {
    const res = await get(path);
    assert.equal(res.status, 404, path);
    assert.ok(!res.body.toString().includes('outside'), path);
  }
  const post = await get('/index.html', {}, 'POST');
  assert.equal(post.status, 405);
  assert.equal(post.headers.allow, 'GET, HEAD');
});
