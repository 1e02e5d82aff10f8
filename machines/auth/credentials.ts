import * as v from 'valibot';
import { hasGoTrueEmailFormat } from '#machines/auth/email-address.ts';

/**
 * Credential rules of the spec (§5), shared by the SPA forms and the BFF. The `reason` of each
 * failure is one of the spec's codes; `message` is what a member reads.
 */
/**
 * Issue 60 (decision 180): 12 characters at least, the CNIL's recommendation for a password
 * alone; the server also refuses common ones and ones built on the person's name or address.
 */
export const PASSWORD_MIN_LENGTH = 12;
/** Supabase Auth refuses longer passwords (bcrypt/argon input limit of the contract). */
export const PASSWORD_MAX_LENGTH = 72;

export type CredentialFailure = 'INVALID_EMAIL' | 'PASSWORD_TOO_SHORT' | 'PASSWORD_REPEAT_FAILED';

export const CREDENTIALS_MESSAGE = 'Email ou mot de passe invalide';

/**
 * What a person reads once the day's six-digit codes of a kind are spent (decision 188): the
 * embedded auth service's refusal and the BFF's say the same.
 */
export const CODE_DAILY_LIMIT_MESSAGE =
  'Vous avez atteint le nombre maximal de codes pour aujourd’hui. Contactez l’agence, elle vous aidera à accéder à votre compte.';

/** Sign-in with an account whose address is not confirmed yet (GoTrue's `email_not_confirmed`, decision 187). */
export const EMAIL_NOT_CONFIRMED_MESSAGE =
  'Votre adresse e-mail n’est pas encore confirmée. Ouvrez le lien de l’e-mail reçu à l’inscription, ou demandez-en un nouveau.';
export const EMAIL_MESSAGE = 'Email invalide';

/** `{email}` shape: something@something.tld, and no white space anywhere. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The spec's shape, within what Supabase Auth accepts (machines/auth/email-address.ts). */
export const EmailSchema = v.pipe(
  v.string(EMAIL_MESSAGE),
  v.trim(),
  v.maxLength(254, EMAIL_MESSAGE),
  v.regex(EMAIL_SHAPE, EMAIL_MESSAGE),
  v.check(hasGoTrueEmailFormat, EMAIL_MESSAGE),
  v.toLowerCase(),
);

export const PasswordSchema = v.pipe(
  v.string(CREDENTIALS_MESSAGE),
  v.minLength(PASSWORD_MIN_LENGTH, `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères`),
  v.maxLength(PASSWORD_MAX_LENGTH, `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères`),
);

export const CredentialsSchema = v.pipe(
  v.object({
    email: EmailSchema,
    password: PasswordSchema,
    passwordRepeat: v.optional(v.string()),
  }),
  v.forward(
    v.check((c) => c.passwordRepeat === undefined || c.passwordRepeat === c.password, 'Les mots de passe ne correspondent pas'),
    ['passwordRepeat'],
  ),
);
export type Credentials = v.InferOutput<typeof CredentialsSchema>;

/** The floor of the older rule: a sign-in still takes the passwords chosen under it. */
export const SIGNIN_PASSWORD_MIN_LENGTH = 6;

/** A sign-in's fields: any password of the older rule (only a new password needs 12 characters). */
export const SignInSchema = v.object({
  email: EmailSchema,
  password: v.pipe(
    v.string(CREDENTIALS_MESSAGE),
    v.minLength(SIGNIN_PASSWORD_MIN_LENGTH, CREDENTIALS_MESSAGE),
    v.maxLength(PASSWORD_MAX_LENGTH, `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères`),
  ),
});

/** A new password and its repeat (the reset link's page, decision 127: the token names the account). */
export const NewPasswordSchema = v.pipe(
  v.object({ password: PasswordSchema, passwordRepeat: v.string() }),
  v.forward(
    v.check((c) => c.passwordRepeat === c.password, 'Les mots de passe ne correspondent pas'),
    ['passwordRepeat'],
  ),
);

/** The spec's failure reason for a credentials input, or null when valid. */
export function credentialFailure(
  input: {
    email: string;
    password: string;
    passwordRepeat?: string | undefined;
  },
  /** A sign-in takes the passwords chosen under the older rule (6 characters): only new ones need 12. */
  minLength = PASSWORD_MIN_LENGTH,
): CredentialFailure | null {
  if (!v.is(EmailSchema, input.email)) return 'INVALID_EMAIL';
  if (input.password.length < minLength) return 'PASSWORD_TOO_SHORT';
  if (input.passwordRepeat !== undefined && input.passwordRepeat !== input.password) return 'PASSWORD_REPEAT_FAILED';
  return null;
}

export const GenderSchema = v.picklist(['homme', 'femme'], 'Choisissez « homme » ou « femme »');
export type Gender = v.InferOutput<typeof GenderSchema>;
