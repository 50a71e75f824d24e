// The app's own static server for dist/ (Node's http, no dependency), on loopback only:
//  - sends the precompressed copy the build wrote beside a file (`.br`, else `.gz`:
//    scripts/precompress.mjs) when the request's Accept-Encoding accepts it (q-values honoured,
//    the file itself otherwise), with Content-Encoding and `Vary: Accept-Encoding`;
//  - the file's own Content-Type (application/wasm for .wasm, so the browser compiles it while it
//    streams in);
//  - caches Trunk's hashed file names for a year (`immutable`: a new build is a new name) and has
//    the browser ask again for every other file (index.html, sw.js, the demo session, the schemas:
//    `no-cache`, answered by a 304 when the ETag still matches);
//  - GET and HEAD only; 404 for anything that is not a file under the served folder (`..`,
//    encoded or not, and symlinks out of it included).
// `node scripts/serve.mjs [DIR] [--port N]` (default dist/ on PORT or 8080); the tests import
// `startServer`.
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat, realpath } from 'node:fs/promises';
import { extname, join, resolve, sep, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Content types by extension; text types say their charset. */
export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/** Trunk's hashed names (`name-<hex>.ext`, the wasm's `_bg`), the same test as static/sw.js: their
 *  content never changes under that name. */
export const HASHED = /-[0-9a-f]{8,16}(_bg)?\.(js|wasm|css|svg)$/;

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

/** The precompressed copies a server may send, in the order it prefers them when the client
 *  accepts both equally. */
const CODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
];

/** Parses Accept-Encoding into a map coding → q (RFC 9110 §12.5.3); `x-gzip` is gzip. */
export function parseAcceptEncoding(header) {
  const q = new Map();
  if (!header) return q;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().split(';');
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k.trim().toLowerCase() === 'q') {
        const n = Number(v);
        weight = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0;
      }
    }
    q.set(coding === 'x-gzip' ? 'gzip' : coding, weight);
  }
  return q;
}

/** Which content coding to send, given the codings available beside the file: the acceptable one
 *  (q > 0) with the highest q, ties in the server's order (br, gzip); `identity` (the file itself)
 *  when none is acceptable, when the header is absent, or when the header weights identity
 *  higher than every coding. */
export function chooseEncoding(header, available) {
  const q = parseAcceptEncoding(header);
  const weight = (c) => (q.has(c) ? q.get(c) : q.has('*') ? q.get('*') : 0);
  // identity competes only when the header weights it (by name or `*`); unnamed, it is the
  // fallback, below any acceptable coding. It is sent when nothing else is acceptable.
  const identity = q.has('identity') ? q.get('identity') : q.has('*') ? q.get('*') : 0;
  let best = null;
  let bestQ = 0;
  for (const [coding] of CODINGS) {
    if (!available.includes(coding)) continue;
    const w = weight(coding);
    if (w > bestQ) {
      best = coding;
      bestQ = w;
    }
  }
  if (best && bestQ > 0 && bestQ >= identity) return best;
  return 'identity';
}

/** The Cache-Control of a file, by its name. */
export function cacheControl(path) {
  return HASHED.test(path) ? IMMUTABLE : NO_CACHE;
}

async function fileStat(path) {
  try {
    const s = await stat(path);
    return s.isFile() ? s : null;
  } catch {
    return null;
  }
}

/** The file a URL path names under `root` (a directory gives its index.html), or null when it is
 *  not a file inside root. */
async function locate(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  let path = resolve(root, '.' + decoded);
  if (path !== root && !path.startsWith(root + sep)) return null;
  try {
    if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
    const real = await realpath(path);
    if (!real.startsWith(root + sep)) return null;
  } catch {
    return null;
  }
  const s = await fileStat(path);
  return s ? { path, stat: s } : null;
}

function etag(s, coding) {
  return `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}${coding === 'identity' ? '' : '-' + coding}"`;
}

/** Handles one request for files under `root` (an absolute, real path). */
export async function handle(root, req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Only GET and HEAD.\n');
    return;
  }
  const urlPath = (req.url || '/').split('?')[0].split('#')[0];
  const found = urlPath.startsWith('/') ? await locate(root, urlPath) : null;
  if (!found) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': NO_CACHE });
    res.end(req.method === 'HEAD' ? undefined : 'Not found.\n');
    return;
  }
  const variants = {};
  for (const [coding, ext] of CODINGS) {
    const s = await fileStat(found.path + ext);
    if (s) variants[coding] = { path: found.path + ext, stat: s };
  }
  const coding = chooseEncoding(req.headers['accept-encoding'], Object.keys(variants));
  const sent = coding === 'identity' ? found : variants[coding];
  const headers = {
    'Content-Type': TYPES[extname(found.path).toLowerCase()] || 'application/octet-stream',
    'Cache-Control': cacheControl(found.path),
    ETag: etag(sent.stat, coding),
    'X-Content-Type-Options': 'nosniff',
  };
  if (Object.keys(variants).length) headers.Vary = 'Accept-Encoding';
  if (coding !== 'identity') headers['Content-Encoding'] = coding;
  const match = req.headers['if-none-match'];
  if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === headers.ETag)) {
    delete headers['Content-Type'];
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['Content-Length'] = sent.stat.size;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(sent.path)
    .on('error', () => res.destroy())
    .pipe(res);
}

/** Starts a server for `dir` on `host:port` (port 0: a free one); resolves to
 *  `{ url, port, close }`. `log`, when given, is called once per answered request with
 *  `{ method, path, status, bytes, encoding }` (`bytes`: the body's length as sent) — the request
 *  log the first-visit test and benchmark read. */
export async function startServer({ dir, port = 0, host = '127.0.0.1', log }) {
  const root = await realpath(resolve(dir));
  const server = createServer((req, res) => {
    if (log) {
      // The headers as `handle` writes them (writeHead with an object), and the body's bytes.
      let sent = {};
      let bytes = 0;
      const { writeHead, write, end } = res;
      res.writeHead = function (status, headers) {
        sent = headers || {};
        return writeHead.apply(this, arguments);
      };
      const count = (chunk) => {
        if (chunk && typeof chunk !== 'function') bytes += Buffer.byteLength(chunk);
      };
      res.write = function (chunk) {
        count(chunk);
        return write.apply(this, arguments);
      };
      res.end = function (chunk) {
        count(chunk);
        return end.apply(this, arguments);
      };
      res.on('finish', () => log({
        method: req.method,
        path: (req.url || '/').split('?')[0],
        status: res.statusCode,
        bytes,
        encoding: sent['Content-Encoding'] || 'identity',
      }));
    }
    handle(root, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, ok);
  });
  const bound = server.address().port;
  return {
    url: `http://${host}:${bound}/`,
    port: bound,
    close: () =>
      new Promise((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  let port = Number(process.env.PORT || 8080);
  let dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--port') port = Number(args[++i]);
    else dir = args[i];
  }
  const srv = await startServer({ dir, port });
  console.log(`serving ${resolve(dir)} on ${srv.url}`);
}
