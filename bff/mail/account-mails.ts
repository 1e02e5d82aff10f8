import type { OutgoingMail } from '#bff/mail/outbox.ts';
import { type AccountMailTo, validity } from '#bff/mail/recovery-mail.ts';
import { layout } from '#bff/mail/agency-mails.ts';

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

function mail(
  input: AccountMailTo & { subject: string; kind: string; paragraphs: (string | { link: string; label: string })[] },
): OutgoingMail {
  return layout(
    input.site,
    input,
    input.kind,
    input.subject,
    input.paragraphs.map((p) => (typeof p === 'string' ? { text: p } : p)),
  );
}

/** To the NEW address: the link (and code) that applies the change. */
export function emailChangeConfirmationMail(
  input: AccountMailTo & { current: string; link: string; otp: string; validitySeconds: number },
): OutgoingMail {
  return mail({
    ...input,
    subject: 'Confirmez votre nouvelle adresse e-mail',
    kind: 'auth-email-change',
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
export function signupConfirmationMail(input: AccountMailTo & { link: string; validitySeconds: number }): OutgoingMail {
  return mail({
    ...input,
    subject: 'Confirmez votre adresse e-mail',
    kind: 'auth-signup-confirmation',
    paragraphs: [
      `Pour activer votre compte ${input.siteName}, confirmez votre adresse e-mail en ouvrant ce lien :`,
      { link: input.link, label: 'Confirmer mon adresse e-mail' },
      `Ce lien est valable ${validity(input.validitySeconds)} et ne sert qu’une fois. Passé ce délai, demandez-en un nouveau depuis la page de connexion.`,
      'Si vous n’êtes pas à l’origine de cette inscription, ignorez ce message : aucun compte ne sera activé avec votre adresse.',
    ],
  });
}

/** To the OLD address, when a change is requested: nothing changes unless the new one confirms. */
export function emailChangeRequestedNotice(input: AccountMailTo & { next: string; siteUrl: string }): OutgoingMail {
  return mail({
    ...input,
    subject: 'Demande de changement de votre adresse e-mail',
    kind: 'auth-email-change-notice',
    paragraphs: [
      `Une demande de changement de l’adresse de votre compte ${input.siteName} vers ${input.next} vient d’être faite.`,
      'L’adresse ne changera qu’une fois confirmée depuis la nouvelle boîte de réception.',
      `Si vous n’êtes pas à l’origine de cette demande, changez votre mot de passe sans attendre (${input.siteUrl}/connexion/recovery) et contactez l’agence.`,
    ],
  });
}

/** To the OLD address, once the change is applied (GoTrue's "email changed" notification). */
export function emailChangedNotice(input: AccountMailTo & { next: string }): OutgoingMail {
  return mail({
    ...input,
    subject: 'Votre adresse e-mail a été modifiée',
    kind: 'auth-email-changed',
    paragraphs: [
      `L’adresse de votre compte ${input.siteName} est désormais ${input.next}. Vous recevrez vos prochains messages à cette adresse.`,
      'Si vous n’êtes pas à l’origine de ce changement, contactez l’agence sans attendre.',
    ],
  });
}

/** The code of `GET /reauthenticate`, the nonce that proves a password or address change. */
export function reauthenticationMail(input: AccountMailTo & { otp: string; validitySeconds: number }): OutgoingMail {
  return mail({
    ...input,
    subject: 'Votre code de confirmation',
    kind: 'auth-reauthentication',
    paragraphs: [
      `Pour confirmer la modification de votre compte ${input.siteName}, saisissez ce code : ${input.otp}`,
      `Il est valable ${validity(input.validitySeconds)} et ne sert qu’une fois. Si vous n’êtes pas à l’origine de cette demande, ignorez ce message et changez votre mot de passe.`,
    ],
  });
}
