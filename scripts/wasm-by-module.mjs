// Which parts of our code a wasm file's bytes go to: reads the code section and the `name`
// section (function names, which rustc keeps unless stripped) and sums each function body's size
// under the Rust module path it was compiled from. With LTO, inlined code counts where it ended up,
// so the figures say roughly what each part costs, not to the byte.
//
//   node scripts/wasm-by-module.mjs FILE.wasm [prefix …]
//
// Prints the code bytes under each prefix (default: the kinds of session, the engine, the demo
// model, the validator, the web app), and exports `byModule` for scripts/budgets.mjs.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  let b;
  do {
    b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [value, at];
}

/** A legacy-mangled Rust symbol (`_ZN15roundtable_core4tree…E`) as its path; others unchanged. */
export function demangle(name) {
  if (!name.startsWith('_ZN')) return name;
  const parts = [];
  let i = 3;
  while (i < name.length && name[i] !== 'E') {
    let j = i;
    while (j < name.length && name[j] >= '0' && name[j] <= '9') j++;
    if (j === i) break;
    const len = Number(name.slice(i, j));
    parts.push(name.slice(j, j + len));
    i = j + len;
  }
  if (parts.length && /^h[0-9a-f]{16}$/.test(parts[parts.length - 1])) parts.pop();
  return parts
    .join('::')
    .replace(/^_/, '')
    .replaceAll('$LT$', '<')
    .replaceAll('$GT$', '>')
    .replaceAll('$u20$', ' ')
    .replaceAll('$RF$', '&')
    .replaceAll('$C$', ',')
    .replaceAll('$BP$', '*')
    .replaceAll('$u7b$', '{')
    .replaceAll('$u7d$', '}')
    .replaceAll('..', '::');
}

/** Code bytes per function name, or null when the file has no name section. */
export function functionSizes(bytes) {
  let at = 8;
  let imported = 0;
  const bodies = [];
  let names = null;
  while (at < bytes.length) {
    const id = bytes[at++];
    let size;
    [size, at] = leb(bytes, at);
    const end = at + size;
    if (id === 2) {
      // Imports: function imports take the first function indices.
      let n;
      let p = at;
      [n, p] = leb(bytes, p);
      for (let i = 0; i < n; i++) {
        let len;
        [len, p] = leb(bytes, p);
        p += len;
        [len, p] = leb(bytes, p);
        p += len;
        const kind = bytes[p++];
        if (kind === 0) {
          imported++;
          [, p] = leb(bytes, p);
        } else if (kind === 1) {
          p += 1;
          const flags = bytes[p++];
          [, p] = leb(bytes, p);
          if (flags & 1) [, p] = leb(bytes, p);
        } else if (kind === 2) {
          const flags = bytes[p++];
          [, p] = leb(bytes, p);
          if (flags & 1) [, p] = leb(bytes, p);
        } else if (kind === 3) {
          p += 2;
        } else {
          [, p] = leb(bytes, p);
        }
      }
    } else if (id === 10) {
      let n;
      let p = at;
      [n, p] = leb(bytes, p);
      for (let i = 0; i < n; i++) {
        let len;
        [len, p] = leb(bytes, p);
        bodies.push(len);
        p += len;
      }
    } else if (id === 0) {
      let len;
      let p = at;
      [len, p] = leb(bytes, p);
      const name = Buffer.from(bytes.subarray(p, p + len)).toString('utf8');
      p += len;
      if (name === 'name') {
        names = new Map();
        while (p < end) {
          const sub = bytes[p++];
          let subSize;
          [subSize, p] = leb(bytes, p);
          const subEnd = p + subSize;
          if (sub === 1) {
            let n;
            [n, p] = leb(bytes, p);
            for (let i = 0; i < n; i++) {
              let idx;
              let l;
              [idx, p] = leb(bytes, p);
              [l, p] = leb(bytes, p);
              names.set(idx, Buffer.from(bytes.subarray(p, p + l)).toString('utf8'));
              p += l;
            }
          }
          p = subEnd;
        }
      }
    }
    at = end;
  }
  if (!names) return null;
  return bodies.map((size, i) => ({ name: demangle(names.get(imported + i) ?? ''), size }));
}

export const DEFAULT_PREFIXES = [
  'roundtable_team::',
  'roundtable_meeting::',
  'roundtable_dialectic::',
  'roundtable_autocoding::',
  'roundtable_review::',
  'roundtable_engine::engine',
  'roundtable_engine::validate',
  'roundtable_engine::',
  'roundtable_core::',
  'roundtable_web::pages',
  'roundtable_web::providers',
  'roundtable_web::',
];

/** Code bytes under each prefix (a function counts once, under the first prefix it matches). */
export function byModule(bytes, prefixes = DEFAULT_PREFIXES) {
  const fns = functionSizes(bytes);
  if (!fns) return null;
  const sums = Object.fromEntries(prefixes.map((p) => [p, 0]));
  let total = 0;
  for (const { name, size } of fns) {
    // wasm-bindgen's type descriptions run at build time and are not in the shipped wasm.
    if (name.startsWith('__wbindgen_describe')) continue;
    total += size;
    // Generic code is named after its own path, e.g. `<roundtable_meeting::X as …>`.
    const hit = prefixes.find((p) => name.includes(p));
    if (hit) sums[hit] += size;
  }
  return { total, sums };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, ...prefixes] = process.argv.slice(2);
  const result = byModule(readFileSync(file), prefixes.length ? prefixes : DEFAULT_PREFIXES);
  if (!result) {
    console.error(`${file} has no name section (built stripped): nothing to attribute`);
    process.exit(1);
  }
  console.log(`code: ${(result.total / 1024).toFixed(1)} KB in ${file}`);
  for (const [p, s] of Object.entries(result.sums)) {
    console.log(`  ${p.padEnd(36)} ${(s / 1024).toFixed(1).padStart(7)} KB`);
  }
}
