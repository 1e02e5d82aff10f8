import { type AgencyMailSite, layout, type Recipient, siteLink } from '#bff/mail/agency-mails.ts';
import type { OutgoingMail } from '#bff/mail/outbox.ts';

/**
 * The notices of a new message (decision 121), one per message through the outbox. They never
 * carry the message: what a member and the agency write to each other may reveal religious
 * practice or family life (GDPR art. 9), which has no place in a mail. They say where to read it.
 */

/** To the member: the agency wrote; read it in your space. */
export function memberMessageNotice(site: AgencyMailSite, recipient: Recipient): OutgoingMail {
  return layout(site, recipient, 'message-notice-member', 'Un nouveau message vous attend dans votre espace', [
    { text: `Votre conseillère ${site.agency.legalName} vous a écrit.` },
    {
      text: 'Pour protéger votre vie privée, le message n’est pas reproduit dans ce courriel : vous le lisez, et pouvez y répondre, dans votre espace membre.',
    },
    { link: siteLink(site, '/mon-compte/messages'), label: 'Lire mon message' },
  ]);
}

/** To the agency's address: a member wrote from their space (neither the content nor the name). */
export function agencyMessageNotice(site: AgencyMailSite, to: string, memberId: string): OutgoingMail {
  return layout(site, { to }, 'message-notice-agency', 'Nouveau message d’un membre', [
    { text: 'Un membre vous a écrit depuis son espace. Le message n’est pas reproduit ici : lisez-le dans l’espace équipe.' },
    { link: siteLink(site, `/dashboard/message-direct?memberId=${encodeURIComponent(memberId)}`), label: 'Lire le message' },
  ]);
}
