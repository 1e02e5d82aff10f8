import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import type { AuthConnection } from '#bff/auth/supabase.ts';
import type { Clock } from '#bff/clock.ts';
import type { Db } from '#bff/db/database.ts';
import { SENSITIVE_PROFILE_FIELDS } from '#bff/privacy/consents.ts';
import { deleteAuthUser, eraseMember, eraseMemberData, markAuthUserDeleted, pendingAuthDeletions } from '#bff/privacy/erasure.ts';
import {
  purgeAccessLog,
  purgeAccountingRecords,
  purgeAuthSessions,
  purgeContactMessages,
  purgeCookieProofs,
  purgeMailLogs,
  purgePreSubscriptions,
  purgeRateLimits,
  purgeTerminationProofs,
  purgeWebhookPayloads,
  retentionCandidateIds,
  retentionCandidates,
  stripSensitiveAnswers,
} from '#bff/retention/store/purges.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';

/**
 * Retention periods of the privacy policy (content/pages/politique-de-confidentialite.md §7),
 * applied by a job inside the BFF (decision 070). Months are calendar months (SQL intervals).
 */
export const RETENTION = {
  /** « Pré-inscription non suivie d'une inscription : 12 mois à compter de la pré-inscription ». */
  preSubscriptionMonths: 12,
  /** « Journaux d'envoi des e-mails et messages du formulaire de contact : 12 mois ». */
  mailLogMonths: 12,
  /**
   * The same line of the policy for the stored contact messages of the leads inbox (decision 112):
   * 12 months from their sending, with their follow-up, notes and history.
   */
  contactMessageMonths: 12,
  /** « Preuve de votre choix en matière de cookies : 12 mois à compter de son enregistrement ». */
  cookieProofMonths: 12,
  /** « Journaux techniques de connexion et de sécurité : 12 mois »: idle sessions, MFA challenges, webhook payloads. */
  technicalLogMonths: 12,
  /**
   * « Journal des consultations de votre dossier par l'équipe : 12 mois »: staff reads of members'
   * files (`access_log`, decision 107), as the other security logs: long enough for a member to ask
   * who read their file over the past year, no longer.
   */
  accessLogMonths: 12,
  /** « Données de membre : durée du contrat, puis 3 ans à compter de sa fin » (or of the last activity without a contract). */
  memberMonthsAfterEnd: 36,
  /**
   * « Contrats, annexes, preuves de signature, factures et avoirs : 10 ans à compter de la fin de
   * l'année concernée » (Code de commerce L123-22): a record of year Y is kept until the end of
   * year Y + 10, as `retainUntil` (bff/privacy/erasure.ts) dates the legal records; then the legal
   * records, the signatures' evidence (address, browser, code times, decision 109), the invoices
   * and the credit notes of that year go (decision 156).
   */
  accountingYears: 10,
  /**
   * « Justificatif d'une demande de résiliation : 5 ans à compter de la fin du contrat » (decision
   * 189): the proof justifies the decision and the refund (R224-2) as long as a claim about them is
   * possible (art. 2224 Code civil, 5 years), from the contract's end (its stop, else its term).
   * Kept through an erasure, like the request's dates, reason and decision; then deleted here.
   */
  terminationProofYearsAfterContract: 5,
} as const;

/** How often the job runs in the server. */
export const RETENTION_INTERVAL_MS = 6 * 60 * 60 * 1000;

export interface RetentionReport {
  preSubscriptions: number;
  preSubscriptionConsents: number;
  contactMessages: number;
  leadFollowUps: number;
  mailOutbox: number;
  mailbox: number;
  rateLimits: number;
  cookieProofs: number;
  webhookPayloads: number;
  authSessions: number;
  accessLog: number;
  legalRecords: number;
  contractSignatures: number;
  invoices: number;
  creditNotes: number;
  terminationProofs: number;
  contractsEnded: number;
  membersErased: number;
  authUsersDeleted: number;
}

function addMonths(date: Date, months: number): Date {
  const d = new Date(date.getTime());
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
}

/** When the member's contract ends (signature + the plan's term), or null without a signed contract. */
function contractEnd(record: OnboardingRecord): Date | null {
  // The one end of the term (decision 118), the one the chart and the mails read.
  const end = termEndsAtMs(record);
  return end === null ? null : new Date(end);
}

/**
 * One pass of every purge, each its own statement, with `now` from the clock. The embedded auth
 * service's sessions and second-factor challenges are dated by its own clock (`authClock`: real
 * time, while the agency's clock may have been moved ahead outside production, decision 170), so
 * their idle time is measured on it: moving the agency's date signs nobody out.
 */
export async function runRetention(deps: {
  db: Db;
  clock: Clock;
  authClock?: Clock | undefined;
  auth?: AuthConnection | undefined;
  /** Aborted when the product closes: no batch of members starts after it. */
  stopping?: AbortSignal | undefined;
}): Promise<RetentionReport> {
  const { db } = deps;
  const now = deps.clock.now();
  const authNow = (deps.authClock ?? deps.clock).now();

  // Pre-registrations never followed by an account, and their consent proofs.
  const { preSubscriptionConsents, preSubscriptions } = await purgePreSubscriptions(db, now, RETENTION.preSubscriptionMonths);

  // Contact messages (leads inbox, decision 112) after 12 months; then every follow-up, note and
  // history row whose lead (pre-registration or contact message) is gone.
  const { contactMessages, leadFollowUps } = await purgeContactMessages(db, now, RETENTION.contactMessageMonths);

  // Mail logs: sent, failed or dropped mails; pending ones are still to be sent.
  const { mailOutbox, mailbox } = await purgeMailLogs(db, now, RETENTION.mailLogMonths);

  // Rate-limit buckets whose window is over.
  const rateLimits = await purgeRateLimits(db, now);

  // Proofs of cookie choices (anonymous) after 12 months.
  const cookieProofs = await purgeCookieProofs(db, now, RETENTION.cookieProofMonths);

  // Webhook payloads (provider copies of payments and bookings) after 12 months; ids stay for de-duplication.
  const webhookPayloads = await purgeWebhookPayloads(db, now, RETENTION.technicalLogMonths);

  // Idle sessions and old second-factor challenges of the embedded auth service (absent with a hosted project).
  const authSessions = await purgeAuthSessions(db, authNow, RETENTION.technicalLogMonths);

  // Staff access log entries after 12 months (the table is append-only: deleting is the only change).
  const accessLog = await purgeAccessLog(db, now, RETENTION.accessLogMonths);

  // Contracts' evidence and accounting documents, 10 years after the end of their year: the legal
  // records kept by erasures (their own `retain_until`), the signatures' evidence, the credit
  // notes, then the invoices (a credit note names its invoice, so it goes first).
  const lastYearGone = now.getUTCFullYear() - RETENTION.accountingYears - 1;
  const { legalRecords, contractSignatures, creditNotes, invoices } = await purgeAccountingRecords(db, now, lastYearGone);

  // Termination proofs (decision 189), 5 years after the end of the request's contract: its stop
  // (renunciation, withdrawal, accepted termination, term), else its term; a request without a
  // known contract counts from its decision, else from itself.
  const terminationProofs = await purgeTerminationProofs(db, now, RETENTION.terminationProofYearsAfterContract);

  // Members: at the end of the contract the religious practice and the search criteria leave the
  // active record (they stay in the signed contract copy); 3 years after the end (or after the
  // last activity, without a contract) the member is erased like an erasure request.
  let contractsEnded = 0;
  let membersErased = 0;
  // Only the members a rule may reach (decision 213): untouched for the whole period (the erasure
  // needs it: the last activity is at least the row's last change), or past their term's end with
  // sensitive answers left, or whose stage is not written yet; read in batches between which the
  // event loop is free.
  const candidateIds = await retentionCandidateIds(db, now, RETENTION.memberMonthsAfterEnd, SENSITIVE_PROFILE_FIELDS);
  for (let start = 0; start < candidateIds.length; start += RETENTION_BATCH) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    if (deps.stopping?.aborted) break; // the product closes: the next pass takes up the rest
    const batch = await retentionCandidates(db, candidateIds.slice(start, start + RETENTION_BATCH));
    ({ contractsEnded, membersErased } = await retainMembers(deps, batch, now, { contractsEnded, membersErased }));
  }

  // Erasures whose auth user could not be deleted at the time.
  let authUsersDeleted = 0;
  if (deps.auth && !deps.stopping?.aborted) {
    for (const memberId of await pendingAuthDeletions(db)) {
      if (await deleteAuthUser(deps.auth, memberId)) {
        await markAuthUserDeleted(db, memberId);
        authUsersDeleted += 1;
      }
    }
  }

  return {
    preSubscriptions,
    preSubscriptionConsents,
    contactMessages,
    leadFollowUps,
    mailOutbox,
    mailbox,
    rateLimits,
    cookieProofs,
    webhookPayloads,
    authSessions,
    accessLog,
    legalRecords,
    contractSignatures,
    invoices,
    creditNotes,
    terminationProofs,
    contractsEnded,
    membersErased,
    authUsersDeleted,
  };
}

const RETENTION_BATCH = 200;

/**
 * The member rules over one batch of candidates: erased after the period (one by one: an erasure is
 * its own transaction), sensitive answers dropped at the term's end, the whole batch's in one
 * statement (each row only if its version is still the one read: a member who changed meanwhile is
 * taken up by the next pass). A first pass over a large agency strips thousands of members: one
 * UPDATE a member kept the job busy for minutes (issue 64, decision 224).
 */
async function retainMembers(
  deps: { db: Db; auth?: AuthConnection },
  rows: readonly { id: string; onboarding: unknown; profile: unknown; questionnaire: unknown; updatedAt: Date; version: number }[],
  now: Date,
  counts: { contractsEnded: number; membersErased: number },
): Promise<{ contractsEnded: number; membersErased: number }> {
  const { db } = deps;
  let { contractsEnded, membersErased } = counts;
  const strips: { id: string; version: number; profile: Record<string, unknown> | null }[] = [];
  for (const row of rows) {
    const end = contractEnd(row.onboarding as OnboardingRecord);
    const lastActivity = end && end > row.updatedAt ? end : row.updatedAt;
    if (addMonths(lastActivity, RETENTION.memberMonthsAfterEnd) < now) {
      const summary = deps.auth
        ? await eraseMember({ db, auth: deps.auth }, row.id, { now, requestedBy: 'retention' })
        : await eraseMemberData(db, row.id, { now, requestedBy: 'retention' });
      if (summary) membersErased += 1;
      continue;
    }
    const profile = row.profile as Record<string, unknown> | null;
    const sensitiveLeft = row.questionnaire !== null || (profile !== null && SENSITIVE_PROFILE_FIELDS.some((f) => f in profile));
    if (end && end < now && sensitiveLeft) {
      const stripped = profile
        ? Object.fromEntries(Object.entries(profile).filter(([k]) => !(SENSITIVE_PROFILE_FIELDS as readonly string[]).includes(k)))
        : null;
      strips.push({ id: row.id, version: row.version, profile: stripped });
    }
  }
  if (strips.length > 0) {
    contractsEnded += await stripSensitiveAnswers(db, strips);
  }
  return { contractsEnded, membersErased };
}
