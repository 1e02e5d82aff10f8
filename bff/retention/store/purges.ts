// The retention job's purges: every statement that deletes or empties what is past its retention period.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#bff/db/database.ts';
import { members } from '#bff/db/schema.ts';
import { affectedRows as affected } from '#bff/privacy/store/affected-rows.ts';

/** `months` calendar months before `at`, as SQL. */
const monthsBefore = (at: Date, months: number) => sql`(${at.toISOString()}::timestamptz - make_interval(months => ${months}))`;

/**
 * Pre-registrations older than `months` never followed by an account (with the same address, or
 * created with their sign-up link, decision 127), and their consent proofs; counts each.
 */
export async function purgePreSubscriptions(db: Db, now: Date, months: number) {
  const stale = sql`SELECT p.id FROM pre_subscriptions p
    WHERE p.created_at < ${monthsBefore(now, months)}
      AND p.member_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM members m WHERE lower(m.email) = lower(p.email))`;
  const preSubscriptionConsents = await affected(
    db,
    sql`DELETE FROM consents WHERE member_id IS NULL AND anonymous_id IN (${stale}) RETURNING 1`,
  );
  const preSubscriptions = await affected(db, sql`DELETE FROM pre_subscriptions WHERE id IN (${stale}) RETURNING 1`);
  return { preSubscriptionConsents, preSubscriptions };
}

/**
 * Contact messages older than `months`; then every follow-up, note, history and answer row whose
 * lead (pre-registration or contact message) is gone; counts the messages and the follow-ups.
 */
export async function purgeContactMessages(db: Db, now: Date, months: number) {
  const contactMessages = await affected(db, sql`DELETE FROM contact_messages WHERE created_at < ${monthsBefore(now, months)} RETURNING 1`);
  const orphan = (column: string) =>
    sql.raw(`${column} NOT IN (SELECT id FROM pre_subscriptions UNION ALL SELECT id FROM contact_messages)`);
  const leadFollowUps = await affected(db, sql`DELETE FROM lead_follow_ups WHERE ${orphan('lead_id')} RETURNING 1`);
  await db.execute(sql`DELETE FROM lead_notes WHERE ${orphan('lead_id')}`);
  await db.execute(sql`DELETE FROM lead_events WHERE ${orphan('lead_id')}`);
  await db.execute(sql`DELETE FROM lead_answers WHERE ${orphan('lead_id')}`);
  return { contactMessages, leadFollowUps };
}

/** Mail logs older than `months`: sent, failed or dropped mails (pending ones are still to be sent), the local mailbox. */
export async function purgeMailLogs(db: Db, now: Date, months: number) {
  const mailOutbox = await affected(
    db,
    sql`DELETE FROM mail_outbox WHERE status IN ('sent', 'failed', 'dropped')
        AND coalesce(sent_at, created_at) < ${monthsBefore(now, months)} RETURNING 1`,
  );
  const mailbox = await affected(db, sql`DELETE FROM mailbox WHERE received_at < ${monthsBefore(now, months)} RETURNING 1`);
  return { mailOutbox, mailbox };
}

/** Rate-limit buckets whose window is over at `now`. */
export function purgeRateLimits(db: Db, now: Date): Promise<number> {
  return affected(db, sql`DELETE FROM rate_limits WHERE expire IS NOT NULL AND expire < ${now.toISOString()}::timestamptz RETURNING 1`);
}

/** Proofs of cookie choices (anonymous) older than `months`. */
export function purgeCookieProofs(db: Db, now: Date, months: number): Promise<number> {
  return affected(db, sql`DELETE FROM consent_records WHERE created_at < ${monthsBefore(now, months)} RETURNING 1`);
}

/** Webhook payloads received more than `months` ago, emptied; their ids stay for de-duplication. */
export function purgeWebhookPayloads(db: Db, now: Date, months: number): Promise<number> {
  return affected(
    db,
    sql`UPDATE webhook_events SET payload = jsonb_build_object('erased', true)
        WHERE received_at < ${monthsBefore(now, months)} AND NOT (payload ? 'erased') RETURNING 1`,
  );
}

/**
 * Sessions idle and second-factor challenges older than `months` at `authNow` (the auth service's
 * clock) in the embedded auth service, absent with a hosted project; counts the sessions.
 */
export async function purgeAuthSessions(db: Db, authNow: Date, months: number): Promise<number> {
  let authSessions = 0;
  const embedded = (await db.execute(sql`SELECT to_regclass('embedded_auth.sessions') IS NOT NULL AS present`)) as unknown as {
    rows: { present: boolean }[];
  };
  if (embedded.rows[0]?.present) {
    authSessions = await affected(
      db,
      sql`DELETE FROM embedded_auth.sessions WHERE coalesce(refreshed_at, updated_at) < ${monthsBefore(authNow, months)} RETURNING 1`,
    );
    await db.execute(sql`DELETE FROM embedded_auth.mfa_challenges WHERE created_at < ${monthsBefore(authNow, months)}`);
  }
  return authSessions;
}

/** Staff access log entries older than `months` (the table is append-only: deleting is the only change). */
export function purgeAccessLog(db: Db, now: Date, months: number): Promise<number> {
  return affected(db, sql`DELETE FROM access_log WHERE created_at < ${monthsBefore(now, months)} RETURNING 1`);
}

/**
 * The legal records past their own `retain_until` at `now`, then the signatures' evidence, the
 * credit notes and the invoices (a credit note names its invoice, so it goes first) of the years up
 * to `lastYearGone`; counts each.
 */
export async function purgeAccountingRecords(db: Db, now: Date, lastYearGone: number) {
  const legalRecords = await affected(
    db,
    sql`DELETE FROM legal_records WHERE retain_until < ${now.toISOString()}::timestamptz RETURNING 1`,
  );
  const contractSignatures = await affected(
    db,
    sql`DELETE FROM contract_signatures WHERE extract(year FROM signed_at AT TIME ZONE 'UTC') <= ${lastYearGone} RETURNING 1`,
  );
  const creditNotes = await affected(db, sql`DELETE FROM credit_notes WHERE year <= ${lastYearGone} RETURNING 1`);
  const invoices = await affected(
    db,
    sql`DELETE FROM invoices i WHERE i.year <= ${lastYearGone}
          AND NOT EXISTS (SELECT 1 FROM credit_notes c WHERE c.invoice_number = i.number) RETURNING 1`,
  );
  return { legalRecords, contractSignatures, creditNotes, invoices };
}

/**
 * Termination proofs `years` after the end of their request's contract at `now`: its stop, else
 * its term; a request without a known contract counts from its decision, else from itself.
 */
export function purgeTerminationProofs(db: Db, now: Date, years: number): Promise<number> {
  return affected(
    db,
    sql`DELETE FROM contract_termination_proofs p USING contract_terminations t
        LEFT JOIN contracts c ON c.id = t.contract_id
        WHERE p.termination_id = t.id
          AND coalesce(c.stopped_at, c.ends_at, t.decided_at, t.requested_at)
              + make_interval(years => ${years}) < ${now.toISOString()}::timestamptz
        RETURNING 1`,
  );
}

/**
 * The members (not erased) a member rule may reach at `now`: untouched for `months`, or whose
 * stage is not written yet, or past their term's end with answers left among the questionnaire and
 * `sensitiveFields` of the profile; ids in order.
 */
export async function retentionCandidateIds(db: Db, now: Date, months: number, sensitiveFields: readonly string[]): Promise<string[]> {
  const sensitive = sql.raw(`ARRAY[${sensitiveFields.map((f) => `'${f}'`).join(', ')}]::text[]`);
  return (
    (await db.execute(sql`
      SELECT id::text AS id FROM members WHERE role = 'member' AND erased_at IS NULL
        AND updated_at < ${now.toISOString()}::timestamptz - make_interval(months => ${months})
      UNION SELECT id::text FROM members WHERE role = 'member' AND erased_at IS NULL AND stage IS NULL
      UNION SELECT id::text FROM members WHERE role = 'member' AND erased_at IS NULL
        AND term_ends_at < ${now.toISOString()}::timestamptz AND (questionnaire IS NOT NULL OR profile ?| ${sensitive})
      ORDER BY 1`)) as unknown as { rows: { id: string }[] }
  ).rows.map((r) => r.id);
}

/** Of these candidates, the members still not erased, with what the member rules read. */
export function retentionCandidates(db: Db, ids: string[]) {
  return db
    .select({
      id: members.id,
      onboarding: members.onboarding,
      profile: members.profile,
      questionnaire: members.questionnaire,
      updatedAt: members.updatedAt,
      version: members.version,
    })
    .from(members)
    .where(
      and(inArray(members.id, ids), eq(members.role, 'member'), sql`${members.id} IN (SELECT id FROM members WHERE erased_at IS NULL)`),
    );
}

/**
 * Writes each member's profile without its sensitive answers and drops the questionnaire, in one
 * statement, each row only if its version is still the one read; counts the rows written.
 */
export async function stripSensitiveAnswers(
  db: Db,
  strips: readonly { id: string; version: number; profile: Record<string, unknown> | null }[],
): Promise<number> {
  // `profile` is a JSON value inside the recordset: `{"profile": null}` gives SQL NULL, as the former drizzle update did.
  const updated = (await db.execute(sql`UPDATE members m SET profile = s.profile, questionnaire = NULL, version = s.version + 1
        FROM jsonb_to_recordset(${JSON.stringify(strips)}::jsonb) AS s(id uuid, version integer, profile jsonb)
        WHERE m.id = s.id AND m.version = s.version
        RETURNING m.id`)) as unknown as { rows: unknown[] };
  return updated.rows.length;
}
