// The member row, its privacy column and its live sessions that the member cache keeps (decision 090).
import { eq, sql } from 'drizzle-orm';
import type { Database } from '#bff/db/database.ts';
import { memberPrivacy } from '#bff/db/privacy-schema.ts';
import { members } from '#bff/db/schema.ts';

/** Supabase Auth's sessions table: the embedded service's or the hosted project's (`SessionsTable`, bff/auth/sessions-table.ts). */
export type SessionsTableName = 'embedded_auth.sessions' | 'auth.sessions';

/**
 * The member row, its privacy column and its live sessions in one round trip, as a prepared
 * statement. `table` is one of the two names of `SessionsTableName`, never input.
 */
export const prepareMemberById = (database: Database, table: SessionsTableName) =>
  database.db
    .select({
      row: members,
      matchmakingPausedAt: memberPrivacy.matchmakingPausedAt,
      // Qualified by hand: drizzle writes a bare "id" in a single-table select, which the
      // subquery would read as the session's own id.
      sessions: sql<Record<string, string> | string | null>`(SELECT jsonb_object_agg(s.id::text, s.aal::text) FROM ${sql.raw(
        table,
      )} s WHERE s.user_id = "members"."id" AND (s.not_after IS NULL OR s.not_after > now()))`,
    })
    .from(members)
    .where(eq(members.id, sql.placeholder('id')))
    .limit(1)
    .prepare('cached_member_by_id');
