import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { PageFrontMatterSchema, parseDocument } from './bff/content/markdown.ts';
import { activePlans, fileFee, formatEuros } from './machines/onboarding/plans.ts';
import { CONTACT_SUBJECTS, MESSAGE_MAX_LENGTH } from './machines/public-site/public-forms.ts';
import { chunkGroupsPlugin, codeSplittingGroups } from './scripts/chunk-groups.ts';
import { contentPlugin } from './scripts/vite-plugin-content.ts';
import { versionPlugin } from './scripts/vite-plugin-version.ts';
import { SlowFirstSequencer } from './tests/support/slow-first-sequencer.ts';

/**
 * `virtual:public-plans`: the price list of the public pages (`PlansSection`), computed at build
 * time from machines/onboarding/plans.ts, so that public pages do not load the plans module and
 * its validation library (valibot) to print a few prices. The member area keeps using the module.
 */
function publicPlansPlugin(): Plugin {
  const id = 'virtual:public-plans';
  return {
    name: 'union-public-plans',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load(resolved) {
      if (resolved !== `\0${id}`) return null;
      const monthly = activePlans('cash')
        .filter((plan) => plan.type === 'monthly')
        .map((plan) => {
          // The pay-in-full price depends on the staff's setting: tokens filled in at serve time (decision 106).
          const pack = plan.name === 'horizon' ? 'horizon' : 'serenite';
          return {
            id: plan.id,
            title: plan.title,
            durationMonths: plan.durationMonths,
            highlight: plan.highlight,
            price: formatEuros(plan.priceCents),
            cycleLabel: plan.cycleLabel,
            payInFull: `{{${pack}.une-fois}}`,
            payInFullDetail: `{{${pack}.une-fois-detail}}`,
            features: [...plan.features],
          };
        });
      const file = {
        title: fileFee.title,
        price: formatEuros(fileFee.priceCents),
        description: fileFee.description,
      };
      return `export default ${JSON.stringify({ monthly, fileFee: file })};`;
    },
  };
}

/**
 * `virtual:public-form-fields`: what the public forms need to render (the contact subjects, the
 * message's maximum length), from machines/public-site/public-forms.ts at build time. The schemas
 * of that module, and valibot, are loaded when a form is sent.
 */
function publicFormFieldsPlugin(): Plugin {
  const id = 'virtual:public-form-fields';
  return {
    name: 'union-public-form-fields',
    resolveId: (source) => (source === id ? `\0${id}` : null),
    load: (resolved) =>
      resolved === `\0${id}`
        ? `export const CONTACT_SUBJECTS = ${JSON.stringify(CONTACT_SUBJECTS)};\nexport const MESSAGE_MAX_LENGTH = ${JSON.stringify(MESSAGE_MAX_LENGTH)};`
        : null,
  };
}

/**
 * `virtual:page-head/<name>`: the front matter (title, description, heading) of
 * `content/pages/<name>.md` without its text. A page needs it at once (head tags, `<h1>`); its text,
 * from `virtual:content/pages/<name>`, is loaded as a deferred part (src/lib/deferred.tsx).
 */
function pageHeadPlugin(): Plugin {
  const prefix = 'virtual:page-head/';
  return {
    name: 'union-page-head',
    enforce: 'pre',
    resolveId: (source) => (source.startsWith(prefix) ? `\0${source}` : null),
    load(id) {
      if (!id.startsWith(`\0${prefix}`)) return null;
      const name = id.slice(prefix.length + 1);
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) this.error(`Page de contenu invalide : ${name}`);
      const file = join(import.meta.dirname, 'content', 'pages', `${name}.md`);
      this.addWatchFile(file);
      const { frontMatter } = parseDocument(readFileSync(file, 'utf8'), PageFrontMatterSchema, `pages/${name}.md`);
      return `export default ${JSON.stringify(frontMatter)};`;
    },
  };
}

/** The pure tests (decision 199): browser code, the charts and rules, the scripts' helpers. */
const UNIT_TESTS = ['{src,machines,tests/unit,scripts}/**/*.test.{ts,tsx}'];
/** The tests that start the product or a database (decision 199): the BFF, integration and security suites. */
const PRODUCT_TESTS = ['{bff,tests/integration,tests/security}/**/*.test.{ts,tsx}'];

export default defineConfig({
  plugins: [
    // The route generator rewrites src/route-tree.gen.ts; tests need no route tree.
    !process.env.VITEST &&
      tanstackRouter({
        target: 'react',
        autoCodeSplitting: true,
        routesDirectory: 'src/routes',
        generatedRouteTree: 'src/route-tree.gen.ts',
      }),
    react(),
    vanillaExtractPlugin(),
    contentPlugin(),
    versionPlugin(),
    publicPlansPlugin(),
    pageHeadPlugin(),
    publicFormFieldsPlugin(),
    chunkGroupsPlugin(import.meta.dirname),
  ],
  resolve: {
    // The router's store and @xstate/react import the pre-React-18 shim of useSyncExternalStore. On
    // React 19 the package's own non-shim entries (React's built-in hook) do the same, and every
    // page's first load no longer carries the shim's fallback.
    alias: [
      { find: /^use-sync-external-store\/shim$/, replacement: 'use-sync-external-store' },
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector' },
    ],
  },
  build: {
    outDir: 'dist/client',
    sourcemap: false,
    target: 'es2022',
    manifest: true,
    modulePreload: {
      // Every browser the site supports knows `<link rel="modulepreload">`: no polyfill in the entry.
      polyfill: false,
      // A lazy chunk's stylesheets are still loaded with it (no unstyled flash), but not the list of
      // every JS file it imports: that list of hashed names sat in the entry of every page. The
      // browser fetches those imports itself, and the router preloads a route on intent.
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : deps.filter((dep) => dep.endsWith('.css'))),
    },
    rolldownOptions: {
      output: {
        // Named chunks by module identity, checked at each build (scripts/chunk-groups.ts, decision 220).
        codeSplitting: { groups: codeSplittingGroups(import.meta.dirname) },
      },
    },
  },
  test: {
    pool: 'forks',
    // One worker more than cores (Vitest's default leaves one idle: a single worker on two cores):
    // the product files wait about a third of their time (timers, sockets, the thread pool), and a
    // third worker on two cores fills it — test:fast 187 s → 147 s on a quiet host (decision 226).
    maxWorkers: availableParallelism() + 1,
    // One migrated database made once, copied per test file (decision 162).
    globalSetup: ['tests/support/global-setup.ts'],
    // The slowest files first, in an order committed with the code, not the last run's cache (decision 226).
    sequence: { sequencer: SlowFirstSequencer },
    // Set here for both projects: the command line's --testTimeout does not reach a project.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two projects (decision 199). `unit`: the pure tests, each file in a fresh module graph (they
    // stub globals and fake timers). `product`: the tests that start the product or a database;
    // their module graph (Hono, drizzle, PGlite's wasm, the whole BFF) is loaded once per worker
    // and kept from file to file (isolate: false), instead of once per file — most of the suite's
    // time was that loading. Their files leave no global state behind (no module mock, timers
    // restored, the database and the product closed by each file).
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT_TESTS },
      },
      {
        extends: true,
        test: { name: 'product', include: PRODUCT_TESTS, isolate: false },
      },
    ],
  },
});
