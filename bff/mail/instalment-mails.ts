import { type AgencyMailSite, dateFr, layout, type Recipient, siteLink } from '#bff/mail/agency-mails.ts';
import type { OutgoingMail } from '#bff/mail/outbox.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';

/**
 * The instalment mails (decision 120), in the agency's one layout (bff/mail/agency-mails.ts):
 * French, text and HTML, the agency's identity in the footer. Queued once per Stripe event.
 */

/** A monthly instalment could not be taken. */
export function instalmentFailedMail(
  site: AgencyMailSite,
  recipient: Recipient,
  input: { number: number; of: number; amountCents: number; planTitle: string; failedAt: Date },
): OutgoingMail & { kind: 'agency-instalment-failed' } {
  return layout(site, recipient, 'agency-instalment-failed', `Mensualité ${input.number} sur ${input.of} : le prélèvement a échoué`, [
    {
      text: `Le prélèvement de votre mensualité ${input.number} sur ${input.of} (${formatEuros(input.amountCents)}, formule ${input.planTitle}) n’a pas pu être effectué le ${dateFr(input.failedAt)}.`,
    },
    {
      text: 'Votre banque a refusé le paiement ou votre carte a expiré. Une nouvelle tentative sera faite automatiquement dans les prochains jours ; vous pouvez aussi mettre à jour votre moyen de paiement ou nous contacter.',
    },
    { text: 'Votre accompagnement continue pendant ce temps. Votre échéancier est visible dans votre espace.' },
    { link: siteLink(site, '/mon-compte'), label: 'Mon espace membre' },
  ]);
}

/**
 * A charge arrived after the contract stopped (decision 175): it is refunded at once, never
 * invoiced. One plain mail says so, with the amount and why.
 */
export function chargeRefundedMail(
  site: AgencyMailSite,
  recipient: Recipient,
  input: { amountCents: number; takenAt: Date; endedOn: Date | null },
): OutgoingMail & { kind: 'agency-charge-refunded' } {
  const ended = input.endedOn ? `Votre contrat a pris fin le ${dateFr(input.endedOn)}` : 'Votre contrat a pris fin';
  return layout(site, recipient, 'agency-charge-refunded', 'Un prélèvement après la fin de votre contrat : nous vous le remboursons', [
    {
      text: `${ended}. Un prélèvement de ${formatEuros(input.amountCents)} a pourtant été effectué le ${dateFr(input.takenAt)}. Il n’était pas dû : nous vous le remboursons en totalité, sans démarche de votre part.`,
    },
    { text: 'Le remboursement apparaît sur votre compte sous quelques jours, selon votre banque. Aucun autre prélèvement ne sera fait.' },
    { link: siteLink(site, '/mon-compte'), label: 'Mon espace membre' },
  ]);
}
