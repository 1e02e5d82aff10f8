import type { SessionsTable } from '#bff/auth/sessions-table.ts';
import { prepareMemberById } from '#bff/auth/store/cached-members.ts';
import type { Database } from '#bff/db/database.ts';
import type { MemberChangeFeed } from '#bff/db/change-feed.ts';
import type { MemberRow } from '#bff/members/members.ts';

/**
 * The member rows that every authenticated request needs, kept in memory (decision 090): an
 * authenticated request then costs no database round trip at all. Correct across instances
 * because every committed change to `members` (migration 0007) and to a member's sessions (auth
 * migration 0002, decision 100) is announced by a trigger and heard through the database's
 * change feed; while the feed is not live nothing is cached, and a load that overlapped a change
 * is not kept. Entries are frozen (shared by concurrent requests) and live at most `ttlMs` even so.
 */
export interface CachedMember {
  readonly row: Readonly<MemberRow>;
  /** Set while matchmaking is paused by a withdrawn sensitive-data consent (decision 070). */
  readonly matchmakingPausedAt: Date | null;
  /**
   * The member's live sessions (id → level), read in the same round trip as the row (decision
   * 100): every session that starts, ends or changes level evicts the entry (auth migration 0002).
   */
  readonly sessions: Readonly<Record<string, 'aal1' | 'aal2'>>;
}

export interface MemberCacheOptions {
  maxEntries?: number;
  ttlMs?: number;
}

/**
 * A write to one member in progress (decision 129): what the cache held when it began, and the
 * transactions of the changes to that member heard since. See `MemberCache.watch`.
 */
export interface MemberWrite<Value> {
  readonly id: string;
  readonly before: Value;
  readonly heard: (string | undefined)[];
  tainted: boolean;
}

export class MemberCache<Value> {
  /** `transaction`: set on an entry a write of this instance put there (`settle`). */
  readonly #entries = new Map<string, { value: Value; at: number; transaction?: string | undefined }>();
  readonly #writes = new Map<string, Set<MemberWrite<Value>>>();
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
    feed.subscribe((id, transaction) => {
      this.#generation += 1;
      if (id === null) {
        this.#entries.clear();
        for (const writes of this.#writes.values()) for (const write of writes) write.tainted = true;
        return;
      }
      // The notification of the write that put the entry here (it comes back on every listening
      // connection) leaves it; any other change evicts it.
      const entry = this.#entries.get(id);
      if (!(entry && transaction !== undefined && entry.transaction === transaction)) this.#entries.delete(id);
      const writes = this.#writes.get(id);
      if (writes) for (const write of writes) write.heard.push(transaction);
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

  /**
   * Begins watching a write to member `id` by this instance, when the cache holds the member: the
   * changes to that member heard until `settle` are noted. Undefined when nothing is cached.
   */
  watch(id: string): MemberWrite<Value> | undefined {
    const before = this.peek(id);
    if (before === undefined) return undefined;
    const write: MemberWrite<Value> = { id, before, heard: [], tainted: false };
    let writes = this.#writes.get(id);
    if (!writes) {
      writes = new Set();
      this.#writes.set(id, writes);
    }
    writes.add(write);
    return write;
  }

  /**
   * Ends a watched write. With `value` and the `transaction` that committed it, keeps `value` in
   * place of a reload — only when every change to the member heard since `watch` was that
   * transaction's own notification (so nobody else changed the member meanwhile) and the feed
   * stayed live. Without them (the write failed or was refused) only forgets the watch.
   */
  settle(write: MemberWrite<Value>, value?: Value, transaction?: string): void {
    const writes = this.#writes.get(write.id);
    writes?.delete(write);
    if (writes?.size === 0) this.#writes.delete(write.id);
    if (value === undefined || transaction === undefined || write.tainted || !this.feed.live) return;
    if (write.heard.some((heard) => heard !== transaction)) return;
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.delete(write.id);
    this.#entries.set(write.id, { value, at: performance.now(), transaction });
  }

  /** `fresh`: read the database even when an entry is kept (and keep what it gives, as usual). */
  async get(id: string, load: () => Promise<Value | undefined>, fresh = false): Promise<Value | undefined> {
    const kept = fresh ? undefined : this.peek(id);
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

const caches = new WeakMap<
  Database,
  { cache: MemberCache<CachedMember>; load: ReturnType<typeof prepareMemberById>; table: SessionsTable }
>();

/** Only the two levels; anything else (never written by Supabase Auth) counts as no session. */
function sessionsOf(value: Record<string, string> | string | null): Record<string, 'aal1' | 'aal2'> {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  const sessions: Record<string, 'aal1' | 'aal2'> = Object.create(null);
  if (parsed && typeof parsed === 'object') {
    for (const [id, aal] of Object.entries(parsed)) if (aal === 'aal1' || aal === 'aal2') sessions[id] = aal;
  }
  return sessions;
}

/**
 * The member and its live sessions in `table`, from this instance's cache or the database
 * (`fresh`: from the database); undefined when there is no such member.
 */
export function cachedMember(database: Database, id: string, table: SessionsTable, fresh = false): Promise<CachedMember | undefined> {
  let entry = caches.get(database);
  if (!entry || entry.table !== table) {
    entry = { cache: new MemberCache<CachedMember>(database.changes), load: prepareMemberById(database, table), table };
    caches.set(database, entry);
  }
  const { load } = entry;
  return entry.cache.get(
    id,
    async () => {
      const [found] = await load.execute({ id });
      return found
        ? deepFreeze({ row: found.row, matchmakingPausedAt: found.matchmakingPausedAt, sessions: sessionsOf(found.sessions) })
        : undefined;
    },
    fresh,
  );
}

/** This instance's cache of a database (tests and benchmarks read its counters). */
export function memberCacheOf(database: Database): MemberCache<CachedMember> | undefined {
  return caches.get(database)?.cache;
}

/**
 * Begins a write to member `id` (the onboarding event, decision 129): see `MemberCache.watch`.
 * Undefined when the member is not cached by this instance.
 */
export function watchMemberWrite(database: Database, id: string): MemberWrite<CachedMember> | undefined {
  return caches.get(database)?.cache.watch(id);
}

/**
 * Ends it: with the row the write's UPDATE returned (every column of `members`), its privacy
 * column as the transaction left it, and the transaction's id, keeps that row in place of a
 * reload (the sessions are the ones cached when the write began: any session change is heard and
 * prevents it). Without them, forgets the watch.
 */
export function settleMemberWrite(
  database: Database,
  write: MemberWrite<CachedMember>,
  written?: { row: MemberRow; matchmakingPausedAt: Date | null; transaction: string },
): void {
  const cache = caches.get(database)?.cache;
  if (!cache) return;
  if (!written) {
    cache.settle(write);
    return;
  }
  const value = deepFreeze({ row: written.row, matchmakingPausedAt: written.matchmakingPausedAt, sessions: write.before.sessions });
  cache.settle(write, value, written.transaction);
}
