// The members the agency's mails are written to: their profile, their stored instants, their activation.
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members, onboardingEvents } from '#bff/db/schema.ts';
import { DAY_MS } from '#machines/onboarding/instant.ts';

/** A member's profile, read with the caller's executor; undefined when there is no such member. */
export async function memberProfileOf(exec: Pick<Db, 'select'>, memberId: string): Promise<{ profile: unknown } | undefined> {
  const [row] = await exec.select({ profile: members.profile }).from(members).where(eq(members.id, memberId)).limit(1);
  return row;
}

/** Of `ids`, the active members' rows a scheduled mail is decided from (not disabled, not erased). */
export function mailJobMembers(db: Db, ids: string[]) {
  return db
    .select({ id: members.id, email: members.email, profile: members.profile, onboarding: members.onboarding })
    .from(members)
    .where(
      and(
        inArray(members.id, ids),
        eq(members.role, 'member'),
        eq(members.disabled, false),
        sql`${members.id} IN (SELECT id FROM members WHERE erased_at IS NULL)`,
      ),
    );
}

/**
 * The members a scheduled mail may be due to at `nowMs`, by the stored instants (migrations 0045,
 * 0052): a reserved meeting within a day, the end of the renunciation period (payment opens on
 * the next working day: up to five days later) or of the withdrawal period within the late-send
 * window (`lateSendWindowMs`), the term's end from 30 days before to a week after, a recent
 * activation, and any member whose stage is not written yet. A superset: each one's mails are decided
 * from its record.
 */
export async function membersWithMailInstants(db: Db, nowMs: number, lateSendWindowMs: number): Promise<string[]> {
  const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const late = lateSendWindowMs + DAY_MS;
  const result = (await db.execute(sql`
    SELECT id::text AS id FROM members WHERE stage IS NULL AND role = 'member'
    UNION SELECT id::text FROM members
      WHERE onboarding->>'onboardingMeetingDate' >= ${day(nowMs - DAY_MS)} AND onboarding->>'onboardingMeetingDate' < ${day(nowMs + 3 * DAY_MS)}
    UNION SELECT id::text FROM members WHERE renunciation_ends_at > ${at(nowMs - late - 5 * DAY_MS)} AND renunciation_ends_at <= ${at(nowMs + DAY_MS)}
    UNION SELECT id::text FROM members WHERE withdrawal_ends_at > ${at(nowMs - late)} AND withdrawal_ends_at <= ${at(nowMs + DAY_MS)}
    UNION SELECT id::text FROM members WHERE term_ends_at > ${at(nowMs - late)} AND term_ends_at <= ${at(nowMs + 31 * DAY_MS)}
    UNION SELECT member_id::text FROM onboarding_events
      WHERE (to_state = 'membre-actif' OR context = 'meeting_mm') AND created_at > ${at(nowMs - late)}
    ORDER BY 1`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}

/** When each member became active: their first event that led to `membre-actif` (or `meeting_mm`), for a batch at once. */
export async function activeSinceOfMembers(executor: Db, memberIds: readonly string[]): Promise<Map<string, number>> {
  const rows = await executor
    .selectDistinctOn([onboardingEvents.memberId], { memberId: onboardingEvents.memberId, at: onboardingEvents.createdAt })
    .from(onboardingEvents)
    .where(
      and(
        inArray(onboardingEvents.memberId, [...memberIds]),
        or(eq(onboardingEvents.toState, 'membre-actif'), eq(onboardingEvents.context, 'meeting_mm')),
      ),
    )
    .orderBy(onboardingEvents.memberId, asc(onboardingEvents.id));
  return new Map(rows.map((r) => [r.memberId, r.at.getTime()]));
}

/** The recipient of a scheduled mail, by member id (from its key) or else by address. */
export async function mailRecipientState(db: Db, who: { id: string } | { email: string }) {
  const [row] = await db
    .select({ role: members.role, disabled: members.disabled, onboarding: members.onboarding })
    .from(members)
    .where('id' in who ? eq(members.id, who.id) : eq(members.email, who.email))
    .limit(1);
  return row;
}
