import type { OutgoingMail } from '#bff/mail/outbox.ts';
import { escapeHtml, validity } from '#bff/auth-service/recovery-mail.ts';

/** Where the link of an e-mail change confirmation leads: the page of the site that applies it. */
export const DEFAULT_EMAIL_CHANGE_PATH = '/mon-compte/confirmer-email';

/** Where the link of a sign-up confirmation leads: the site's confirmation page (spec §2). */
export const DEFAULT_SIGNUP_CONFIRMATION_PATH = '/connexion/confirmation';

/** `${target}?token_hash=…&type=signup`, keeping any query the target already has. */
export function signupConfirmationLink(target: string, tokenHash: string): string {
  const url = new URL(target);
  url.searchParams.set('token_hash', tokenHash);
  url.searchParams.set('type', 'signup');
  return url.toString();
}

/** `${target}?token_hash=…&type=email_change`, keeping any query the target already has. */
export function emailChangeLink(target: string, tokenHash: string): string {
  const url = new URL(target);
  url.searchParams.set('token_hash', tokenHash);
  url.searchParams.set('type', 'email_change');
  return url.toString();
}

function mail(input: {
  to: string;
  subject: string;
  kind: string;
  siteName: string;
  paragraphs: (string | { link: string; label: string })[];
}) {
  const text = [
    'Bonjour,',
    '',
    ...input.paragraphs.flatMap((p) => (typeof p === 'string' ? [p, ''] : [p.link, ''])),
    `L’équipe ${input.siteName}`,
  ].join('\n');
  const html = [
    '<p>Bonjour,</p>',
    ...input.paragraphs.map((p) =>
      typeof p === 'string' ? `<p>${escapeHtml(p)}</p>` : `<p><a href="${escapeHtml(p.link)}">${escapeHtml(p.label)}</a></p>`,
    ),
    `<p>L’équipe ${escapeHtml(input.siteName)}</p>`,
  ].join('\n');
  return { to: input.to, subject: input.subject, text, html, kind: input.kind } satisfies OutgoingMail;
}

/** To the NEW address: the link (and code) that applies the change. */
export function emailChangeConfirmationMail(input: {
  to: string;
  current: string;
  link: string;
  otp: string;
  siteName: string;
  validitySeconds: number;
}): OutgoingMail {
  return mail({
    to: input.to,
    subject: 'Confirmez votre nouvelle adresse e-mail',
    kind: 'auth-email-change',
    siteName: input.siteName,
    paragraphs: [
      `Vous avez demandé que l’adresse de votre compte ${input.siteName} devienne ${input.to} (au lieu de ${input.current}).`,
      'Pour confirmer cette nouvelle adresse, ouvrez ce lien :',
      { link: input.link, label: 'Confirmer ma nouvelle adresse' },
      `Ce lien est valable ${validity(input.validitySeconds)} et ne sert qu’une fois. Code de vérification : ${input.otp}`,
      'Tant que vous n’avez pas confirmé, votre compte garde son adresse actuelle. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.',
    ],
  });
}

/**
 * GoTrue's sign-up confirmation (decision 187): the link that proves the mailbox and activates the
 * account. No code in it: the site asks for none (the code still exists and its guesses are capped).
 */
export function signupConfirmationMail(input: { to: string; link: string; siteName: string; validitySeconds: number }): OutgoingMail {
  return mail({
    to: input.to,
    subject: 'Confirmez votre adresse e-mail',
    kind: 'auth-signup-confirmation',
    siteName: input.siteName,
    paragraphs: [
      `Pour activer votre compte ${input.siteName}, confirmez votre adresse e-mail en ouvrant ce lien :`,
      { link: input.link, label: 'Confirmer mon adresse e-mail' },
      `Ce lien est valable ${validity(input.validitySeconds)} et ne sert qu’une fois. Passé ce délai, demandez-en un nouveau depuis la page de connexion.`,
      'Si vous n’êtes pas à l’origine de cette inscription, ignorez ce message : aucun compte ne sera activé avec votre adresse.',
    ],
  });
}

/** To the OLD address, when a change is requested: nothing changes unless the new one confirms. */
export function emailChangeRequestedNotice(input: { to: string; next: string; siteName: string; siteUrl: string }): OutgoingMail {
  return mail({
    to: input.to,
    subject: 'Demande de changement de votre adresse e-mail',
    kind: 'auth-email-change-notice',
    siteName: input.siteName,
    paragraphs: [
      `Une demande de changement de l’adresse de votre compte ${input.siteName} vers ${input.next} vient d’être faite.`,
      'L’adresse ne changera qu’une fois confirmée depuis la nouvelle boîte de réception.',
      `Si vous n’êtes pas à l’origine de cette demande, changez votre mot de passe sans attendre (${input.siteUrl}/connexion/recovery) et contactez l’agence.`,
    ],
  });
}

/** To the OLD address, once the change is applied (GoTrue's "email changed" notification). */
export function emailChangedNotice(input: { to: string; next: string; siteName: string }): OutgoingMail {
  return mail({
    to: input.to,
    subject: 'Votre adresse e-mail a été modifiée',
    kind: 'auth-email-changed',
    siteName: input.siteName,
    paragraphs: [
      `L’adresse de votre compte ${input.siteName} est désormais ${input.next}. Vous recevrez vos prochains messages à cette adresse.`,
      'Si vous n’êtes pas à l’origine de ce changement, contactez l’agence sans attendre.',
    ],
  });
}

/** The code of `GET /reauthenticate`, the nonce that proves a password or address change. */
export function reauthenticationMail(input: { to: string; otp: string; siteName: string; validitySeconds: number }): OutgoingMail {
  return mail({
    to: input.to,
    subject: 'Votre code de confirmation',
    kind: 'auth-reauthentication',
    siteName: input.siteName,
    paragraphs: [
      `Pour confirmer la modification de votre compte ${input.siteName}, saisissez ce code : ${input.otp}`,
      `Il est valable ${validity(input.validitySeconds)} et ne sert qu’une fois. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message et changez votre mot de passe.`,
    ],
  });
}
