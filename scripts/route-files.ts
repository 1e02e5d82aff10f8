import { existsSync, readdirSync } from 'node:fs';

/**
 * Which route files render a path, from the file names alone (TanStack Router's file-based
 * routing): used by the bundle budget (what a page loads first) and by the prerender (what a
 * signed-in page's shell preloads).
 */

function routePathOf(routeFile: string): { path: string; layout: boolean } {
  const segments = routeFile.replace(/\.tsx?$/, '').split('/');
  const last = segments.at(-1);
  const layout = last === 'route' || last === '__root';
  if (last === 'route' || last === 'index' || last === '__root') segments.pop();
  // `_staff` is a pathless layout; `mon-compte_` is `mon-compte` outside its parent layout.
  const kept = segments.filter((s) => !s.startsWith('_')).map((s) => s.replace(/_$/, ''));
  return { path: `/${kept.join('/')}`, layout };
}

function matches(pattern: string, path: string): boolean {
  const a = pattern.split('/').filter(Boolean);
  const b = path.split('/').filter(Boolean);
  if (a.length !== b.length) return false;
  return a.every((s, i) => s.startsWith('$') || s === b[i]);
}

/** Route files (relative to src/routes) rendering `path`: the root, its layouts and the leaf. */
export function routeFilesFor(path: string, routeFiles: string[]): string[] {
  const leaves = routeFiles.filter((f) => !routePathOf(f).layout && matches(routePathOf(f).path, path));
  // A static segment wins over a parameter.
  leaves.sort((x, y) => (x.match(/\$/g)?.length ?? 0) - (y.match(/\$/g)?.length ?? 0));
  const leaf = leaves[0];
  if (!leaf) return [];
  const dirs = leaf.split('/').slice(0, -1);
  const layouts = dirs.map((_, i) => `${dirs.slice(0, i + 1).join('/')}/route.tsx`).filter((f) => routeFiles.includes(f));
  return ['__root.tsx', ...layouts, leaf].filter((f) => routeFiles.includes(f));
}

/** Every route file under `dir`, relative, with forward slashes. */
export function listRouteFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).filter((f) => /\.tsx?$/.test(f)).map((f) => f.split('\\').join('/'));
}
