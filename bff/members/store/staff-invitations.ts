// The staff invitations (`staff_invitations`) a registration must not take the address of.
import { and, isNull, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { staffInvitations } from '#bff/db/staff-invitations-schema.ts';

/** Invitations neither accepted nor revoked for this address (in lower case), at most one. */
export function pendingInvitationsFor(db: Db, email: string): Promise<{ id: string }[]> {
  return db
    .select({ id: staffInvitations.id })
    .from(staffInvitations)
    .where(and(sql`lower(${staffInvitations.email}) = ${email}`, isNull(staffInvitations.acceptedAt), isNull(staffInvitations.revokedAt)))
    .limit(1);
}
