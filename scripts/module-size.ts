/**
 * Module size (issue 61 point 2, decision 215): no hand-written TypeScript module over
 * `MAX_LINES` lines, so that each can be held in one's head. Run by `npm run check`:
 *
 *   node --import tsx scripts/module-size.ts
 *
 * It reads every `.ts`/`.tsx` file under `ROOTS`, except tests (`*.test.*`, `*.spec.*`; `tests/`
 * is not a root) and generated files (`*.gen.*`), and exits 1 naming each file over the limit that
 * `ALLOWED` does not name. An allowed file that has come under the limit is only reported: the
 * entry can go.
 */
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

export const MAX_LINES = 450;

const ROOT = resolve(import.meta.dirname, '..');
/** The hand-written code: the SPA, the server, the rules and the scripts. */
const ROOTS = ['src', 'bff', 'machines', 'scripts'];
const CHECKED = /\.tsx?$/;
const TEST = /\.(test|spec)\.tsx?$/;
const GENERATED = /\.gen\.tsx?$/;

/**
 * Files over the limit for now, each with why. Remove an entry once its file is split (the check
 * says when one has come under the limit).
 */
export const ALLOWED: Record<string, string> = {};

export interface Oversized {
  file: string;
  lines: number;
}

/** Lines of a text as `wc -l` counts them (a last line without its newline counts too). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

function* modules(root: string, folder: string): Generator<string> {
  let entries: Dirent[];
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* modules(root, path);
    else if (CHECKED.test(entry.name) && !TEST.test(entry.name) && !GENERATED.test(entry.name)) {
      yield relative(root, path).split(sep).join('/');
    }
  }
}

/** Every checked module over `maxLines` under `root`'s `roots`, largest first. */
export function oversizedModules(root: string, roots: readonly string[] = ROOTS, maxLines = MAX_LINES): Oversized[] {
  const found: Oversized[] = [];
  for (const folder of roots) {
    for (const file of modules(root, join(root, folder))) {
      const lines = lineCount(readFileSync(join(root, file), 'utf8'));
      if (lines > maxLines) found.push({ file, lines });
    }
  }
  return found.sort((a, b) => b.lines - a.lines);
}

export interface SizeVerdict {
  /** Over the limit and not allowed: the check fails. */
  failures: Oversized[];
  /** Allowed entries now under the limit (or gone): their entry can be removed. */
  stale: string[];
}

export function checkModuleSizes(
  root: string,
  allowed: Record<string, string> = ALLOWED,
  roots: readonly string[] = ROOTS,
  maxLines = MAX_LINES,
): SizeVerdict {
  const over = oversizedModules(root, roots, maxLines);
  const overFiles = new Set(over.map((o) => o.file));
  return {
    failures: over.filter((o) => !(o.file in allowed)),
    stale: Object.keys(allowed).filter((file) => !overFiles.has(file)),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { failures, stale } = checkModuleSizes(ROOT);
  for (const file of stale) console.log(`module-size: ${file} is no longer over ${MAX_LINES} lines; remove it from ALLOWED.`);
  if (failures.length > 0) {
    for (const { file, lines } of failures) console.error(`module-size: ${file} has ${lines} lines (limit ${MAX_LINES}).`);
    console.error('Split each by what changes together (issue 61 point 2, decision 215).');
    process.exit(1);
  }
  console.log(`module-size: every hand-written module is at most ${MAX_LINES} lines (${Object.keys(ALLOWED).length} allowed for now).`);
}
