import { ageOn } from '#machines/onboarding/age.ts';
import { formatPhone } from '#machines/onboarding/phone-format.ts';
import { formatAmount, formatDateTime } from '#src/features/dashboard/format-fr.ts';
import {
  beardLabels,
  bookingStatusLabels,
  contractFields,
  educationLevelLabels,
  heightText,
  hijabLabels,
  languageLabels,
  madhhabLabels,
  maritalStatusLabels,
  offerLabels,
  paymentStatusLabels,
  planLabels,
  prayerPracticeLabels,
  professionalSituationLabels,
  profileFields,
  questionnaireFields,
  regionLabels,
  requirableCriterionLabels,
  soughtPracticeLabels,
  stateLabel,
  wantsChildrenLabels,
  yesNo,
} from '#machines/onboarding/labels.ts';
import { actorPhrase, eventSentence } from '#machines/onboarding/event-labels.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

/**
 * What the dashboard's member page shows, as French text: every stored code goes through the one
 * label table (machines/onboarding/labels.ts), dates and amounts are formatted for fr-FR in the
 * agency's time zone, and the answers come in a fixed order. Pure functions, tested without a
 * browser (member-view.test.tsx).
 */

export { formatAmount, formatDateTime };

const EMPTY = '—';
const longDayFormat = frenchDateFormat({ timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });

/** '1992-04-17' → '17 avril 1992 (34 ans)'. */
export function formatBirthDate(value: string, now: number): string {
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime())) return value;
  const age = ageOn(value, now);
  return age === null ? longDayFormat.format(date) : `${longDayFormat.format(date)} (${age} ans)`;
}
/** '+33612345678' → '06 12 34 56 78'; a foreign number in its international form (one formatter: machines/onboarding/phone-format.ts). */

function label(table: Readonly<Record<string, string>>, code: unknown): string {
  return typeof code === 'string' && Object.hasOwn(table, code) ? (table[code] ?? 'Valeur inconnue') : 'Valeur inconnue';
}

function list(table: Readonly<Record<string, string>>, codes: unknown): string {
  return Array.isArray(codes) && codes.length > 0 ? codes.map((code) => label(table, code)).join(', ') : EMPTY;
}

function plain(value: unknown): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  if (typeof value === 'boolean') return yesNo(value);
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return EMPTY;
}

const years = (value: unknown) => (typeof value === 'number' ? `${value} ans` : plain(value));

/** How each stored field is read; fields not listed here are plain text, numbers or Oui/Non. */
function formatterOf(now: number): Record<string, (value: unknown) => string> {
  return {
    birthDate: (value) => (typeof value === 'string' ? formatBirthDate(value, now) : plain(value)),
    phone: (value) => (typeof value === 'string' ? formatPhone(value) : plain(value)),
    maritalStatus: (value) => label(maritalStatusLabels, value),
    prayerPractice: (value) => label(prayerPracticeLabels, value),
    soughtPractice: (value) => label(soughtPracticeLabels, value),
    soughtRegions: (value) => list(regionLabels, value),
    soughtFamilySituations: (value) => list(maritalStatusLabels, value),
    soughtProfessionalSituation: (value) => label(professionalSituationLabels, value),
    wantsChildren: (value) => label(wantsChildrenLabels, value),
    // Decision 208: the richer profile, in words.
    languages: (value) => list(languageLabels, value),
    educationLevel: (value) => label(educationLevelLabels, value),
    heightCm: (value) => (typeof value === 'number' ? heightText(value) : plain(value)),
    hijab: (value) => label(hijabLabels, value),
    beard: (value) => label(beardLabels, value),
    madhhab: (value) => label(madhhabLabels, value),
    // Decision 193: none ticked is an answer (every criterion only wished).
    requiredCriteria: (value) =>
      Array.isArray(value) && value.length === 0 ? 'Aucun : tous les critères sont des souhaits' : list(requirableCriterionLabels, value),
    soughtAgeMin: years,
    soughtAgeMax: years,
    // Decision 212: the wished height.
    soughtHeightMin: (value) => (typeof value === 'number' ? heightText(value) : plain(value)),
    soughtHeightMax: (value) => (typeof value === 'number' ? heightText(value) : plain(value)),
  };
}

export interface FieldRow {
  label: string;
  value: string;
}

/** The stored answers in the table's order; fields the table does not know are not shown. */
function rowsOf(data: Record<string, unknown> | null, fields: readonly { key: string; label: string }[], now: number): FieldRow[] | null {
  if (!data) return null;
  const formatters = formatterOf(now);
  return fields
    .filter((field) => Object.hasOwn(data, field.key))
    .map((field) => ({ label: field.label, value: (formatters[field.key] ?? plain)(data[field.key]) }));
}

export const profileRows = (profile: Record<string, unknown> | null, now: number) => rowsOf(profile, profileFields, now);
export const questionnaireRows = (questionnaire: Record<string, unknown> | null, now: number) =>
  rowsOf(questionnaire, questionnaireFields, now);
export const contractRows = (contract: Record<string, unknown> | null, now: number) => rowsOf(contract, contractFields, now);

export function planName(planId: string | null): string {
  return planId === null ? 'Aucune formule choisie' : label(planLabels, planId);
}

export function offerName(offerId: string | null): string {
  return offerId === null ? EMPTY : label(offerLabels, offerId);
}

export function paymentStatusText(paymentStatus: string | null): string {
  return paymentStatus === null ? 'En attente' : label(paymentStatusLabels, paymentStatus);
}

export function bookingText(booking: { startTime: string; status: string; rescheduled: boolean }): string {
  const status = label(bookingStatusLabels, booking.status);
  return `${formatDateTime(booking.startTime)} — ${status.toLocaleLowerCase('fr-FR')}${booking.rescheduled ? ' (reporté)' : ''}`;
}

export interface LoggedEventView {
  id: number;
  at: string;
  context: string;
  event: string;
  fromState: string;
  toState: string;
  actorRole: string;
  actorName?: string | null;
  outcome?: boolean | null;
  planId?: string | null;
  counsellorName?: string | null;
}

export interface TimelineItem {
  id: number;
  at: string;
  /** 'Entretien personnalisé validé par Nadia, 24 nov. 2026 à 11 h 30'. */
  sentence: string;
  /** 'De « Prise de rendez-vous — Confirmation du rendez-vous » à « Entretien personnalisé »', or null when the step stays. */
  stateChange: string | null;
}

/** The event log as sentences, newest first. */
export function timeline(events: readonly LoggedEventView[]): TimelineItem[] {
  return [...events].reverse().map((e) => {
    const what = eventSentence({
      context: e.context,
      event: e.event,
      outcome: e.outcome ?? null,
      planId: e.planId ?? null,
      counsellorName: e.counsellorName ?? null,
    });
    return {
      id: e.id,
      at: e.at,
      sentence: `${what} ${actorPhrase(e.actorRole, e.actorName ?? null)}, ${formatDateTime(e.at)}`,
      stateChange: e.fromState === e.toState ? null : `De « ${stateLabel(e.fromState)} » à « ${stateLabel(e.toState)} »`,
    };
  });
}
