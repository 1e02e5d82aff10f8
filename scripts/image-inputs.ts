import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Whether the container image must be checked again (decision 162): `--changed` exits 0 when the
 * image's inputs differ from those of the last image check that passed on this machine (or none
 * passed), 1 when they are the same; `--record` records them after a check that passed.
 *
 * The inputs are what decides how the image is built: the Containerfile and .dockerignore, the
 * dependencies (package.json, package-lock.json) and the build's scripts. The product's code is
 * checked in the image's shape by the compiled-server and deploy suites on every run.
 */
export const IMAGE_INPUTS = [
  'docs/deploy/Containerfile',
  '.dockerignore',
  'package.json',
  'package-lock.json',
  'scripts/build-server.ts',
  'scripts/prerender.ts',
  'scripts/prerender-html.ts',
  'scripts/image-check.ts',
  'scripts/image-inputs.ts',
];

const ROOT = join(import.meta.dirname, '..');
const RECORD = join(process.env.XDG_CACHE_HOME ?? join(process.env.HOME ?? '/root', '.cache'), 'union-sincere', 'image-inputs.sha256');

export function imageInputsHash(root = ROOT): string {
  const hash = createHash('sha256');
  for (const file of IMAGE_INPUTS) {
    const path = join(root, file);
    hash.update(`${file}\n`).update(existsSync(path) ? readFileSync(path) : 'absent');
  }
  return hash.digest('hex');
}

if (process.argv[1] === import.meta.filename) {
  const current = imageInputsHash();
  if (process.argv.includes('--record')) {
    mkdirSync(dirname(RECORD), { recursive: true });
    writeFileSync(RECORD, `${current}\n`);
  } else {
    const recorded = existsSync(RECORD) ? readFileSync(RECORD, 'utf8').trim() : '';
    process.exit(recorded === current && process.env.IMAGE_CHECK !== '1' ? 1 : 0);
  }
}
