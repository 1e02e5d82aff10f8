import * as v from 'valibot';

/**
 * Messages between a member and the agency (issues 21 and 22, decision 121): the input schemas
 * shared by the BFF and the screens, the templates' placeholders and how they are filled.
 */

export const SUBJECT_MAX = 150;
export const BODY_MAX = 5000;
export const TEMPLATE_TITLE_MAX = 80;

/** Who wrote a message, as stored (`direct_messages.direction`); screens say « Vous » / « L’agence ». */
export const messageDirections = ['to_member', 'to_agency'] as const;
export type MessageDirection = (typeof messageDirections)[number];

const subjectSchema = v.optional(
  v.pipe(v.string('Objet invalide'), v.trim(), v.maxLength(SUBJECT_MAX, `Objet trop long (${SUBJECT_MAX} caractères au plus)`)),
  '',
);
const bodySchema = v.pipe(
  v.string('Message requis'),
  v.trim(),
  v.minLength(1, 'Message requis'),
  v.maxLength(BODY_MAX, 'Message trop long (5 000 caractères au plus)'),
);

/** A message written by staff or by a member: an optional subject, a body that is not blank. */
export const MessageInput = v.strictObject({ subject: subjectSchema, body: bodySchema }, 'Champ inconnu');

/** The placeholders a template may hold, and what fills them. */
export const placeholders = ['prenom', 'nom', 'agence'] as const;
export type Placeholder = (typeof placeholders)[number];
export const placeholderLabels: Record<Placeholder, string> = {
  prenom: 'le prénom du membre',
  nom: 'le nom du membre',
  agence: 'le nom de l’agence',
};

const PLACEHOLDER = /\{([^{}\s]{0,40})\}/g;

/** The placeholders of a text that are not in the set (each once, in order). */
export function unknownPlaceholders(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!(placeholders as readonly string[]).includes(name)) unknown.add(`{${name}}`);
  }
  return [...unknown];
}

/** A text's placeholders must all be known (a template, an answer to a lead). */
export const knownPlaceholders = v.check(
  (text: string) => unknownPlaceholders(text).length === 0,
  (issue: v.CheckIssue<string>) =>
    `Champ inconnu : ${unknownPlaceholders(String(issue.input)).join(', ')}. Champs possibles : ${placeholders.map((p) => `{${p}}`).join(', ')}.`,
);

/** Who a template is written for (`message_templates.kind`, migration 0051). */
export const templateKinds = ['membre', 'prospect'] as const;
export const templateKindLabels: Record<(typeof templateKinds)[number], string> = {
  membre: 'Membres',
  prospect: 'Prospects',
};

/** A template as staff write it: a title, an optional subject, a body; only known placeholders. */
export const TemplateInput = v.strictObject(
  {
    title: v.pipe(
      v.string('Titre requis'),
      v.trim(),
      v.minLength(1, 'Titre requis'),
      v.maxLength(TEMPLATE_TITLE_MAX, `Titre trop long (${TEMPLATE_TITLE_MAX} caractères au plus)`),
    ),
    subject: v.pipe(subjectSchema, knownPlaceholders),
    body: v.pipe(bodySchema, knownPlaceholders),
    /** For members (the message form, by default) or for prospects (the answer to a lead). */
    kind: v.optional(v.picklist(templateKinds, 'Type de modèle inconnu')),
  },
  'Champ inconnu',
);

export type PlaceholderValues = Record<Placeholder, string>;

const PLACEHOLDER_WITH_SPACE = /( ?)\{([^{}\s]{0,40})\}/g;

/**
 * The text with each known placeholder replaced. An empty value takes the space before it along
 * (« Bonjour {prenom}, » → « Bonjour, » when the first name is unknown).
 */
export function fillTemplate(text: string, values: PlaceholderValues): string {
  return text.replace(PLACEHOLDER_WITH_SPACE, (whole, space: string, name: string) => {
    if (!(placeholders as readonly string[]).includes(name)) return whole;
    const value = values[name as Placeholder].trim();
    return value ? `${space}${value}` : '';
  });
}
