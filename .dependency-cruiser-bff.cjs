/**
 * Layers inside bff/ (docs/decisions/219-layers-inside-the-bff.md, the picture in docs/architecture.md).
 * `npm run depcheck` runs it after .dependency-cruiser.cjs, on the product's modules of bff/ alone:
 * tests beside the code and tests/ may reach any layer, and folder cycles are counted without them.
 */
const base = require('./.dependency-cruiser.cjs');

/**
 * The domain folders, highest first (the picture in docs/architecture.md, decision 222): a folder
 * imports only folders of later tiers, never one of its own tier or an earlier one.
 */
const DOMAIN_TIERS = [
  ['booking', 'dashboard', 'leads', 'messages', 'retention', 'team'],
  ['onboarding'],
  ['privacy'],
  ['introductions'],
  ['payments'],
  ['invoices'],
  ['contract'],
  ['photos'],
  ['matching'],
  ['agenda'],
  ['auth'],
  ['members', 'content'],
];

const domainOrder = DOMAIN_TIERS.map((tier, i) => {
  const upTo = DOMAIN_TIERS.slice(0, i + 1).flat();
  return {
    name: `bff-domain-order-${tier.join('-')}`,
    comment: `${tier.join(', ')} import only the domain folders after them in DOMAIN_TIERS (not ${upTo.join(', ')}).`,
    severity: 'error',
    from: { path: `^bff/(${tier.join('|')})/` },
    to: { path: `^bff/(${upTo.join('|')})/`, pathNot: '^bff/$1/' },
  };
});

/**
 * Storage (decision 227): bff/db/ (schema, migrations, the handle) and each folder's store/ (its
 * queries) are the only product modules that import the schema, the handle's values or drizzle-orm.
 * Domain modules own the rules (charts, clock, transactions' bounds, mails) and call their store;
 * routes call the domain. `import type` of the handle or of a row is not a query and stays allowed.
 */
const STORAGE = ['^bff/db/', '^bff/(stand-ins/auth-service|[^/]+)/store/'];
const KERNEL = '^bff/(config|clock|logger|periodic-job|scheduled-jobs|payment-links-config)[.]ts$';

const storage = [
  {
    name: 'bff-sql-only-in-storage',
    comment:
      'Only bff/db/ and the store/ folders import the schema, the database handle or drizzle-orm (values); the composition root (start.ts, server.ts) opens and migrates the database (decision 227).',
    severity: 'error',
    from: { path: '^bff/', pathNot: [...STORAGE, '^bff/(start|server)[.]ts$'] },
    to: { path: ['^bff/db/', 'node_modules/drizzle-orm/'], dependencyTypesNot: ['type-only'] },
  },
  {
    name: 'bff-storage-imports-no-rule',
    comment:
      'A store/ folder imports storage (bff/db/, other stores), the kernel files and machines/: no domain module, route, platform or stand-in (decision 227).',
    severity: 'error',
    from: { path: '^bff/(stand-ins/auth-service|[^/]+)/store/' },
    to: { path: '^bff/', pathNot: [...STORAGE, KERNEL] },
  },
  {
    name: 'bff-routes-call-the-domain-not-storage',
    comment: "Routes (bff/api/, bff/site/, bff/images/, the stand-ins' *-routes.ts) call a domain module, never a store/ (decision 227).",
    severity: 'error',
    from: { path: ['^bff/(api|site|images)/', '-routes[.]ts$'] },
    to: { path: '^bff/(stand-ins/auth-service|[^/]+)/store/' },
  },
];

module.exports = {
  forbidden: [
    ...storage,
    // The composition root (bff/*.ts: app, start, server, api-type, agency-jobs) wires entry points
    // (routes, public site, stand-ins, demo) over the domain folders, which sit over the platform
    // (http, mail), storage (db) and the kernel files (config, clock, logger, jobs' timer).
    {
      name: 'bff-routes-only-from-the-composition-root',
      comment:
        'Routes (bff/api/, the public site bff/site/, bff/images/) are mounted by bff/app.ts and bff/start.ts; no other folder imports them.',
      severity: 'error',
      from: { path: '^bff/([^/]+)/' },
      to: { path: '^bff/(api|site|images)/', pathNot: '^bff/$1/' },
    },
    {
      name: 'bff-stand-ins-only-from-the-composition-root',
      comment:
        'Stand-ins (Stripe, Calendly, the clock, the mailbox, and the embedded Supabase Auth in stand-ins/auth-service/, reached by the product only through the Auth API: decision 222) and the demo data are plugged in at start-up by bff/app.ts, bff/start.ts, bff/agency-jobs.ts through the interfaces the hosted services fill; the product never imports them.',
      severity: 'error',
      from: { path: '^bff/([^/]+)/' },
      to: { path: '^bff/(stand-ins|demo)/', pathNot: '^bff/$1/' },
    },
    {
      name: 'bff-nothing-imports-the-composition-root',
      severity: 'error',
      from: { path: '^bff/[^/]+/' },
      to: { path: '^bff/(app|start|server|agency-jobs|api-type)[.]ts$' },
    },
    {
      name: 'bff-routes-reach-storage-through-a-domain',
      comment:
        "Routes (bff/api/) and the public site (bff/site/) validate and call a domain module; the SQL and the schema are the domain's and storage's (decision 222). bff/api/deps.ts alone names the handle's type (next rules).",
      severity: 'error',
      from: {
        path: '^bff/(api|site)/',
        pathNot: ['^bff/api/deps[.]ts$'],
      },
      to: { path: '^bff/db/' },
    },
    {
      name: 'bff-route-deps-name-the-database-type-only',
      comment:
        'bff/api/deps.ts receives the database from the composition root: it imports the type of the handle, nothing else of bff/db/.',
      severity: 'error',
      from: { path: '^bff/api/deps[.]ts$' },
      to: { path: '^bff/db/', pathNot: '^bff/db/database[.]ts$' },
    },
    {
      name: 'bff-route-deps-import-no-database-value',
      severity: 'error',
      from: { path: '^bff/api/deps[.]ts$' },
      to: { path: '^bff/db/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'bff-storage-at-the-bottom',
      comment: 'bff/db/ (schema, migrations, the database, settings rows) imports no other folder of bff/.',
      severity: 'error',
      from: { path: '^bff/db/' },
      to: { path: '^bff/[^/]+/', pathNot: '^bff/db/' },
    },
    {
      name: 'bff-platform-under-the-domain',
      comment:
        'bff/http/ (errors, validation, limits) and bff/mail/ (outbox, templates, dispatcher) sit under every domain folder: they import only each other and storage.',
      severity: 'error',
      from: { path: '^bff/(http|mail)/' },
      to: { path: '^bff/[^/]+/', pathNot: '^bff/(http|mail|db)/' },
    },
    {
      name: 'bff-kernel-imports-no-folder',
      comment: 'The kernel files (configuration, clock, logger, timers) are imported by every layer and import none.',
      severity: 'error',
      from: { path: KERNEL },
      to: { path: '^bff/[^/]+/' },
    },
    ...domainOrder,
    {
      name: 'bff-no-folder-cycle',
      comment: 'No import cycle between the folders of bff/: each folder is a layer or a domain with one direction to the others.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^bff/' },
      to: { circular: true },
    },
  ],
  options: {
    ...base.options,
    includeOnly: ['^bff/', 'node_modules/drizzle-orm/'],
    exclude: { path: [...base.options.exclude.path, '[.](test|spec)[.]tsx?$'] },
  },
};
