import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHUNK_GROUPS, type ChunkGroup, chunkGroupProblems, codeSplittingGroups, moduleKey } from './chunk-groups.ts';

const ROOT = '/repo';
const GROUPS: ChunkGroup[] = [
  { name: 'framework', packages: ['react', '@tanstack/react-router'] },
  { name: 'site', modules: ['src/components/ui/button.tsx', 'src/components/ui/button.css.ts'] },
];

describe('chunk groups by module identity (decision 220)', () => {
  it('name a module by its path from the root, a stylesheet by its .css.ts, a library by its package', () => {
    expect(moduleKey('/repo/src/components/ui/button.tsx', ROOT)).toBe('src/components/ui/button.tsx');
    expect(moduleKey('/repo/src/components/ui/button.css.ts.vanilla.css?used', ROOT)).toBe('src/components/ui/button.css.ts');
    expect(moduleKey('/elsewhere/node_modules/@tanstack/react-router/dist/esm/link.js', ROOT)).toBe('package:@tanstack/react-router');
    expect(moduleKey('/repo/node_modules/a/node_modules/react/index.js', ROOT)).toBe('package:react');
  });

  it('give rolldown a test per group that holds exactly the named modules', () => {
    const [framework, site] = codeSplittingGroups(ROOT, GROUPS);
    expect(framework?.test('/x/node_modules/react/index.js')).toBe(true);
    expect(framework?.test('/x/node_modules/@tanstack/react-query/build/modern/index.js')).toBe(false);
    expect(site?.test('/repo/src/components/ui/button.tsx')).toBe(true);
    // A file whose name merely starts like a named one is not held (the old patterns matched prefixes).
    expect(site?.test('/repo/src/components/ui/button-group.tsx')).toBe(false);
    expect(site?.test('/repo/src/components/ui/button.css.ts.vanilla.css')).toBe(true);
  });

  it('fail the build when a named file was renamed or a named package left, naming it', () => {
    const ids = ['/repo/src/components/ui/btn.tsx', '/repo/src/components/ui/button.css.ts', '/x/node_modules/react/index.js'];
    expect(chunkGroupProblems(GROUPS, ROOT, ids, [])).toEqual([
      'group « framework » names the package @tanstack/react-router, which is not in the build',
      'group « site » names src/components/ui/button.tsx, which is not in the build (renamed, moved or removed?)',
    ]);
  });

  it('fail the build when a named module was rendered in another chunk than its group’s', () => {
    const ids = [
      '/repo/src/components/ui/button.tsx',
      '/repo/src/components/ui/button.css.ts',
      '/x/node_modules/react/index.js',
      '/x/node_modules/@tanstack/react-router/dist/esm/index.js',
    ];
    const chunks = [
      { name: 'framework', moduleIds: ['/x/node_modules/react/index.js', '/x/node_modules/@tanstack/react-router/dist/esm/index.js'] },
      { name: 'site', moduleIds: ['/repo/src/components/ui/button.css.ts'] },
      { name: 'index', moduleIds: ['/repo/src/components/ui/button.tsx', '/repo/src/main.tsx'] },
    ];
    expect(chunkGroupProblems(GROUPS, ROOT, ids, chunks)).toEqual([
      'src/components/ui/button.tsx belongs to the group « site » but is in the chunk « index »',
    ]);
    chunks[2] = { name: 'index', moduleIds: ['/repo/src/main.tsx'] };
    chunks[1] = { name: 'site', moduleIds: ['/repo/src/components/ui/button.tsx', '/repo/src/components/ui/button.css.ts'] };
    expect(chunkGroupProblems(GROUPS, ROOT, ids, chunks)).toEqual([]);
  });

  it('name only files that exist, each in one group', () => {
    const root = join(import.meta.dirname, '..');
    const named = CHUNK_GROUPS.flatMap((group) => group.modules ?? []);
    expect(named.filter((module) => !existsSync(join(root, module)))).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
    const packages = CHUNK_GROUPS.flatMap((group) => group.packages ?? []);
    expect(new Set(packages).size).toBe(packages.length);
  });
});
