// Run by the Trunk post_build hook csp-boot.mjs, last: writes the service worker's list of files to keep
// offline and its version into the staged sw.js. The version is a hash of every file's name and
// content, so any change to the app is a new version the browser installs on the next visit.
import { readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('offline-files: TRUNK_STAGING_DIR is not set (run me as a Trunk post_build hook)');
  process.exit(1);
}
const files = [];
(function walk(d) {
  for (const name of readdirSync(d).sort()) {
    const path = join(d, name);
    if (statSync(path).isDirectory()) walk(path);
    else files.push(relative(dir, path).split('\\').join('/'));
  }
})(dir);
// Not the service worker itself, nor the precompressed copies (a server picks those by the
// request's Accept-Encoding; the browser caches the decoded file under its own name), nor what
// offline use never needs: the providers' schemas (a provider call needs the network anyway) and
// the 512 px icon (the browser's install prompt fetches it). The worker keeps those when the page
// first asks for them.
const NOT_OFFLINE = (f) => f.startsWith('schemas/') || f === 'icon-512.png';
const listed = (f) => f !== 'sw.js' && !/\.(br|gz)$/.test(f);
const kept = files.filter((f) => listed(f) && !NOT_OFFLINE(f));
const hash = createHash('sha256');
for (const f of files.filter(listed)) hash.update(f).update('\0').update(readFileSync(join(dir, f)));
const version = hash.digest('hex').slice(0, 16);
const swPath = join(dir, 'sw.js');
const sw = readFileSync(swPath, 'utf8');
if (!sw.includes('__ROUNDTABLE_VERSION__') || !sw.includes("['__ROUNDTABLE_FILES__']")) {
  console.error('offline-files: sw.js has no placeholders to fill');
  process.exit(1);
}
// The page once, as `./` (what a visit asks for; the worker answers a navigation offline with it):
// `./index.html` is the same bytes under a second name, which would be a second download.
const list = JSON.stringify(['./', ...kept.filter((f) => f !== 'index.html').map((f) => `./${f}`)]);
writeFileSync(swPath, sw.replace('__ROUNDTABLE_VERSION__', version).replace("['__ROUNDTABLE_FILES__']", list));
console.log(`offline-files: ${kept.length} files, version ${version}`);
