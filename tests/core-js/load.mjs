// Loads the built Node package of the core's JS API (core-js/pkg-node, from
// scripts/build-core-pkg.sh node).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const pkgDir = path.join(root, 'core-js', 'pkg-node');
const require = createRequire(import.meta.url);

/** The wasm-bindgen module: validateStep, stepSchema, stepNames, newTree, applyTreeOperations, … */
export const core = require(pkgDir);

export const STEPS = ['bootstrap', 'reflect', 'plan_assign', 'write', 'peer_review', 'inspection', 'presentation'];
