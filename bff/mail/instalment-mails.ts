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
