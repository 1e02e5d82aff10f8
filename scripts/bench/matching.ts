/**
 * Ranking candidates at scale (issue 22): seeds 10,000 active members (BENCH_MATCHING_MEMBERS),
 * then times `rankCandidates` for 200 members (BENCH_MATCHING_SAMPLES), after 20 warm-up calls,
 * on PGlite in memory and — when DATABASE_URL is set or a server answers on 127.0.0.1:5432 — on
 * a throw-away PostgreSQL database. Prints p50, p95 and max; the floor is a p95 under 100 ms.
 * `MATCHING_EXPLAIN=1` also prints the plan of one ranking. Exits 1 when a floor is missed.
 *   node --import tsx scripts/bench/matching.ts
 */
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '#bff/db/database.ts';
import { appMigrations, migrate } from '#bff/db/migrate.ts';
import { rankCandidates } from '#bff/matching/ranking.ts';
import { seedPopulation } from '#tests/support/seed-population.ts';
import { dropDatabase, postgresUrl } from './support.ts';

export const MATCHING_P95_FLOOR_MS = 100;
const MEMBERS = Number(process.env.BENCH_MATCHING_MEMBERS ?? 10_000);
const SAMPLES = Number(process.env.BENCH_MATCHING_SAMPLES ?? 200);
const WARM_UP = 20;

export interface MatchingFigures {
  engine: 'pglite' | 'postgres';
  members: number;
  samples: number;
  seedMs: number;
  p50: number;
  p95: number;
  max: number;
  meanCandidates: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Seeds `members` into a migrated database and times the rankings. */
export async function measureMatching(database: Database, members = MEMBERS, samples = SAMPLES): Promise<MatchingFigures> {
  const now = Date.now();
  const seedStart = performance.now();
  const population = await seedPopulation(database.db, members, 22, now);
  await database.exec('ANALYZE match_profiles');
  const seedMs = performance.now() - seedStart;
  const step = Math.max(1, Math.floor(population.length / (samples + WARM_UP)));
  const ids = Array.from({ length: samples + WARM_UP }, (_, i) => population[(i * step) % population.length]?.id as string);
  const times: number[] = [];
  let found = 0;
  for (const [i, id] of ids.entries()) {
    const start = performance.now();
    const ranking = await rankCandidates(database.db, id, { limit: 20, now });
    const elapsed = performance.now() - start;
    if (i >= WARM_UP) {
      times.push(elapsed);
      found += ranking.candidates.length;
    }
  }
  if (process.env.MATCHING_EXPLAIN === '1') {
    const plan = (await database.db.execute(
      sql`EXPLAIN ANALYZE SELECT count(*) FROM match_profiles c WHERE c.available AND c.gender = 'femme' AND c.birth_date > '1990-01-01' AND c.birth_date <= '1996-01-01' AND c.regions_accepted @> '{ile-de-france}'::text[]`,
    )) as unknown as { rows: Record<string, string>[] };
    for (const row of plan.rows) console.log(Object.values(row)[0]);
  }
  times.sort((a, b) => a - b);
  return {
    engine: database.kind,
    members,
    samples,
    seedMs,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: times[times.length - 1] ?? Number.NaN,
    meanCandidates: found / samples,
  };
}

export function matchingTable(figures: MatchingFigures[]): string {
  const lines = [
    '| Database | Active members | Rankings timed | p50 (ms) | p95 (ms) | max (ms) | candidates (mean) | floor | met |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|',
    ...figures.map(
      (f) =>
        `| ${f.engine === 'pglite' ? 'PGlite' : 'PostgreSQL'} | ${f.members} | ${f.samples} | ${f.p50.toFixed(1)} | ${f.p95.toFixed(1)} | ${f.max.toFixed(1)} | ${f.meanCandidates.toFixed(1)} | < ${MATCHING_P95_FLOOR_MS} ms | ${f.p95 < MATCHING_P95_FLOOR_MS ? 'yes' : '**no**'} |`,
    ),
  ];
  return lines.join('\n');
}

/** Both engines (PostgreSQL when one answers); each database is thrown away after. */
export async function benchMatching(): Promise<MatchingFigures[]> {
  const figures: MatchingFigures[] = [];
  const pglite = await openDatabase({});
  try {
    await migrate(pglite, [appMigrations]);
    figures.push(await measureMatching(pglite));
  } finally {
    await pglite.close();
  }
  const url = await postgresUrl('bench_matching');
  if (url) {
    const server = await openDatabase({ url });
    try {
      await migrate(server, [appMigrations]);
      figures.push(await measureMatching(server));
    } finally {
      await server.close();
      await dropDatabase(url);
    }
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchMatching();
  console.log(`\nRanking candidates (issue 22)\n\n${matchingTable(figures)}`);
  if (figures.some((f) => !(f.p95 < MATCHING_P95_FLOOR_MS))) process.exitCode = 1;
}
