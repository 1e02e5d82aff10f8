// The funnel's counts of members: per stored stage, and those at step 6 whose meeting time has passed.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { stageKeySql } from '#bff/members/store/stage.ts';

/** The condition that keeps a member id column to the caller's members, undefined for every member. */
export type MemberScope = (memberId: unknown) => SQL | undefined;

/** Members per stage key (`key`, the stored stage read at an instant), within `scope`. */
export async function membersPerStage(db: Db, now: Date, scope: MemberScope) {
  const key = stageKeySql(now);
  return (
    db
      .select({ state: key, count: sql<number>`count(*)::int` })
      .from(members)
      // A counsellor's funnel counts their members (decision 206).
      .where(and(eq(members.role, 'member'), scope(members.id)))
      // By position: the instant is a parameter, and `$1` and `$3` are not the same expression to PostgreSQL.
      .groupBy(sql`1`)
  );
}

/** Step 6's members whose meeting time has passed at `now`: only they are read whole (members_stage). */
export async function onboardingMeetingsPast(db: Db, now: Date, scope: MemberScope) {
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(members)
    .where(
      and(
        eq(members.role, 'member'),
        scope(members.id),
        eq(members.stage, 'attente-entretien-personnalise'),
        sql`(${members.onboarding}->>'onboardingMeetingDate')::timestamptz <= ${now.toISOString()}::timestamptz`,
      ),
    );
}
