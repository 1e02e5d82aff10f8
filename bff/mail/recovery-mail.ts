import { type AgencyMailSite, layout } from '#bff/mail/agency-mails.ts';
import type { OutgoingMail } from '#bff/mail/outbox.ts';

/** Where the link of a recovery mail leads: the page that asks for the new password. */
export const DEFAULT_RECOVERY_PATH = '/connexion/update-password';

/** `${target}?token_hash=…&type=recovery`, keeping any query the target already has. */
export function recoveryLink(target: string, tokenHash: string): string {
  const url = new URL(target);
  url.searchParams.set('token_hash', tokenHash);
  url.searchParams.set('type', 'recovery');
  return url.toString();
}

export function validity(seconds: number): string {
  if (seconds % 3600 === 0) {
    const hours = seconds / 3600;
    return hours === 1 ? '1 heure' : `${hours} heures`;
  }
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * Who an account mail goes to and how the agency signs it (decision 198): the same layout as every
 * other mail of the agency (greeting by first name when the member's profile holds one, the
 * agency's legal name as signature, its legal footer).
 */
export interface AccountMailTo {
  to: string;
  firstName?: string | null | undefined;
  /** The brand named in the sentences (« votre compte Union Sincère »). */
  siteName: string;
  site: AgencyMailSite;
}

/** The French password-recovery mail. */
export function recoveryMail(input: AccountMailTo & { link: string; otp: string; validitySeconds: number }): OutgoingMail {
  const duration = validity(input.validitySeconds);
  return layout(input.site, input, 'auth-recovery', 'Réinitialisation de votre mot de passe', [
    {
      text: `Vous avez demandé à réinitialiser le mot de passe de votre compte ${input.siteName}. Pour choisir un nouveau mot de passe, ouvrez ce lien :`,
    },
    { link: input.link, label: 'Choisir un nouveau mot de passe' },
    { text: `Ce lien est valable ${duration} et ne sert qu’une fois. Code de vérification : ${input.otp}` },
    { text: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.' },
  ]);
}
