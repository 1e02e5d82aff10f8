import { type AgencyMailSite, layout, siteLink } from '#bff/mail/agency-mails.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

const parisTime = frenchDateFormat({ dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });

/** The French notice sent to a colleague whose second factor was reset, in the agency's mail layout. */
export function mfaResetMail(site: AgencyMailSite, input: { to: string; name: string; actor: string; at: Date }) {
  return layout(site, { to: input.to, firstName: firstNameOf(input.name) }, 'staff-mfa-reset', 'Votre second facteur a été réinitialisé', [
    {
      text: `${input.actor} a réinitialisé le second facteur de votre compte de l’équipe Union Sincère le ${parisTime.format(input.at)} (heure de Paris).`,
    },
    {
      text: 'Vos sessions ouvertes sur le tableau de bord prennent fin. À votre prochaine connexion, après votre mot de passe, un nouveau QR code s’affichera : scannez-le avec votre application d’authentification, puis saisissez le code à 6 chiffres.',
    },
    { link: siteLink(site, '/dashboard/connexion'), label: 'Se connecter' },
    { text: 'Si vous n’avez pas demandé cette réinitialisation, prévenez immédiatement l’agence.' },
  ]);
}

/** The greeting's name: a colleague's given name, never the address that stands in for it. */
export function firstNameOf(name: string): string | null {
  const trimmed = name.trim();
  return trimmed === '' || trimmed.includes('@') ? null : trimmed;
}
