/**
 * Compiles the server: bundles `bff/server.ts` and everything it imports from `bff/` and
 * `machines/` into one ES module, `dist/server/server.mjs` (node22.12 as `engines` says, packages left external:
 * `node_modules` is loaded as usual), so that `npm start` runs plain JavaScript instead of
 * compiling TypeScript through tsx at every start (decision 080, start-up target).
 *
 * Paths: a module that locates files from its own folder (`import.meta.dirname`/`filename`/`url`:
 * the SQL migrations, `content/`, `public/`, `dist/client`) keeps pointing at the same folder of
 * the source tree once bundled: each such expression is rewritten to the module's original
 * location, relative to the bundle (`dist/server/../../bff/db` for `bff/db/migrate.ts`). Nothing
 * is copied, so the bundle never reads a stale copy of a migration, and `tsx`/Vitest runs are
 * unchanged. Any other `import.meta.*` in a bundled module fails the build.
 *
 * Usage: `node --import tsx scripts/build-server.ts [--outdir <dir>] [--stamp]`. `--stamp` (the
 * last step of `npm run build`) writes `dist/build-stamp.json`, which `scripts/start.mjs`
 * compares with the sources to decide whether `npm start` must build first.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { authMigrations } from '#bff/stand-ins/auth-service/store/migrations.ts';
import { appMigrations } from '#bff/db/migrate.ts';
import { ensurePgliteTemplate, PGLITE_TEMPLATE_DIR } from '#bff/db/pglite-template.ts';

export const ROOT = resolve(import.meta.dirname, '..');
export const DEFAULT_OUTDIR = join(ROOT, 'dist', 'server');
export const STAMP_FILE = join(ROOT, 'dist', 'build-stamp.json');
export const SERVER_ENTRY = join(ROOT, 'bff', 'server.ts');

export interface BuildServerOptions {
  /** Folder of `server.mjs` (default `dist/server`). */
  outdir?: string;
  /** The module to bundle (default `bff/server.ts`). */
  entry?: string;
  /** Also write a source map beside the bundle (default true). */
  sourcemap?: boolean;
}

/**
 * Packages the server loads at their first use, never at start (decision 080): the bundle is
 * split at each `import()`, and the build fails if one of them is imported by a module that the
 * start loads (reached from `bff/server.ts` through static imports and server.ts's own `import()`s).
 */
export const LAZY_PACKAGES = ['pdf-lib', 'stripe', 'sharp', 'qrcode', 'nodemailer'] as const;

export interface BuiltServer {
  file: string;
  /** Source files bundled (repository-relative). */
  inputs: string[];
  /** Source modules the start loads. */
  startModules: string[];
  /** Packages and built-ins the start loads. */
  external: string[];
  /** Packages loaded only at their first use (`import()` after start). */
  lazy: string[];
  /** Every file written (`server.mjs`, its chunks, source maps). */
  outputs: string[];
  /** Size of all the JavaScript written. */
  bytes: number;
}

const IMPORT_META = /\bimport\.meta\b(\.(dirname|filename|url)\b)?/g;

/** Rewrites `import.meta.dirname|filename|url` of each bundled module to its source location. */
function sourceLocations(outdir: string): Plugin {
  const posix = (path: string) => path.split(sep).join('/');
  return {
    name: 'source-locations',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta')) return undefined;
        const dir = posix(relative(outdir, dirname(args.path))) || '.';
        const file = posix(relative(outdir, args.path));
        let unsupported = '';
        const contents = source.replace(IMPORT_META, (match, _property: string | undefined, name: string | undefined) => {
          if (name === 'dirname') return `__sourcePath(import.meta.dirname, ${JSON.stringify(dir)})`;
          if (name === 'filename') return `__sourcePath(import.meta.dirname, ${JSON.stringify(file)})`;
          if (name === 'url') return `__sourceUrl(__sourcePath(import.meta.dirname, ${JSON.stringify(file)})).href`;
          unsupported ||= match;
          return match;
        });
        if (unsupported) {
          return {
            errors: [
              { text: `${relative(ROOT, args.path)}: only import.meta.dirname, .filename and .url are supported in the server bundle` },
            ],
          };
        }
        // Appended (imports are hoisted) so that the source map's lines stay those of the file.
        const helpers = "\nimport { join as __sourcePath } from 'node:path';\nimport { pathToFileURL as __sourceUrl } from 'node:url';\n";
        return { contents: `${contents}${helpers}`, loader: args.path.endsWith('.ts') ? 'ts' : 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

export async function buildServer(options: BuildServerOptions = {}): Promise<BuiltServer> {
  const outdir = resolve(options.outdir ?? DEFAULT_OUTDIR);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const file = join(outdir, 'server.mjs');
  const result = await build({
    entryPoints: { server: options.entry ?? SERVER_ENTRY },
    outdir,
    // Every output in one folder: the rewritten `import.meta.dirname` paths are relative to it.
    splitting: true,
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22.12',
    packages: 'external',
    sourcemap: options.sourcemap ?? true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    banner: { js: '// Built by scripts/build-server.ts from bff/server.ts: do not edit.' },
    plugins: [sourceLocations(outdir)],
  });
  const inputs = Object.keys(result.metafile.inputs).sort();
  const outside = inputs.filter((input) => !/^(bff|machines)\//.test(input));
  if (outside.length > 0) throw new Error(`The server bundle reaches outside bff/ and machines/: ${outside.join(', ')}`);
  // What the start loads: modules reached from the entry through static imports, and through
  // the entry's own `import()`s (run at start too). Any other `import()` waits for its first use.
  const entry = relative(ROOT, options.entry ?? SERVER_ENTRY)
    .split(sep)
    .join('/');
  const startModules = new Set<string>([entry]);
  const external = new Set<string>();
  const everyExternal = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imported of input.imports) if (imported.external) everyExternal.add(imported.path);
  }
  for (const module of startModules) {
    for (const imported of result.metafile.inputs[module]?.imports ?? []) {
      const loadedAtStart = imported.kind === 'import-statement' || (module === entry && imported.kind === 'dynamic-import');
      if (!loadedAtStart) continue;
      if (imported.external) external.add(imported.path);
      else startModules.add(imported.path);
    }
  }
  const eager = LAZY_PACKAGES.filter((name) => [...external].some((path) => path === name || path.startsWith(`${name}/`)));
  if (eager.length > 0) throw new Error(`Loaded at start by the server bundle, expected at first use only: ${eager.join(', ')}`);
  const outputs = result.metafile.outputs;
  return {
    file,
    inputs,
    startModules: [...startModules].sort(),
    external: [...external].sort(),
    lazy: [...everyExternal].filter((path) => !external.has(path)).sort(),
    outputs: Object.keys(outputs).map((path) => resolve(ROOT, path)),
    bytes: Object.entries(outputs).reduce((sum, [path, output]) => sum + (path.endsWith('.mjs') ? output.bytes : 0), 0),
  };
}

/** The stamp `scripts/start.mjs` compares with the sources: written once the whole build is done. */
export function writeBuildStamp(built: BuiltServer) {
  mkdirSync(dirname(STAMP_FILE), { recursive: true });
  writeFileSync(STAMP_FILE, `${JSON.stringify({ builtAt: new Date().toISOString(), server: relative(ROOT, built.file) }, null, 2)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const outFlag = args.indexOf('--outdir');
  const started = performance.now();
  const main = async () => {
    const built = await buildServer(outFlag >= 0 && args[outFlag + 1] ? { outdir: args[outFlag + 1] as string } : {});
    console.log(
      `server → ${relative(process.cwd(), built.file)} (${(built.bytes / 1024).toFixed(0)} kB, ${built.inputs.length} modules; loaded at first use: ${built.lazy.join(', ')}) in ${(performance.now() - started).toFixed(0)} ms`,
    );
    // The empty cluster an empty DATA_DIR starts from (bff/db/pglite-template.ts).
    const template = await ensurePgliteTemplate([appMigrations, authMigrations]);
    console.log(`PGlite template → ${relative(process.cwd(), PGLITE_TEMPLATE_DIR)} (${template})`);
    if (args.includes('--stamp')) writeBuildStamp(built);
  };
  main().then(
    () => {},
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
