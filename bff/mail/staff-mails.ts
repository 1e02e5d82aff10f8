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
function firstNameOf(name: string): string | null {
  const trimmed = name.trim();
  return trimmed === '' || trimmed.includes('@') ? null : trimmed;
}

/** The French invitation mail (the same for a resend: only the link and the date change), in the agency's mail layout. */
export function invitationMail(site: AgencyMailSite, input: { to: string; name: string; actor: string; link: string; expiresAt: Date }) {
  return layout(
    site,
    { to: input.to, firstName: firstNameOf(input.name) },
    'staff-invitation',
    'Invitation à rejoindre l’équipe Union Sincère',
    [
      { text: `${input.actor} vous invite à rejoindre l’équipe de l’agence Union Sincère sur son tableau de bord.` },
      {
        text: 'Pour créer votre accès, ouvrez ce lien, choisissez votre mot de passe, puis enregistrez le second facteur (une application d’authentification sur votre téléphone : Google Authenticator, Microsoft Authenticator, FreeOTP…).',
      },
      { link: input.link, label: 'Créer mon accès' },
      {
        text: `Ce lien est personnel, ne sert qu’une fois et reste valable jusqu’au ${parisTime.format(input.expiresAt)} (heure de Paris).`,
      },
      { text: 'Si vous ne vous attendiez pas à cette invitation, ignorez ce message : aucun compte ne sera ouvert.' },
    ],
  );
}
