import type { Db } from '#bff/db/database.ts';
import type { MemberRow } from '#bff/members/members.ts';
import {
  emailHolderOtherThan,
  memberById,
  memberProfile,
  memberRole,
  profilesByIds,
  updateMemberEmail,
} from '#bff/members/store/members.ts';

/** One account's row (a member's or a colleague's), if any. */
export function memberRowById(db: Db, id: string): Promise<MemberRow | undefined> {
  return memberById(db, id);
}

/** One account's id and role, if any: enough to say whether an id names a member. */
export function memberRoleById(db: Db, id: string): Promise<{ id: string; role: string } | undefined> {
  return memberRole(db, id);
}

/** Whether another account than `exceptId` already has this address (compared in lower case). */
export async function emailTakenByAnother(db: Db, email: string, exceptId: string): Promise<boolean> {
  const holder = await emailHolderOtherThan(db, email, exceptId);
  return holder !== undefined;
}

/** The account's address after a confirmed change: a change of the row like any other, its version moves (an event deciding on the old row retries). */
export async function setMemberEmail(db: Db, id: string, email: string, now: Date): Promise<void> {
  await updateMemberEmail(db, id, email, now);
}

/** One account's id, role and profile answers, if any (the candidates' page of a member). */
export function memberProfileById(db: Db, id: string): Promise<{ id: string; role: string; profile: unknown } | undefined> {
  return memberProfile(db, id);
}

/** The profile answers of these accounts (none asked, no query). */
export async function profilesOf(db: Db, ids: readonly string[]): Promise<{ id: string; profile: unknown }[]> {
  if (ids.length === 0) return [];
  return profilesByIds(db, ids);
}
