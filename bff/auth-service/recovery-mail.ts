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

export function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

export function validity(seconds: number): string {
  if (seconds % 3600 === 0) {
    const hours = seconds / 3600;
    return hours === 1 ? '1 heure' : `${hours} heures`;
  }
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** The French password-recovery mail. */
export function recoveryMail(input: { to: string; link: string; otp: string; siteName: string; validitySeconds: number }): OutgoingMail {
  const duration = validity(input.validitySeconds);
  const text = [
    'Bonjour,',
    '',
    `Vous avez demandé à réinitialiser le mot de passe de votre compte ${input.siteName}.`,
    'Pour choisir un nouveau mot de passe, ouvrez ce lien :',
    '',
    input.link,
    '',
    `Ce lien est valable ${duration} et ne sert qu’une fois. Code de vérification : ${input.otp}`,
    '',
    'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.',
    '',
    `L’équipe ${input.siteName}`,
  ].join('\n');
  const link = escapeHtml(input.link);
  const html = `<p>Bonjour,</p>
<p>Vous avez demandé à réinitialiser le mot de passe de votre compte ${escapeHtml(input.siteName)}.</p>
<p><a href="${link}">Choisir un nouveau mot de passe</a></p>
<p>Ce lien est valable ${duration} et ne sert qu’une fois. Code de vérification : <strong>${input.otp}</strong></p>
<p>Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.</p>
<p>L’équipe ${escapeHtml(input.siteName)}</p>`;
  return { to: input.to, subject: 'Réinitialisation de votre mot de passe', text, html, kind: 'auth-recovery' };
}
