import type { Transaction } from '#bff/db/database.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { type AgencyMailSite, renunciationConfirmedMail, withdrawalConfirmedMail } from '#bff/mail/agency-mails.ts';
import { enqueueMailOnce } from '#bff/mail/outbox.ts';
import type { MemberRow } from '#bff/members/members.ts';
import { recordWithdrawalRefunds } from '#bff/payments/refunds.ts';
import { instantMs, toIsoInstant } from '#machines/onboarding/instant.ts';
import { subscriptionPaymentOpensAt, termEndsAtMs, withdrawalPeriodEndsAt } from '#machines/onboarding/periods.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import type { UpdatePayload } from '#machines/onboarding/update-contexts.ts';

/**
 * What the member's rights cause besides the chart's new state (decision 118), in the event's
 * transaction (`applyOnboardingUpdate`): a withdrawal records the refund it owes; both send their
 * confirmation, once per contract (the key names the signature instant).
 */
export async function contractRightsHook(
  tx: Transaction,
  input: { update: UpdatePayload; previous: OnboardingRecord; row: MemberRow; now: Date; site: AgencyMailSite | undefined },
): Promise<void> {
  const { update, previous, row, now, site } = input;
  if (update.context !== 'renounce' && update.context !== 'withdraw') return;
  const to = { to: row.email, firstName: firstNameOf(row.profile) };
  const contract = previous.subscriptionDate ?? 'sans-date';
  if (update.context === 'renounce') {
    if (site) {
      const mail = renunciationConfirmedMail(site, to, { at: now });
      await enqueueMailOnce(tx, mail, `${mail.kind}:${row.id}:${contract}`);
    }
    return;
  }
  const refund = await recordWithdrawalRefunds(tx, { memberId: row.id, record: previous, now });
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

/** What staff and the member read of the rights and the term: instants (ISO) and refunds, no codes. */
export interface ContractRightsView {
  signedAt: string | null;
  /** Renunciation open until (signature + 7 days), then the payment opens. */
  renunciationEndsAt: string | null;
  /** Withdrawal open until (signature + 14 days). */
  withdrawalEndsAt: string | null;
  termEndsAt: string | null;
  renouncedAt: string | null;
  withdrawnAt: string | null;
  refunds: { amountCents: number; requestedAt: string; dueBy: string; done: boolean; completedAt: string | null; keptCents: number }[];
}

export function contractRightsView(
  record: OnboardingRecord,
  refunds: { amountCents: number; requestedAt: Date; dueBy: Date; status: string; completedAt: Date | null; keptCents: number }[],
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
  };
}
