/** One-way dependencies (docs/decisions/004-dependency-direction.md). `npm run depcheck` enforces them. */
module.exports = {
  forbidden: [
    {
      name: 'machines-are-pure',
      comment: 'machines/ is shared by the browser and the server: no React, Hono, database, src/ or bff/.',
      severity: 'error',
      from: { path: '^machines/' },
      to: { path: ['^src/', '^bff/', 'node_modules/(react|react-dom|hono|@hono|drizzle-orm|pg|@electric-sql|@supabase)/'] },
    },
    {
      name: 'bff-never-imports-src',
      severity: 'error',
      from: { path: '^bff/' },
      to: { path: '^src/' },
    },
    {
      name: 'src-reaches-bff-only-through-api-type',
      comment: "The SPA sees the BFF only through the exported app type for Hono's typed client.",
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^bff/', pathNot: '^bff/api-type\\.ts$' },
    },
    {
      name: 'src-api-type-is-type-only',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^bff/api-type\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-supabase-in-browser',
      comment: 'supabase-js runs in the BFF only; the browser never holds a token.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: 'node_modules/@supabase/' },
    },
    {
      name: 'product-never-imports-tests',
      comment: 'Fixtures, happy paths, seeded populations and harnesses live under tests/: the product (and its image) never loads them.',
      severity: 'error',
      from: { path: '^(bff|machines|src)/', pathNot: '[.](test|spec)[.]tsx?$' },
      to: { path: '^tests/' },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true, dependencyTypesNot: ['type-only'] } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    exclude: { path: ['\\.gen\\.ts$'] },
  },
};
