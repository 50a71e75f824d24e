// Writes static/sandbox/sandbox.html from web/sandbox/harness.js: the harness inlined, and a
// Content-Security-Policy that allows that one script by its hash, blob: scripts and workers (the
// run's files), and nothing else (`default-src 'none'`: no request, no frame, no form).
//
//   node scripts/sandbox-page.mjs          write the page
//   node scripts/sandbox-page.mjs --check  exit 1 when the committed page is not what this writes
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const PAGE = join(ROOT, 'static', 'sandbox', 'sandbox.html');

export function page() {
  const script = `\n${readFileSync(join(ROOT, 'web', 'sandbox', 'harness.js'), 'utf8')}`;
  const hash = createHash('sha256').update(script).digest('base64');
  const policy = `default-src 'none'; script-src 'sha256-${hash}' blob:; worker-src blob:`;
  return `<!doctype html>
<!-- Written by scripts/sandbox-page.mjs from web/sandbox/harness.js: do not edit by hand. -->
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<title>Roundtable code sandbox</title>
</head>
<body>
<script>${script}</script>
</body>
</html>
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const want = page();
  if (process.argv.includes('--check')) {
    let have = '';
    try {
      have = readFileSync(PAGE, 'utf8');
    } catch (_) {
      /* missing: not current */
    }
    if (have !== want) {
      console.error('static/sandbox/sandbox.html is not current: run node scripts/sandbox-page.mjs');
      process.exit(1);
    }
  } else {
    writeFileSync(PAGE, want);
  }
}
