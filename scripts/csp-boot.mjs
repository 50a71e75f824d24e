// Trunk post_build hook: moves the inline start-up <script type="module"> Trunk injects into
// index.html into its own file, so the page runs under `script-src 'self' 'wasm-unsafe-eval'`
// with no inline script allowed. The file name carries a hash of its content (cache busting).
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const dir = process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error('csp-boot: TRUNK_STAGING_DIR is not set (run me as a Trunk post_build hook)');
  process.exit(1);
}
const indexPath = join(dir, 'index.html');
let html = readFileSync(indexPath, 'utf8');
// `type="module"`, or `type=module` as Trunk's minified page writes it (Trunk.toml: minify).
const inline = /<script type=(?:"module"|module)(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/g;
let moved = 0;
html = html.replace(inline, (_all, attrs, body) => {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const name = `boot-${hash}.js`;
  writeFileSync(join(dir, name), body.trim() + '\n');
  moved += 1;
  const rest = attrs.replace(/\snonce="[^"]*"/, '');
  return `<script type="module"${rest} src="./${name}"></script>`;
});
if (/<script(?![^>]*\bsrc=)[^>]*>[\s\S]*?\S[\s\S]*?<\/script>/.test(html)) {
  console.error('csp-boot: an inline script is left in index.html; the CSP would block it');
  process.exit(1);
}
writeFileSync(indexPath, html);
console.log(`csp-boot: moved ${moved} inline script(s) to files`);
// Then the service worker's file list, which must see the final index.html and boot file (one
// hook, so the two never run side by side).
await import('./offline-files.mjs');
// Last, the Brotli and gzip copies of every compressible file (after the list, so sw.js is final
// and the copies are not in it).
const { precompressDir, summary } = await import('./precompress.mjs');
console.log(summary(precompressDir(dir)));
