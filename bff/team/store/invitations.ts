// The staff invitations (`staff_invitations`), each with who sent it.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { staffInvitations } from '#bff/db/staff-invitations-schema.ts';

/** The pending invitation `id` (neither accepted nor revoked) locked for a change, if any. */
export async function lockPendingInvitation(tx: Transaction, id: string) {
  const [row] = await tx
    .select()
    .from(staffInvitations)
    .where(and(eq(staffInvitations.id, id), isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
    .for('update');
  return row;
}

/** The invitation whose secret has this digest, whatever its state, if any. */
export async function invitationByDigest(db: Db, tokenDigest: string) {
  const [row] = await db.select().from(staffInvitations).where(eq(staffInvitations.tokenDigest, tokenDigest)).limit(1);
  return row;
}

/** The pending invitations, the oldest first, each with its sender's address and name fields (null when gone). */
export async function pendingInvitationRows(db: Db) {
  return db
    .select({ invitation: staffInvitations, inviter: { email: members.email, onboarding: members.onboarding } })
    .from(staffInvitations)
    .leftJoin(members, eq(members.id, staffInvitations.invitedBy))
    .where(and(isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
    .orderBy(asc(staffInvitations.createdAt));
}

/** The role of the account with this address (`email` already in lower case), if any. */
export async function accountRoleByEmail(db: Db, email: string) {
  const [holder] = await db.select({ role: members.role }).from(members).where(sql`lower(${members.email}) = ${email}`).limit(1);
  return holder;
}

/** Whether an invitation of this address (`email` in lower case) is pending. */
export async function hasPendingInvitation(db: Db, email: string): Promise<boolean> {
  const pending = await db
    .select({ id: staffInvitations.id })
    .from(staffInvitations)
    .where(and(sql`lower(${staffInvitations.email}) = ${email}`, isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
    .limit(1);
  return pending.length > 0;
}

/** A new invitation; its row. */
export async function insertInvitation(tx: Transaction, row: typeof staffInvitations.$inferInsert) {
  const [inserted] = await tx.insert(staffInvitations).values(row).returning();
  return inserted;
}

/** A new secret for invitation `id`, or its revocation. */
export async function updateInvitation(
  tx: Transaction,
  id: string,
  set: Partial<Pick<typeof staffInvitations.$inferInsert, 'tokenDigest' | 'sentAt' | 'expiresAt' | 'revokedAt' | 'revokedBy'>>,
) {
  await tx.update(staffInvitations).set(set).where(eq(staffInvitations.id, id));
}

/** Invitation `id` accepted at `now` if it is still pending; none when it was revoked or accepted meanwhile. */
export async function takeInvitation(tx: Transaction, id: string, now: Date) {
  const [taken] = await tx
    .update(staffInvitations)
    .set({ acceptedAt: now })
    .where(and(eq(staffInvitations.id, id), isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
    .returning({ id: staffInvitations.id });
  return taken;
}
