/**
 * Layers inside bff/ (docs/decisions/219-layers-inside-the-bff.md, the picture in docs/architecture.md).
 * `npm run depcheck` runs it after .dependency-cruiser.cjs, on the product's modules of bff/ alone:
 * tests beside the code and tests/ may reach any layer, and folder cycles are counted without them.
 */
const base = require('./.dependency-cruiser.cjs');

module.exports = {
  forbidden: [
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
        'Stand-ins (and the demo data) are plugged in at start-up by bff/app.ts, bff/start.ts, bff/agency-jobs.ts through the interfaces the hosted services fill; the product never imports them.',
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
      from: { path: '^bff/(config|clock|logger|periodic-job|scheduled-jobs|payment-links-config)[.]ts$' },
      to: { path: '^bff/[^/]+/' },
    },
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
    includeOnly: '^bff/',
    exclude: { path: [...base.options.exclude.path, '[.](test|spec)[.]tsx?$'] },
  },
};
