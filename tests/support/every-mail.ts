import {
  emailChangeConfirmationMail,
  emailChangedNotice,
  emailChangeRequestedNotice,
  reauthenticationMail,
  signupConfirmationMail,
} from '#bff/mail/account-mails.ts';
import { recoveryMail } from '#bff/mail/recovery-mail.ts';
import { signatureCodeMail, signedContractMail } from '#bff/onboarding/contract-signature.ts';
import {
  activeMemberMail,
  type AgencyMailSite,
  contractReadyMail,
  creditNoteMail,
  meetingBookedMail,
  meetingMissedMail,
  meetingReminderMail,
  paymentReceivedMail,
  renunciationConfirmedMail,
  renunciationPeriodOverMail,
  termEndedMail,
  termEndingMail,
  terminationConfirmedMail,
  terminationRefusedMail,
  terminationRequestedMail,
  welcomeMail,
  withdrawalConfirmedMail,
  withdrawalPeriodOverMail,
} from '#bff/mail/agency-mails.ts';
import { invitationMail } from '#bff/mail/staff-mails.ts';
import { mfaResetMail } from '#bff/mail/staff-mails.ts';
import { changeRequestAnsweredMail } from '#bff/mail/change-request-mails.ts';
import { guardianContactMail, guardianProposalCopyMail } from '#bff/mail/guardian-mails.ts';
import { chargeRefundedMail, instalmentFailedMail } from '#bff/mail/instalment-mails.ts';
import {
  introductionAcceptedMail,
  introductionEndedMail,
  introductionEndedWaliMail,
  introductionExpiredMail,
  introductionFeedbackReminderMail,
  introductionProposedMail,
  introductionReminderMail,
} from '#bff/mail/introduction-mails.ts';
import { memberMessageNotice } from '#bff/mail/message-mails.ts';
import type { OutgoingMail } from '#bff/mail/outbox.ts';
import { preRegistrationMail } from '#bff/members/signup-prefill.ts';
import { SAMPLE_AGENCY } from '#tests/support/agency.ts';

/**
 * Every kind of mail a member, a guardian or a prospect receives, rendered with sample values
 * (decision 198): the mail-family test checks their greeting, signature and footer, the glossary
 * test their words. A new kind of mail is added here; `everyMailKind` fails on one left out of the
 * agency's list.
 */

export const MAIL_SITE: AgencyMailSite = { siteUrl: 'https://www.union-sincere.fr', agency: SAMPLE_AGENCY };
const pdf = new Uint8Array([37, 80, 68, 70]);
const at = new Date('2026-11-26T14:00:00Z');
const later = new Date('2027-11-26T10:00:00Z');

export interface RenderedMail {
  mail: OutgoingMail;
  /** The first name the mail must greet, or null when the recipient's is not known (a prospect, a sign-up). */
  firstName: string | null;
}

export function everyMail(): RenderedMail[] {
  const site = MAIL_SITE;
  const to = { to: 'amina@example.fr', firstName: 'Amina' };
  const account = { ...to, siteName: 'Union Sincère', site };
  const member = (mail: OutgoingMail): RenderedMail => ({ mail, firstName: 'Amina' });
  return [
    member(welcomeMail(site, to)),
    member(
      paymentReceivedMail(site, to, {
        amountCents: 8500,
        what: 'Abonnement',
        invoiceNumber: '2026-000002',
        invoicePdf: pdf,
        invoiceFileName: 'f.pdf',
      }),
    ),
    member(meetingBookedMail(site, to, { at })),
    member(meetingReminderMail(site, to, { at })),
    member(meetingMissedMail(site, to, { at })),
    member(contractReadyMail(site, to)),
    member(renunciationPeriodOverMail(site, to, { lastDay: '2026-12-14' })),
    member(withdrawalPeriodOverMail(site, to, { lastDay: '2026-12-21' })),
    member(activeMemberMail(site, to, { endsAt: later })),
    member(termEndingMail(site, to, { endsAt: later, daysBefore: 30 })),
    member(termEndedMail(site, to, { lastDay: later })),
    member(renunciationConfirmedMail(site, to, { at })),
    member(withdrawalConfirmedMail(site, to, { at, refundCents: 9500, keptCents: 1200, refundBy: later })),
    member(terminationRequestedMail(site, to, { at, reasonLabel: 'Déménagement', dueBy: later })),
    member(terminationConfirmedMail(site, to, { at, requestedAt: at, refundCents: 9512, keptCents: 2378, refundBy: later })),
    member(terminationRefusedMail(site, to, { requestedAt: at, reason: 'Le justificatif ne montre pas de déménagement.' })),
    member(creditNoteMail(site, to, { number: 'AV-2026-00001', amountCents: 1000, invoiceNumber: '2026-000001', pdf, fileName: 'a.pdf' })),
    member(instalmentFailedMail(site, to, { number: 2, of: 12, amountCents: 8500, planTitle: 'Sérénité', failedAt: at })),
    member(chargeRefundedMail(site, to, { amountCents: 8500, takenAt: at, endedOn: later })),
    member(changeRequestAnsweredMail(site, to)),
    member(memberMessageNotice(site, to)),
    member(introductionProposedMail(site, to, { deadline: later })),
    member(introductionAcceptedMail(site, to)),
    member(introductionReminderMail(site, to, { deadline: later })),
    member(introductionExpiredMail(site, to)),
    member(introductionFeedbackReminderMail(site, to, { until: 'jusqu’au mercredi 16 décembre 2026 inclus' })),
    member(introductionEndedMail(site, to, { message: 'Bonjour,\n\nJe vous appelle cette semaine.' })),
    member(introductionEndedMail(site, to, { message: null })),
    member(signatureCodeMail(site, to, '123456')),
    member(signedContractMail(site, to, { signedAt: at, textSha256: 'ab'.repeat(32), pdf, filename: 'contrat-signe.pdf' })),
    member(
      recoveryMail({
        ...account,
        link: 'https://www.union-sincere.fr/connexion/update-password?t=1',
        otp: '123456',
        validitySeconds: 3600,
      }),
    ),
    member(
      emailChangeConfirmationMail({
        ...account,
        current: 'old@example.fr',
        link: 'https://www.union-sincere.fr/x',
        otp: '123456',
        validitySeconds: 3600,
      }),
    ),
    member(emailChangeRequestedNotice({ ...account, next: 'new@example.fr', siteUrl: site.siteUrl })),
    member(emailChangedNotice({ ...account, next: 'new@example.fr' })),
    member(reauthenticationMail({ ...account, otp: '123456', validitySeconds: 600 })),
    // A sign-up: the account has no profile yet, so no first name.
    {
      mail: signupConfirmationMail({ ...account, firstName: null, link: 'https://www.union-sincere.fr/c', validitySeconds: 3600 }),
      firstName: null,
    },
    // A prospect: only the pre-registration's address is known.
    { mail: preRegistrationMail(site, 'prospect@example.fr', 'jeton'), firstName: null },
    {
      mail: guardianProposalCopyMail(
        site,
        { to: 'karim@example.fr', name: 'Karim' },
        {
          memberFirstName: 'Amina',
          relation: 'Frère',
          summary: {
            firstName: 'Youssef',
            age: 31,
            region: 'Rhône',
            practice: 'Pratiquant',
            profession: 'Ingénieur',
            familySituation: 'Célibataire',
          },
          deadline: later,
        },
      ),
      firstName: 'Karim',
    },
    {
      mail: guardianContactMail(
        site,
        { to: 'karim@example.fr', name: 'Karim' },
        {
          memberFirstName: 'Amina',
          relation: 'Frère',
          other: { firstName: 'Youssef', email: 'y@example.fr', phone: '+33612345678' },
          otherGuardian: null,
        },
      ),
      firstName: 'Karim',
    },
    {
      mail: introductionEndedWaliMail(site, { to: 'ahmed@example.fr', firstName: 'Ahmed Benali' }, { waliOf: 'Amina' }),
      firstName: 'Ahmed Benali',
    },
    // The team's mails: a colleague named at the invitation, or one known only by address.
    {
      mail: invitationMail(site, {
        to: 'samia@example.fr',
        name: 'Samia',
        actor: 'Karim Benali',
        link: 'https://www.union-sincere.fr/dashboard/invitation?token=jeton',
        expiresAt: later,
      }),
      firstName: 'Samia',
    },
    { mail: mfaResetMail(site, { to: 'samia@example.fr', name: 'samia@example.fr', actor: 'Karim Benali', at: later }), firstName: null },
  ];
}
