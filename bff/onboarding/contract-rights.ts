import type { Transaction } from '#bff/db/database.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import {
  type AgencyMailSite,
  renunciationConfirmedMail,
  terminationConfirmedMail,
  terminationRefusedMail,
  terminationRequestedMail,
  withdrawalConfirmedMail,
} from '#bff/mail/agency-mails.ts';
import { endIntroductionsOf } from '#bff/introductions/introductions.ts';
import { enqueueMailOnce } from '#bff/mail/outbox.ts';
import type { MemberRow } from '#bff/members/members.ts';
import { ensureContract, recordContractStop } from '#bff/payments/contract-ledger.ts';
import { recordTerminationRefunds, recordWithdrawalRefunds } from '#bff/payments/refunds.ts';
import { terminationReasonLabels } from '#machines/onboarding/labels.ts';
import { DEMO_AGENCY_IDENTITY, type AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import { instantMs, toIsoInstant } from '#machines/onboarding/instant.ts';
import { termEndsAtMs, terminationRefundDueByMs } from '#machines/onboarding/periods.ts';
import { PROOF_RULES, type ProofMime, proofTypeLabels, terminationChannelLabels } from '#machines/onboarding/termination-texts.ts';
import { memberProofUrl, type ProofView, proofsOf, staffProofUrl } from '#bff/contract/termination-proofs.ts';
import {
  decideTermination,
  insertTermination,
  latestTerminationRow,
  pendingTerminationRow,
  type TerminationRow,
  terminationRowsOf,
} from '#bff/onboarding/store/terminations.ts';
import { subscriptionPaymentOpensAt, withdrawalPeriodEndsAt } from '#machines/onboarding/legal-deadlines.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import type { TerminationReason, UpdatePayload } from '#machines/onboarding/update-contexts.ts';
import { parisDayStartMs } from '#machines/paris-time.ts';

/** The accepted event a hook reads: the update, the record before it, the member's row, the instant. */
interface RightsHookInput {
  update: UpdatePayload;
  previous: OnboardingRecord;
  row: MemberRow;
  now: Date;
  site: AgencyMailSite | undefined;
  /** The agency's identity on credit notes (the configured one; the demo one only where none is passed: unit tests). */
  agency?: AgencyIdentity | undefined;
  actorId?: string | null;
}

/**
 * What the member's rights cause besides the chart's new state (decision 118), in the event's
 * transaction (`applyOnboardingUpdate`): a withdrawal records the refund it owes; both send their
 * confirmation, once per contract (the key names the signature instant).
 */
export async function contractRightsHook(tx: Transaction, input: RightsHookInput): Promise<void> {
  const { update, previous, row, now, site } = input;
  const creditNote = { agency: input.agency ?? site?.agency ?? DEMO_AGENCY_IDENTITY, site };
  const to = { to: row.email, firstName: firstNameOf(row.profile) };
  if (
    update.context === 'terminate' ||
    update.context === 'terminate_letter' ||
    update.context === 'terminate_ok' ||
    update.context === 'terminate_no'
  ) {
    await terminationHook(tx, { ...input, creditNote, to });
    return;
  }
  // The signature opens the contract's ledger (decision 175).
  if (update.context === 'sub_date') await ensureContract(tx, row.id, row.onboarding as OnboardingRecord, now);
  if (update.context !== 'renounce' && update.context !== 'withdraw') return;
  const contract = previous.subscriptionDate ?? 'sans-date';
  // The contract stops now; its subscription is cancelled right after the commit (decision 175).
  await recordContractStop(tx, {
    memberId: row.id,
    record: previous,
    reason: update.context === 'renounce' ? 'renunciation' : 'withdrawal',
    at: now,
  });
  // Privacy ends with the contract (decision 194): its introductions end in this transaction.
  await endIntroductionsOf(tx, row.id, update.context === 'renounce' ? 'renonciation' : 'retractation', now);
  if (update.context === 'renounce') {
    if (site) {
      const mail = renunciationConfirmedMail(site, to, { at: now });
      await enqueueMailOnce(tx, mail, `${mail.kind}:${row.id}:${contract}`);
    }
    return;
  }
  const refund = await recordWithdrawalRefunds(tx, { memberId: row.id, record: previous, now, creditNote });
  if (site) {
    const mail = withdrawalConfirmedMail(site, to, {
      at: now,
      refundCents: refund.refundCents,
      keptCents: refund.keptCents,
      refundBy: refund.dueBy,
    });
    await enqueueMailOnce(tx, mail, `${mail.kind}:${row.id}:${contract}`);
  }
}

/**
 * Termination for a legitimate reason (R224-2, decision 119), in the event's transaction: the
 * request is recorded with its reason, explanation and proof (here, not in the event log); staff's
 * acceptance records the refund owed (pro rata until the request, due two months after it) with
 * its credit notes; a refusal keeps the staff's reason. Each sends its mail once per request.
 */
async function terminationHook(
  tx: Transaction,
  input: RightsHookInput & {
    creditNote: { agency: AgencyIdentity; site: AgencyMailSite | undefined };
    to: { to: string; firstName: string | null | undefined };
  },
): Promise<void> {
  const { update, previous, row, now, site, to } = input;
  if (update.context === 'terminate' || update.context === 'terminate_letter') {
    // Online: now. By letter: the day it was received, as the record says (decision 189); the two
    // months to decide and refund run from then (R224-2: « à compter de la réception »).
    const letter = update.context === 'terminate_letter';
    const requestedAt = letter ? new Date(parisDayStartMs(update.receivedOn)) : now;
    const dueBy = new Date(terminationRefundDueByMs(requestedAt.getTime()));
    const contractId = await ensureContract(tx, row.id, previous, now);
    await insertTermination(tx, {
      memberId: row.id,
      requestedAt,
      reason: update.reason,
      explanation: update.explanation,
      dueBy,
      channel: letter ? 'letter' : 'online',
      recordedBy: letter ? (input.actorId ?? null) : null,
      contractId,
    });
    if (site) {
      const mail = terminationRequestedMail(site, to, {
        at: requestedAt,
        reasonLabel: terminationReasonLabels[update.reason],
        dueBy,
        byLetter: letter,
      });
      await enqueueMailOnce(tx, mail, `${mail.kind}:${row.id}:${requestedAt.toISOString()}`);
    }
    return;
  }
  const request = await pendingTerminationRow(tx, row.id);
  // The chart accepted the decision, so a request is pending; its row is written with it.
  if (!request) throw new Error(`no pending termination request for member ${row.id}`);
  const key = request.requestedAt.toISOString();
  if (update.context === 'terminate_no') {
    await decideTermination(tx, request.id, {
      decision: 'refused',
      decidedAt: now,
      decidedBy: input.actorId ?? null,
      refusalReason: update.reason,
    });
    if (site) {
      const mail = terminationRefusedMail(site, to, { requestedAt: request.requestedAt, reason: update.reason });
      await enqueueMailOnce(tx, mail, `${mail.kind}:${row.id}:${key}`);
    }
    return;
  }
  await decideTermination(tx, request.id, { decision: 'accepted', decidedAt: now, decidedBy: input.actorId ?? null });
  // The contract stops at the acceptance: nothing more is taken from then on (decision 175).
  await recordContractStop(tx, { memberId: row.id, record: previous, reason: 'termination', at: now });
  await endIntroductionsOf(tx, row.id, 'resiliation', now);
  const refund = await recordTerminationRefunds(tx, {
    memberId: row.id,
    record: previous,
    requestedAt: request.requestedAt,
    now,
    creditNote: input.creditNote,
  });
  if (site) {
    const mail = terminationConfirmedMail(site, to, {
      at: now,
      requestedAt: request.requestedAt,
      refundCents: refund.refundCents,
      keptCents: refund.keptCents,
      refundBy: refund.dueBy,
    });
    await enqueueMailOnce(tx, mail, `${mail.kind}:${row.id}:${key}`);
  }
}

/** What staff and the member read of the rights and the term: instants (ISO) and refunds, no codes. */
export interface ContractRightsView {
  signedAt: string | null;
  /** The instant the renunciation period ends (24:00 Paris on its last day, civil days: decision 165); the payment opens then. */
  renunciationEndsAt: string | null;
  /** The instant the withdrawal period ends (24:00 Paris on its last day, civil days: decision 165). */
  withdrawalEndsAt: string | null;
  termEndsAt: string | null;
  renouncedAt: string | null;
  withdrawnAt: string | null;
  refunds: { amountCents: number; requestedAt: string; dueBy: string; done: boolean; completedAt: string | null; keptCents: number }[];
  /** The latest termination request for a legitimate reason (decision 119), in words; null when none. */
  termination: TerminationView | null;
}

export interface TerminationView {
  id: number;
  requestedAt: string;
  /** « En ligne, depuis l’espace membre » or « Par courrier, enregistrée par l’équipe » (decision 189). */
  channelLabel: string;
  byLetter: boolean;
  /** The reason's code (for the screens' rules, never shown) and its label. */
  reason: TerminationReason;
  reasonLabel: string;
  explanation: string;
  /** The proof, a file: its kind, size and where staff open it (each read logged); null when none. */
  proof: ProofView | null;
  /** Whether the reason asks for a proof, and that in words (« Obligatoire pour ce motif »…). */
  proofRule: 'required' | 'optional' | 'none';
  proofRuleLabel: string;
  /** Staff decide, and the refund is made, by then (two months after the request). */
  dueBy: string;
  /** « En attente de décision », « Acceptée », « Refusée ». */
  statusLabel: string;
  pending: boolean;
  decidedAt: string | null;
  refusalReason: string | null;
}

const PROOF_RULE_LABELS = {
  required: 'Obligatoire pour ce motif',
  optional: 'Facultatif pour ce motif',
  none: 'Aucun pour ce motif (jamais de donnée de santé)',
} as const;

/** A request row as staff and the member read it; `proofUrl` names the reader's own route. */
function terminationView(
  row: TerminationRow,
  proof: { mime: ProofMime; sizeBytes: number; uploadedAt: Date } | undefined,
  proofUrl: (id: number) => string,
): TerminationView {
  const labels: Readonly<Record<string, string>> = terminationReasonLabels;
  const reason: TerminationReason = Object.hasOwn(PROOF_RULES, row.reason) ? (row.reason as TerminationReason) : 'autre-motif-grave';
  const rule = PROOF_RULES[reason];
  return {
    id: row.id,
    requestedAt: row.requestedAt.toISOString(),
    channelLabel: terminationChannelLabels[row.channel],
    byLetter: row.channel === 'letter',
    reason,
    reasonLabel: labels[row.reason] ?? 'Autre motif grave',
    explanation: row.explanation,
    proof: proof
      ? {
          url: proofUrl(row.id),
          typeLabel: proofTypeLabels[proof.mime],
          sizeBytes: proof.sizeBytes,
          uploadedAt: proof.uploadedAt.toISOString(),
        }
      : null,
    proofRule: rule,
    proofRuleLabel: PROOF_RULE_LABELS[rule],
    dueBy: row.dueBy.toISOString(),
    statusLabel: row.decision === 'accepted' ? 'Acceptée' : row.decision === 'refused' ? 'Refusée' : 'En attente de décision',
    pending: row.decision === null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    refusalReason: row.refusalReason,
  };
}

/** A member's latest termination request (decisions 119, 189), for staff's rights card. */
export async function latestTerminationOf(tx: Pick<Transaction, 'select'>, memberId: string): Promise<TerminationView | null> {
  const row = await latestTerminationRow(tx, memberId);
  if (!row) return null;
  const proofs = await proofsOf(tx, memberId);
  return terminationView(row, proofs.get(row.id), (id) => staffProofUrl(memberId, id));
}

/** A member's own requests, newest first, for « Mes droits » (decision 189). */
export async function terminationsOfMember(tx: Pick<Transaction, 'select'>, memberId: string): Promise<TerminationView[]> {
  const rows = await terminationRowsOf(tx, memberId);
  const proofs = await proofsOf(tx, memberId);
  return rows.map((row) => terminationView(row, proofs.get(row.id), memberProofUrl));
}

export function contractRightsView(
  record: OnboardingRecord,
  refunds: { amountCents: number; requestedAt: Date; dueBy: Date; status: string; completedAt: Date | null; keptCents: number }[],
  termination: TerminationView | null = null,
): ContractRightsView {
  const iso = (ms: number | null) => (ms === null ? null : toIsoInstant(ms));
  const signed = record.subscriptionDate;
  return {
    signedAt: signed === null ? null : toIsoInstant(instantMs(signed)),
    renunciationEndsAt: iso(subscriptionPaymentOpensAt(signed)),
    withdrawalEndsAt: iso(withdrawalPeriodEndsAt(signed)),
    termEndsAt: iso(termEndsAtMs(record)),
    renouncedAt: record.contractRenouncedAt ?? null,
    withdrawnAt: record.contractWithdrawnAt ?? null,
    refunds: refunds.map((r) => ({
      amountCents: r.amountCents,
      requestedAt: r.requestedAt.toISOString(),
      dueBy: r.dueBy.toISOString(),
      done: r.status === 'succeeded',
      completedAt: r.completedAt?.toISOString() ?? null,
      keptCents: r.keptCents,
    })),
    termination,
  };
}
