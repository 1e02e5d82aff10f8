import { relative } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Vite's named chunks (decisions 159, 215, 220): each group names the modules it holds — our
 * files by their path from the repository's root, libraries by package — instead of file-name
 * patterns. The build fails (`chunkGroupsPlugin`) when a named file is no longer in the build
 * (renamed, moved, removed) or when a named module landed in another chunk than its group's: a
 * rename changes no chunk silently any more. A `.css.ts` file brings its stylesheet along.
 */
export interface ChunkGroup {
  name: string;
  /** Our modules, by path from the repository's root. */
  modules?: readonly string[];
  /** Libraries: every module under `node_modules/<package>/`. */
  packages?: readonly string[];
  /** Rolldown's option; true (its default): the modules these import come along. */
  includeDependenciesRecursively?: boolean;
}

export const CHUNK_GROUPS: readonly ChunkGroup[] = [
  // React and the router: one chunk every page loads first, instead of a dozen small ones.
  // TanStack Query is not in it: only the signed-in pages use it (the 'app' chunk, decision 214).
  {
    name: 'framework',
    packages: [
      'react',
      'react-dom',
      'scheduler',
      'use-sync-external-store',
      '@tanstack/react-router',
      '@tanstack/router-core',
      '@tanstack/history',
      '@tanstack/store',
      '@tanstack/react-store',
    ],
  },
  // The public pages' shell (header, buttons, content page and its token filling): one chunk, not ten.
  {
    name: 'site',
    modules: [
      'src/features/layout/default-layout.tsx',
      'src/features/layout/site-header.tsx',
      'src/features/layout/site-header.css.ts',
      'src/features/layout/mobile-menu.tsx',
      'src/features/layout/mobile-menu.css.ts',
      'src/features/layout/layouts.css.ts',
      'src/features/auth/api/sign-out.ts',
      'src/features/public-site/content-page.tsx',
      'src/features/public-site/content-html.tsx',
      'src/features/public-site/public-site.css.ts',
      'src/features/public-site/use-page-meta.ts',
      'src/features/public-site/site-values.ts',
      'src/components/ui/button.tsx',
      'src/components/ui/button.css.ts',
      'src/components/ui/site-link.tsx',
      'src/lib/use-session.ts',
      'machines/public-site/fill-tokens.ts',
      'machines/lazy.ts',
    ],
  },
  // The form fields and helpers of the public forms (also used by the member area).
  {
    name: 'forms',
    modules: [
      'src/components/ui/field.css.ts',
      'src/components/ui/form-alert.tsx',
      'src/components/ui/form-alert.css.ts',
      'src/components/ui/text-field.tsx',
      'src/components/ui/checkbox-field.tsx',
      'src/components/ui/checkbox-field.css.ts',
      'src/components/ui/radio-group.tsx',
      'src/components/ui/use-form.ts',
      'src/lib/form-data.ts',
      'src/features/public-site/api/public-forms.ts',
    ],
  },
  // What every signed-in page (member area, dashboard, sign-in pages) loads: the API client and its
  // results, TanStack Query and its client, notifications, polling and the unread-messages badge, the
  // document title. Its modules only: their imports stay in their own chunks.
  {
    name: 'app',
    includeDependenciesRecursively: false,
    packages: ['hono', '@tanstack/react-query', '@tanstack/query-core'],
    modules: [
      'src/lib/api-client.ts',
      'src/lib/api-result.ts',
      'src/lib/notifications.ts',
      'src/lib/document-title.tsx',
      'src/lib/query-client.ts',
      'src/lib/query-provider.tsx',
      'src/features/messages/unread.ts',
    ],
  },
  // Radix's dialog and the layers it is built on (focus, scroll lock, portal): one chunk, not two.
  {
    name: 'dialog',
    includeDependenciesRecursively: false,
    packages: [
      '@radix-ui/primitive',
      '@radix-ui/react-collection',
      '@radix-ui/react-compose-refs',
      '@radix-ui/react-context',
      '@radix-ui/react-dialog',
      '@radix-ui/react-dismissable-layer',
      '@radix-ui/react-focus-guards',
      '@radix-ui/react-focus-scope',
      '@radix-ui/react-id',
      '@radix-ui/react-portal',
      '@radix-ui/react-presence',
      '@radix-ui/react-primitive',
      '@radix-ui/react-slot',
      '@radix-ui/react-use-callback-ref',
      '@radix-ui/react-use-controllable-state',
      '@radix-ui/react-use-effect-event',
      '@radix-ui/react-use-layout-effect',
      '@radix-ui/react-visually-hidden',
      'react-remove-scroll',
      'react-remove-scroll-bar',
      'aria-hidden',
      'react-style-singleton',
      'use-callback-ref',
      'use-sidecar',
      'get-nonce',
      'tslib',
    ],
  },
  // What the member area's pages share: its styles and the member's consents (the pause notice).
  {
    name: 'account',
    includeDependenciesRecursively: false,
    modules: [
      'src/features/account/account.css.ts',
      'src/features/privacy/privacy-status.tsx',
      'src/features/privacy/privacy-api.ts',
      'src/features/privacy/privacy.css.ts',
    ],
  },
  // The unread-messages badge of both areas' headers, with its styles.
  {
    name: 'unread-badge',
    includeDependenciesRecursively: false,
    modules: ['src/features/messages/unread-badge.tsx', 'src/features/messages/messages.css.ts'],
  },
  // What the staff's pages share: the dashboard's calls, styles, formats and fields.
  {
    name: 'staff',
    includeDependenciesRecursively: false,
    modules: [
      'src/features/dashboard/dashboard-api.ts',
      'src/features/dashboard/dashboard.css.ts',
      'src/features/dashboard/format-fr.ts',
      'src/features/dashboard/select-field.tsx',
      'src/features/dashboard/search-field.tsx',
      'src/features/dashboard/stacked-cell.tsx',
      // The staff's query keys (decision 214): tiny, and shared by the file and the lists.
      'src/features/dashboard/staff-queries.ts',
      'src/features/dashboard/member-file-keys.ts',
      // The staff routes' search checks in their own chunks, and the file's tab ids they check (decision 220).
      'src/lib/checked-search.tsx',
      'src/features/dashboard/member-tab-ids.ts',
      'machines/follow-up/follow-up.ts',
    ],
  },
  // French dates and plurals: two small modules every area uses together (decision 159).
  { name: 'french', includeDependenciesRecursively: false, modules: ['machines/french/dates.ts', 'machines/french/plural.ts'] },
  // The instants and the legal deadlines in civil days (decision 165): small modules that both
  // areas' pages use together; one chunk instead of four (decision 159).
  {
    name: 'calendar',
    includeDependenciesRecursively: false,
    modules: [
      'machines/onboarding/instant.ts',
      'machines/onboarding/legal-deadlines.ts',
      'machines/onboarding/deadline-texts.ts',
      'machines/onboarding/periods.ts',
    ],
  },
  // The legal sentences the member's pages quote: the consents' texts and how to terminate, which
  // they quote (decision 189), and the consent's version. One chunk, not three, in the wizard's
  // shells (decision 159).
  {
    name: 'legal-texts',
    includeDependenciesRecursively: false,
    modules: ['machines/privacy/consent-texts.ts', 'machines/onboarding/termination-texts.ts', 'machines/public-site/consent.ts'],
  },
  // The onboarding's chart, shared by the wizard and a member's file in the dashboard: XState, the
  // chart, the record's changes; then the steps' frame and fields, the wizard's alone. One chunk
  // each instead of some fifteen of 1–2 kB. Not the form rules (`forms.ts`, loaded when a form is
  // used), nor what other pages use too (labels, plans, step ids…). Their own modules only.
  {
    name: 'onboarding',
    includeDependenciesRecursively: false,
    packages: ['xstate', '@xstate/react', 'use-isomorphic-layout-effect'],
    modules: [
      'machines/onboarding/onboarding.machine.ts',
      'machines/onboarding/record-changes.ts',
      'machines/onboarding/restore.ts',
      'machines/onboarding/record.ts',
      'src/features/onboarding/onboarding-chart.tsx',
    ],
  },
  {
    name: 'steps',
    includeDependenciesRecursively: false,
    modules: [
      'src/features/onboarding/step-fields.tsx',
      'src/features/onboarding/fields.tsx',
      'src/features/onboarding/step-page.tsx',
      'src/features/onboarding/step-progress.tsx',
      'src/features/onboarding/onboarding.css.ts',
      'src/features/onboarding/form-rules.ts',
    ],
  },
  // The wizard's state and its calls (the member’s step, the update, the drafts): one chunk instead
  // of four of 1–2 kB, each a round trip on a phone (decision 138).
  {
    name: 'wizard',
    includeDependenciesRecursively: false,
    modules: [
      'src/features/onboarding/onboarding-api.ts',
      'src/features/onboarding/onboarding-state.ts',
      'src/features/onboarding/use-onboarding-update.ts',
      'src/features/onboarding/drafts.ts',
    ],
  },
];

/** A module id as the groups name it: from the root, without query, a stylesheet as its `.css.ts`. */
export function moduleKey(id: string, root: string): string {
  const path = id.replace(/\0/g, '').split('?')[0]?.replace(/\\/g, '/') ?? '';
  const packaged = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (packaged) return `package:${packaged[1]}`;
  const fromRoot = relative(root, path).replace(/\\/g, '/');
  return fromRoot.replace(/\.css\.ts\.vanilla\.css$/, '.css.ts');
}

/** Which group holds `key`, if any. */
function groupIndex(groups: readonly ChunkGroup[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const group of groups) {
    for (const module of group.modules ?? []) index.set(module, group.name);
    for (const pkg of group.packages ?? []) index.set(`package:${pkg}`, group.name);
  }
  return index;
}

/** Rolldown's `codeSplitting.groups` for these groups: a module's group by its identity. */
export function codeSplittingGroups(root: string, groups: readonly ChunkGroup[] = CHUNK_GROUPS) {
  const index = groupIndex(groups);
  // Rolldown asks each group about each module: one lookup per module.
  const groupOf = new Map<string, string | undefined>();
  const lookup = (id: string) => {
    if (!groupOf.has(id)) groupOf.set(id, index.get(moduleKey(id, root)));
    return groupOf.get(id);
  };
  return groups.map((group) => ({
    name: group.name,
    ...(group.includeDependenciesRecursively === false ? { includeDependenciesRecursively: false } : {}),
    test: (id: string) => lookup(id) === group.name,
  }));
}

/**
 * What is wrong with the groups in a build: a named file or package absent from the module graph,
 * or a named module rendered in another chunk than its group's. Empty when all is well.
 */
export function chunkGroupProblems(
  groups: readonly ChunkGroup[],
  root: string,
  moduleIds: Iterable<string>,
  chunks: readonly { name: string; moduleIds: readonly string[] }[],
): string[] {
  const index = groupIndex(groups);
  const present = new Set<string>();
  for (const id of moduleIds) present.add(moduleKey(id, root));
  const problems: string[] = [];
  for (const group of groups) {
    for (const module of group.modules ?? [])
      if (!present.has(module))
        problems.push(`group « ${group.name} » names ${module}, which is not in the build (renamed, moved or removed?)`);
    for (const pkg of group.packages ?? [])
      if (!present.has(`package:${pkg}`)) problems.push(`group « ${group.name} » names the package ${pkg}, which is not in the build`);
  }
  for (const chunk of chunks) {
    for (const id of chunk.moduleIds) {
      const key = moduleKey(id, root);
      const group = index.get(key);
      if (group !== undefined && group !== chunk.name)
        problems.push(`${key} belongs to the group « ${group} » but is in the chunk « ${chunk.name} »`);
    }
  }
  return problems;
}

/** Fails the build on any of `chunkGroupProblems`. */
export function chunkGroupsPlugin(root: string, groups: readonly ChunkGroup[] = CHUNK_GROUPS): Plugin {
  return {
    name: 'union-chunk-groups',
    apply: 'build',
    // The browser's build only: the prerender's server build leaves the libraries outside.
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) =>
        output.type === 'chunk' ? [{ name: output.name, moduleIds: output.moduleIds }] : [],
      );
      const problems = chunkGroupProblems(groups, root, this.getModuleIds(), chunks);
      if (problems.length > 0)
        this.error(`Chunk groups out of date (scripts/chunk-groups.ts, decision 220):\n  - ${problems.join('\n  - ')}`);
    },
  };
}
