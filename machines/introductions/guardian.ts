import * as v from 'valibot';
import {
  type ContactVia,
  contactViaLabels,
  GUARDIAN_NAME_MAX,
  type GuardianReceives,
  type GuardianRelation,
  guardianReceivesLabels,
  guardianRelationLabels,
} from '#machines/introductions/guardian-labels.ts';
import { phoneSchema } from '#machines/onboarding/forms.ts';

/**
 * The member's guardian (wali) or close relative, optional (issue 22, decision 117): who they
 * are, how to reach them, and what they receive from the agency. Shared by the BFF (`PUT
 * /user/guardian`) and the SPA's form; every code has its French words here.
 */

export {
  type ContactVia,
  contactViaLabels,
  GUARDIAN_NAME_MAX,
  type GuardianReceives,
  type GuardianRelation,
  guardianReceivesLabels,
  guardianRelationLabels,
} from '#machines/introductions/guardian-labels.ts';

export const EMAIL_NEEDED_FOR_COPIES = 'Une adresse e-mail est nécessaire pour que votre proche reçoive une copie des propositions.';
export const CONTACT_NEEDED = 'Indiquez au moins une adresse e-mail ou un numéro de téléphone de votre proche.';
export const PHONE_NEEDED_FOR_WALI = 'Le numéro de téléphone de votre walī est nécessaire pour que l’on vous contacte uniquement par lui.';
export const INFORMED_NEEDED = 'Confirmez que votre proche est informé et d’accord pour être contacté.';

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** The body of `PUT /api/v1/user/guardian` (an empty e-mail or phone is no e-mail or phone). */
export const GuardianBody = v.pipe(
  v.strictObject(
    {
      name: v.pipe(
        v.string('Nom requis'),
        v.trim(),
        v.minLength(1, 'Nom requis'),
        v.maxLength(GUARDIAN_NAME_MAX, `${GUARDIAN_NAME_MAX} caractères au plus`),
        v.regex(/^\p{L}[\p{L}\p{M}'’ .-]*$/u, 'Nom invalide (lettres, espaces, apostrophes et tirets)'),
      ),
      relation: v.picklist(Object.keys(guardianRelationLabels) as GuardianRelation[], 'Lien inconnu : choisissez dans la liste'),
      email: v.pipe(
        v.unknown(),
        v.transform(emptyToUndefined),
        v.optional(
          v.pipe(
            v.string('Adresse e-mail invalide'),
            v.trim(),
            v.toLowerCase(),
            v.maxLength(254, 'Adresse e-mail trop longue'),
            v.email('Adresse e-mail invalide'),
          ),
        ),
      ),
      phone: v.pipe(v.unknown(), v.transform(emptyToUndefined), v.optional(phoneSchema)),
      receives: v.picklist(Object.keys(guardianReceivesLabels) as GuardianReceives[], 'Choix inconnu : choisissez dans la liste'),
      informed: v.literal(true, INFORMED_NEEDED),
      contactVia: v.optional(v.picklist(Object.keys(contactViaLabels) as ContactVia[], 'Choix inconnu : choisissez dans la liste'), 'moi'),
    },
    'Requête invalide',
  ),
  v.forward(
    v.check((g) => g.email !== undefined || g.phone !== undefined, CONTACT_NEEDED),
    ['email'],
  ),
  v.forward(
    v.check((g) => g.receives !== 'copie-propositions' || g.email !== undefined, EMAIL_NEEDED_FOR_COPIES),
    ['email'],
  ),
  v.forward(
    v.check((g) => g.contactVia !== 'wali' || g.phone !== undefined, PHONE_NEEDED_FOR_WALI),
    ['phone'],
  ),
);
export type GuardianInput = v.InferOutput<typeof GuardianBody>;

/** A guardian as stored and shown (codes with their French words beside). */
export interface Guardian {
  name: string;
  relation: GuardianRelation;
  relationLabel: string;
  email: string | null;
  phone: string | null;
  receives: GuardianReceives;
  receivesLabel: string;
  /** How the other member of an introduction reaches the member, by default (decision 196). */
  contactVia: ContactVia;
  contactViaLabel: string;
  updatedAt: string;
}

/** What the other side of a mutually accepted introduction sees of a guardian (no codes). */
export interface GuardianContact {
  name: string;
  relation: string;
  email: string | null;
  phone: string | null;
}

/**
 * The choice that holds for one introduction (decision 196): the introduction's own, else the
 * settings' (with the walī), else the member's own contact. « Par mon walī » never falls back to the
 * member's own contact, even if the walī was removed since: then nothing is released.
 */
export function contactViaFor(introductionChoice: string | null, guardian: Pick<Guardian, 'contactVia'> | null): ContactVia {
  if (introductionChoice === 'wali' || introductionChoice === 'moi') return introductionChoice;
  return guardian?.contactVia ?? 'moi';
}

/** What the other member sees of a walī when the member chose « uniquement par mon walī »: name and phone only. */
export function waliOnlyContactOf(g: Pick<Guardian, 'name' | 'relation' | 'phone'> | null): GuardianContact | null {
  if (!g?.phone) return null;
  return { name: g.name, relation: guardianRelationLabels[g.relation], email: null, phone: g.phone };
}

export function guardianContactOf(g: Pick<Guardian, 'name' | 'relation' | 'email' | 'phone' | 'receives'> | null): GuardianContact | null {
  if (g?.receives !== 'coordonnees') return null;
  return { name: g.name, relation: guardianRelationLabels[g.relation], email: g.email, phone: g.phone };
}
