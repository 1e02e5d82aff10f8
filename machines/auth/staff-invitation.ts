import * as v from 'valibot';
import { PASSWORD_MAX_LENGTH } from '#machines/auth/credentials.ts';
import { hasGoTrueEmailFormat } from '#machines/auth/email-address.ts';
import { STAFF_ROLES } from '#machines/staff/roles.ts';

/**
 * Rules of a colleague's invitation to the dashboard (decision 126), shared by the SPA forms and
 * the BFF: the invitation (address and display name) and its acceptance (password chosen twice).
 */

/** How long an invitation's link stays valid; « Renvoyer » starts a new period. */
export const STAFF_INVITATION_VALIDITY_DAYS = 7;
/** A staff password is longer than a member's (as `npm run staff:create` asks). */
export const STAFF_PASSWORD_MIN_LENGTH = 12;

export const STAFF_EMAIL_MESSAGE = 'Saisissez une adresse e-mail valide (par exemple prenom@agence.fr).';

export const StaffInvitationSchema = v.object(
  {
    email: v.pipe(
      v.string(STAFF_EMAIL_MESSAGE),
      v.trim(),
      v.nonEmpty('Saisissez l’adresse e-mail du collègue.'),
      v.maxLength(254, STAFF_EMAIL_MESSAGE),
      v.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, STAFF_EMAIL_MESSAGE),
      v.check(hasGoTrueEmailFormat, STAFF_EMAIL_MESSAGE),
      v.toLowerCase(),
    ),
    name: v.pipe(
      v.string('Saisissez le nom du collègue.'),
      v.trim(),
      v.minLength(2, 'Saisissez le nom du collègue (2 caractères au moins).'),
      v.maxLength(80, 'Le nom ne doit pas dépasser 80 caractères.'),
      v.regex(/^[^\p{Cc}]*$/u, 'Le nom ne doit contenir que des lettres, espaces et signes usuels.'),
    ),
    /** The colleague's role (decision 206); a counsellor unless said otherwise. */
    role: v.optional(v.picklist(STAFF_ROLES, 'Choisissez le rôle du collègue : administration ou conseiller·ère.'), 'conseil'),
  },
  'Saisissez l’adresse e-mail et le nom du collègue.',
);
export type StaffInvitationInput = v.InferOutput<typeof StaffInvitationSchema>;

/** The link's secret: 43 base64url characters (32 random bytes). */
export const InvitationTokenSchema = v.pipe(
  v.string('Ce lien d’invitation est incomplet.'),
  v.regex(/^[A-Za-z0-9_-]{43}$/, 'Ce lien d’invitation est incomplet : ouvrez-le tel qu’il figure dans le message.'),
);

export const AcceptInvitationSchema = v.pipe(
  v.object(
    {
      token: InvitationTokenSchema,
      password: v.pipe(
        v.string('Choisissez un mot de passe.'),
        v.minLength(STAFF_PASSWORD_MIN_LENGTH, `Le mot de passe doit contenir au moins ${STAFF_PASSWORD_MIN_LENGTH} caractères.`),
        v.maxLength(PASSWORD_MAX_LENGTH, `Le mot de passe doit contenir au plus ${PASSWORD_MAX_LENGTH} caractères.`),
      ),
      passwordRepeat: v.string('Saisissez le mot de passe une seconde fois.'),
    },
    'Choisissez votre mot de passe et saisissez-le une seconde fois.',
  ),
  v.forward(
    v.check((input) => input.password === input.passwordRepeat, 'Les deux mots de passe ne sont pas identiques.'),
    ['passwordRepeat'],
  ),
);
export type AcceptInvitationInput = v.InferOutput<typeof AcceptInvitationSchema>;

/** The body of the page's check of its link. */
export const InvitationTokenBodySchema = v.object({ token: InvitationTokenSchema }, 'Ce lien d’invitation est incomplet.');
