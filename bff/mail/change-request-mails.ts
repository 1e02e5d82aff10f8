import { type AgencyMailSite, layout, type Recipient, siteLink } from '#bff/mail/agency-mails.ts';
import type { OutgoingMail } from '#bff/mail/outbox.ts';

/**
 * The notice that staff answered a change request (decision 127). It says only that the request
 * was answered and where to read the answer: neither the fields, the old or new values, nor the
 * staff's note (the answers may reveal religious practice or family life, GDPR art. 9).
 */
const CHANGE_REQUEST_ANSWERED_KIND = 'change-request-answered';

export function changeRequestAnsweredMail(site: AgencyMailSite, recipient: Recipient): OutgoingMail {
  return layout(site, recipient, CHANGE_REQUEST_ANSWERED_KIND, 'Votre demande de modification a reçu une réponse', [
    { text: `L’équipe ${site.agency.legalName} a répondu à votre demande de modification de votre profil.` },
    {
      text: 'Pour protéger votre vie privée, la réponse n’est pas reproduite dans ce courriel : vous la lisez dans votre espace, sur la page « Mon profil ».',
    },
    { link: siteLink(site, '/mon-compte/mon-profil'), label: 'Voir Mon profil' },
  ]);
}
