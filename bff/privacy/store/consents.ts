// Consent records (`consents`) and the withdrawal of the sensitive answers they covered.
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db, Transaction } from '#bff/db/database.ts';
import { consents, memberPrivacy } from '#bff/db/privacy-schema.ts';
import { members, preSubscriptions } from '#bff/db/schema.ts';

type Executor = Db | Transaction;

/** Appends a consent record. */
export async function insertConsent(db: Executor, row: typeof consents.$inferInsert): Promise<void> {
  await db.insert(consents).values(row);
}

/**
 * Every consent record of a member: theirs, plus those of the pre-registrations made with the
 * same e-mail (recorded with the pre-registration's id as their anonymous id). Oldest first.
 */
export async function consentRowsOf(db: Executor, memberId: string, email: string) {
  const pre = await db
    .select({ id: preSubscriptions.id })
    .from(preSubscriptions)
    .where(sql`lower(${preSubscriptions.email}) = lower(${email})`);
  const anonymousIds = pre.map((p) => p.id);
  return db
    .select()
    .from(consents)
    .where(
      anonymousIds.length > 0
        ? or(eq(consents.memberId, memberId), inArray(consents.anonymousId, anonymousIds))
        : eq(consents.memberId, memberId),
    )
    .orderBy(asc(consents.createdAt), asc(consents.id));
}

/** The member's answers and version, locked. */
export async function lockMemberAnswers(tx: Transaction, memberId: string) {
  const [row] = await tx
    .select({ profile: members.profile, questionnaire: members.questionnaire, version: members.version })
    .from(members)
    .where(eq(members.id, memberId))
    .for('update');
  return row;
}

/**
 * Writes the answers without the sensitive ones, drops them from matchmaking and pauses it, in
 * the withdrawal's transaction.
 */
export async function writeWithdrawnAnswers(
  tx: Transaction,
  memberId: string,
  answers: { profile: Record<string, unknown> | null; questionnaire: Record<string, unknown> | null; version: number },
  now: Date,
): Promise<void> {
  await tx
    .update(members)
    .set({ ...answers, updatedAt: now })
    .where(eq(members.id, memberId));
  // The school, the hijab and the beard leave matchmaking with the answers (decisions 208, 212); the row itself is withdrawn below.
  await tx.execute(sql`UPDATE match_profiles SET madhhab = NULL, hijab = NULL, beard = NULL WHERE member_id = ${memberId}::uuid`);
  await tx
    .update(memberPrivacy)
    .set({ matchmakingPausedAt: now })
    .where(and(eq(memberPrivacy.id, memberId)));
}
