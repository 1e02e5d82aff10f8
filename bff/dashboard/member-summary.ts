import { staffName } from '#bff/members/staff-names.ts';
import { counsellorAccountOf, tagsOf } from '#bff/dashboard/store/follow-up.ts';
import { introductionsOfMember } from '#bff/dashboard/store/introductions.ts';
import type { Db } from '#bff/db/database.ts';
import { guardianOf } from '#bff/introductions/guardian.ts';
import { firstNames } from '#bff/introductions/staff-introduction-views.ts';
import { type MemberRow, recordOf } from '#bff/members/members.ts';
import { stateLabel as introductionStateLabel } from '#machines/introductions/labels.ts';
import { isOpen } from '#machines/introductions/rules.ts';
import { ageOn } from '#machines/onboarding/age.ts';
import { formatPhone } from '#machines/onboarding/phone-format.ts';
import { planLabels, stateLabel } from '#machines/onboarding/labels.ts';
import { termEndsAtMs } from '#machines/onboarding/periods.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey, type TopState, topStateOf } from '#machines/onboarding/steps.ts';

/*
 * The top of a member's file (issue 63 point 2, decision 209): who the member is and where they
 * stand, in words, in one answer: name, age, city, stage, counsellor, tags, contract and walī.
 * The file's tabs load the rest beside it.
 */

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The contract's status in words, from the member's stage and whether a contract was signed. */
export function contractStatusLabel(top: TopState, signed: boolean): string {
  switch (top) {
    case 'membre-actif':
      return 'En cours';
    case 'resiliation-demandee':
      return 'Résiliation demandée, en attente de décision';
    case 'renonce':
      return 'Annulé (renonciation)';
    case 'retracte':
      return 'Résilié (rétractation)';
    case 'resilie':
      return 'Résilié (motif légitime)';
    case 'contrat-termine':
      return 'Terminé';
    case 'attente':
      return 'Signé, délai légal en cours';
    case 'attente-contrat':
      return signed ? 'Signé, délai de 7 jours avant tout paiement' : 'Pas encore signé';
    case 'desactive':
      return signed ? 'Signé (compte désactivé)' : 'Pas de contrat (compte désactivé)';
    default:
      return 'Pas de contrat';
  }
}

/** When the contract ended or ends: the renunciation, the withdrawal, or the term's end. */
function contractEndOf(record: OnboardingRecord): string | null {
  if (record.contractRenouncedAt) return record.contractRenouncedAt;
  if (record.contractWithdrawnAt) return record.contractWithdrawnAt;
  const end = termEndsAtMs(record);
  return end === null ? null : new Date(end).toISOString();
}

export type MemberSummary = Awaited<ReturnType<typeof memberSummary>>;

/** The file's header for `row` (a member), read at `now`: three small reads in parallel. */
export async function memberSummary(db: Db, row: MemberRow, now: number) {
  const record = recordOf(row);
  const value = stateFromRecord(record, now);
  const top = topStateOf(value);
  const profile = (row.profile ?? {}) as Record<string, unknown>;
  const birthDate = text(profile.birthDate);
  const [counsellor, tags, guardian] = await Promise.all([counsellorAccountOf(db, row.id), tagsOf(db, row.id), guardianOf(db, row.id)]);
  const signed = record.subscriptionDate !== null;
  const planId = record.selectedPlanId;
  return {
    id: row.id,
    firstName: text(profile.firstName),
    lastName: text(profile.lastName),
    email: row.email,
    age: birthDate ? ageOn(birthDate, now) : null,
    city: text(profile.city),
    disabled: row.disabled,
    stage: { key: stateKey(value), label: stateLabel(stateKey(value)) },
    counsellor: counsellor ? { id: counsellor.id, name: staffName(counsellor) } : null,
    tags: tags.map((t) => t.tag),
    contract: {
      planLabel: planId === null ? null : (planLabels[planId] ?? null),
      signedAt: record.subscriptionDate,
      endsAt: signed ? contractEndOf(record) : null,
      statusLabel: contractStatusLabel(top, signed),
    },
    guardian: guardian
      ? {
          name: guardian.name,
          relationLabel: guardian.relationLabel,
          phone: guardian.phone ? formatPhone(guardian.phone) : null,
          // The member's choice in staff's words (the member's own page says « Mes propres coordonnées »).
          contactLabel: guardian.contactVia === 'wali' ? 'Uniquement par son walī' : 'Ses propres coordonnées',
        }
      : null,
  };
}

/** Every introduction of a member for staff, newest first: the other person's first name and the state in words. */
export async function memberIntroductions(db: Db, memberId: string) {
  const rows = await introductionsOfMember(db, memberId);
  const self = memberId.toLowerCase();
  const otherOf = (row: (typeof rows)[number]) => (row.memberA.toLowerCase() === self ? row.memberB : row.memberA).toLowerCase();
  const names = await firstNames(db, rows.map(otherOf));
  return rows.reverse().map((row) => ({
    id: row.id,
    other: { id: otherOf(row), firstName: names.get(otherOf(row)) ?? null },
    stateLabel: introductionStateLabel(row.state),
    open: isOpen(row.state),
    /** The answers are awaited until `deadlineAt` (a proposal not yet answered by both). */
    awaitingAnswers: row.state === 'proposee' || row.state.startsWith('proposee.'),
    proposedAt: row.proposedAt.toISOString(),
    deadlineAt: row.deadlineAt.toISOString(),
  }));
}
