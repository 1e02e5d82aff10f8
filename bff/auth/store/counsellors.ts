// Who counsels whom (member_counsellors) and the rows a staff route's scope is checked against.
import { and, eq, sql } from 'drizzle-orm';
import { memberChangeRequests } from '#bff/db/change-requests-schema.ts';
import type { Db } from '#bff/db/database.ts';
import { memberCounsellors } from '#bff/db/follow-up-schema.ts';
import { introductions } from '#bff/db/introductions-schema.ts';
import { leadFollowUps } from '#bff/db/leads-schema.ts';
import { members } from '#bff/db/schema.ts';

/** SQL: `memberId` is assigned to this counsellor. */
export function counselledBy(staffId: string, memberId: unknown) {
  return sql`EXISTS (SELECT 1 FROM ${memberCounsellors} mc WHERE mc.member_id = ${memberId} AND mc.counsellor_id = ${staffId})`;
}

/** The ids of the members assigned to this counsellor. */
export async function counselledMemberIds(db: Db, staffId: string): Promise<string[]> {
  const rows = await db
    .select({ memberId: memberCounsellors.memberId })
    .from(memberCounsellors)
    .where(eq(memberCounsellors.counsellorId, staffId));
  return rows.map((r) => r.memberId);
}

/** Of `ids`, the members assigned to this counsellor. */
export async function counselledAmong(db: Db, staffId: string, ids: string[]): Promise<string[]> {
  const rows = await db
    .select({ memberId: memberCounsellors.memberId })
    .from(memberCounsellors)
    .where(and(eq(memberCounsellors.counsellorId, staffId), sql`${memberCounsellors.memberId} IN ${ids}`));
  return rows.map((r) => r.memberId);
}

/** Whether member `memberId` (lower case) is assigned to this counsellor. */
export async function counsels(db: Db, staffId: string, memberId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(memberCounsellors)
    .where(and(eq(memberCounsellors.memberId, memberId), eq(memberCounsellors.counsellorId, staffId)))
    .limit(1);
  return row !== undefined;
}

/** Whether one of the introduction's two members is assigned to this counsellor; undefined: no such introduction. */
export async function counselsASideOf(db: Db, staffId: string, introductionId: string): Promise<boolean | undefined> {
  const [row] = await db
    .select({
      mine: sql<boolean>`(${counselledBy(staffId, introductions.memberA)} OR ${counselledBy(staffId, introductions.memberB)})`,
    })
    .from(introductions)
    .where(eq(introductions.id, introductionId))
    .limit(1);
  return row?.mine;
}

/** Whether the change request's member is assigned to this counsellor; undefined: no such request. */
export async function counselsChangeRequester(db: Db, staffId: string, requestId: number): Promise<boolean | undefined> {
  const [row] = await db
    .select({ mine: sql<boolean>`${counselledBy(staffId, memberChangeRequests.memberId)}` })
    .from(memberChangeRequests)
    .where(eq(memberChangeRequests.id, requestId))
    .limit(1);
  return row?.mine;
}

/** The lead's follow-up row (who took it), if any. */
export async function leadTaker(db: Db, leadId: string): Promise<{ assigneeId: string | null } | undefined> {
  const [taken] = await db
    .select({ assigneeId: leadFollowUps.assigneeId })
    .from(leadFollowUps)
    .where(eq(leadFollowUps.leadId, leadId))
    .limit(1);
  return taken;
}

/** The two members of an introduction, if it exists. */
export async function introductionSides(db: Db, introductionId: string): Promise<{ a: string; b: string } | undefined> {
  const [row] = await db
    .select({ a: introductions.memberA, b: introductions.memberB })
    .from(introductions)
    .where(eq(introductions.id, introductionId))
    .limit(1);
  return row;
}

/** Whether a member (or staff) row has this id. */
export async function memberExists(db: Db, memberId: string): Promise<boolean> {
  const [exists] = await db.select({ id: members.id }).from(members).where(eq(members.id, memberId)).limit(1);
  return exists !== undefined;
}
