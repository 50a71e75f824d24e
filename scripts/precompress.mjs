// Run by the Trunk post_build hook csp-boot.mjs, after the service worker's file list is written:
// puts a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every compressible file
// of the build, so a server (scripts/serve.mjs, or a static host that serves precompressed files)
// sends them without compressing on each request. A copy that would not be smaller is not written.
// `node scripts/precompress.mjs DIR` does the same to a built folder.
import { readFileSync, writeFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The file kinds worth compressing (images like png are compressed already). */
export const COMPRESSIBLE = /\.(wasm|js|mjs|css|html|json|webmanifest|svg|txt|map)$/;

/** The Brotli and gzip bytes of `bytes`, at the strongest settings. */
export function compress(bytes) {
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gz = gzipSync(bytes, { level: 9 });
  return { br, gz };
}

/** Writes (or rewrites) the `.br` and `.gz` copies of one file; a copy that would not be smaller
 *  is removed instead. */
export function precompressFile(path) {
  const bytes = readFileSync(path);
  const { br, gz } = compress(bytes);
  for (const [ext, out] of [['.br', br], ['.gz', gz]]) {
    if (out.length < bytes.length) writeFileSync(path + ext, out);
    else rmSync(path + ext, { force: true });
  }
  return { raw: bytes.length, br: Math.min(br.length, bytes.length), gz: Math.min(gz.length, bytes.length) };
}

/** Writes the `.br` and `.gz` copies under `dir`; returns how many files were compressed and the
 *  sizes of the app's download (its wasm, js and css: raw, Brotli, gzip). */
export function precompressDir(dir) {
  let n = 0;
  const download = { raw: 0, br: 0, gz: 0 };
  (function walk(d) {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      if (!COMPRESSIBLE.test(name)) continue;
      const sizes = precompressFile(path);
      if (/\.(wasm|js|css)$/.test(name)) for (const k of Object.keys(download)) download[k] += sizes[k];
      n += 1;
    }
  })(dir);
  return { files: n, download };
}

/** One line for the build log: how many files, and the download's sizes. */
export function summary({ files, download }) {
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  return `precompress: .br and .gz beside ${files} files; the download (wasm + js + css) is ` +
    `${kb(download.raw)} raw, ${kb(download.br)} Brotli, ${kb(download.gz)} gzip`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('precompress: give the folder, e.g. node scripts/precompress.mjs dist');
    process.exit(1);
  }
  console.log(summary(precompressDir(dir)));
}
