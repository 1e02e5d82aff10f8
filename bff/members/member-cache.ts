import { eq, sql } from 'drizzle-orm';
import type { Database } from '#bff/db/database.ts';
import type { MemberChangeFeed } from '#bff/db/change-feed.ts';
import { memberPrivacy } from '#bff/db/privacy-schema.ts';
import { members } from '#bff/db/schema.ts';
import type { MemberRow } from '#bff/members/members.ts';

/**
 * The member rows that every authenticated request needs, kept in memory (decision 090): an
 * authenticated request then costs no database round trip at all. Correct across instances
 * because every committed change to `members` is announced by a trigger (migration 0007) and
 * heard through the database's change feed; while the feed is not live nothing is cached, and
 * a load that overlapped a change is not kept. Entries are frozen (shared by concurrent
 * requests) and live at most `ttlMs` even so.
 */
export interface CachedMember {
  readonly row: Readonly<MemberRow>;
  /** Set while matchmaking is paused by a withdrawn sensitive-data consent (decision 070). */
  readonly matchmakingPausedAt: Date | null;
}

export interface MemberCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
}

export class MemberCache<Value> {
  readonly #entries = new Map<string, { value: Value; at: number }>();
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  /** Bumped by every change heard: a load that saw it move may hold an older row. */
  #generation = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly feed: MemberChangeFeed,
    options: MemberCacheOptions = {},
  ) {
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#ttlMs = options.ttlMs ?? 60_000;
    feed.subscribe((id) => {
      this.#generation += 1;
      if (id === null) this.#entries.clear();
      else this.#entries.delete(id);
    });
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value kept for `id`, while the feed is live and the entry fresh; undefined otherwise. */
  peek(id: string): Value | undefined {
    if (!this.feed.live) return undefined;
    const entry = this.#entries.get(id);
    if (!entry || performance.now() - entry.at >= this.#ttlMs) return undefined;
    this.hits += 1;
    return entry.value;
  }

  async get(id: string, load: () => Promise<Value | undefined>): Promise<Value | undefined> {
    const kept = this.peek(id);
    if (kept !== undefined) return kept;
    this.misses += 1;
    const generation = this.#generation;
    const value = await load();
    if (value !== undefined && this.feed.live && generation === this.#generation) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
      this.#entries.delete(id);
      this.#entries.set(id, { value, at: performance.now() });
    }
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !ArrayBuffer.isView(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The member row and its privacy column in one round trip, as a prepared statement. */
const prepareMemberById = (database: Database) =>
  database.db
    .select({ row: members, matchmakingPausedAt: memberPrivacy.matchmakingPausedAt })
    .from(members)
    .where(eq(members.id, sql.placeholder('id')))
    .limit(1)
    .prepare('cached_member_by_id');

const caches = new WeakMap<Database, { cache: MemberCache<CachedMember>; load: ReturnType<typeof prepareMemberById> }>();

/** The member, from this instance's cache or the database; undefined when there is none. */
export function cachedMember(database: Database, id: string): Promise<CachedMember | undefined> {
  let entry = caches.get(database);
  if (!entry) {
    entry = { cache: new MemberCache<CachedMember>(database.changes), load: prepareMemberById(database) };
    caches.set(database, entry);
  }
  const { load } = entry;
  return entry.cache.get(id, async () => {
    const [found] = await load.execute({ id });
    return found ? deepFreeze({ row: found.row, matchmakingPausedAt: found.matchmakingPausedAt }) : undefined;
  });
}

/** The member from this instance's cache alone (no database): undefined when not kept. */
export function keptMember(database: Database, id: string): CachedMember | undefined {
  return caches.get(database)?.cache.peek(id);
}

/** This instance's cache of a database (tests and benchmarks read its counters). */
export function memberCacheOf(database: Database): MemberCache<CachedMember> | undefined {
  return caches.get(database)?.cache;
}
