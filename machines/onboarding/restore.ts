import { type Actor, type ActorOptions, createActor, type SnapshotFrom, transition } from 'xstate';
import { type OnboardingMachine, onboardingMachine } from '#machines/onboarding/onboarding.machine.ts';
import { termOver, withdrawalWaitOver } from '#machines/onboarding/periods.ts';
import { subscriptionPaymentOpen } from '#machines/onboarding/legal-deadlines.ts';
import { type OnboardingRecord, recordOf } from '#machines/onboarding/record.ts';
import type { OnboardingStateValue } from '#machines/onboarding/steps.ts';
import { toMachineEvent } from '#machines/onboarding/record-changes.ts';
import type { UpdatePayload } from '#machines/onboarding/update-contexts.ts';

/**
 * Restoring the chart from a member's record: the member resumes exactly where they
 * stopped, on any device. The state is the first requirement the record does not
 * meet yet, in the order of the steps; `now` settles the timed sub-states.
 */
export function stateFromRecord(record: OnboardingRecord, now: number): OnboardingStateValue {
  if (record.disabled) return 'desactive';
  // The contract ended by a right of the member (decision 118).
  if (record.contractRenouncedAt) return 'renonce';
  if (record.contractWithdrawnAt) return 'retracte';
  // Termination for a legitimate reason (R224-2, decision 119): accepted, or waiting for staff.
  if (record.terminatedAt) return 'resilie';
  if (record.terminationRequestedAt) return 'resiliation-demandee';
  if (!record.profileCompleted) return 'profil';
  if (!record.questionnaireCompleted || !record.formPersonnalInfoCompleted) return 'questionnaire-profil';
  if (record.selectedPlanId === null) return 'formules';
  if (!record.preContractInfoAcknowledged) return 'informations-et-tarifs';
  if (!record.onboardingMeetingReserved) {
    return { 'prendre-un-rendez-vous': record.onboardingMeetingDateSelected ? 'confirmation' : 'choix-creneau' };
  }
  if (!record.onboardingMeetingDone) return 'attente-entretien-personnalise';
  if (!record.subscriptionContractFormCompleted) return { 'attente-contrat': 'formulaire-contrat' };
  if (record.subscriptionDate === null) return { 'attente-contrat': 'signature' };
  // No money of any kind before the end of the renunciation period (L224-91, civil days: decision 165).
  if (!subscriptionPaymentOpen(record.subscriptionDate, now)) return { 'attente-contrat': 'delai-renonciation' };
  // A fixed term, no tacit renewal (L224-90): over, paid or not, met or not.
  if (termOver(record, now)) return 'contrat-termine';
  if (!record.applicationFeesPaid || !record.subscriptionFeesPaid) return 'frais-de-dossier';
  if (!record.matchmakingMeetingDone) {
    return { attente: withdrawalWaitOver(record, now) ? 'entretien-matchmaking' : 'delai-retractation' };
  }
  return 'membre-actif';
}

export type OnboardingSnapshot = SnapshotFrom<OnboardingMachine>;

/** A snapshot of the chart settled in the record's state, with the record and `now` as context. */
export function restoreSnapshot(record: OnboardingRecord, now: number): OnboardingSnapshot {
  return onboardingMachine.resolveState({ value: stateFromRecord(record, now), context: { ...record, now } });
}

/** An actor (not started) that resumes from the record. Call `.start()` to run it. */
export function restoreActor(
  record: OnboardingRecord,
  now: number,
  options: Pick<ActorOptions<OnboardingMachine>, 'id' | 'systemId' | 'inspect' | 'logger'> = {},
): Actor<OnboardingMachine> {
  // `input` is required by the types; the snapshot wins over it.
  return createActor(onboardingMachine, { ...options, input: { record, now }, snapshot: restoreSnapshot(record, now) });
}

/** The snapshot's state value, typed. */
export function stateValueOf(snapshot: OnboardingSnapshot): OnboardingStateValue {
  return snapshot.value as OnboardingStateValue;
}

export type UpdateDecision =
  | { allowed: true; record: OnboardingRecord; state: OnboardingStateValue; snapshot: OnboardingSnapshot }
  | { allowed: false; state: OnboardingStateValue };

/**
 * What the BFF asks the chart for one validated update: restored from the stored
 * record at `now`, is the event allowed, and if so the new record and state. The
 * caller's role (staffOnly) and payments (app, sub) are checked by the BFF before.
 */
export function decideUpdate(record: OnboardingRecord, update: UpdatePayload, now: number): UpdateDecision {
  const snapshot = restoreSnapshot(record, now);
  const event = toMachineEvent(update, now);
  if (!snapshot.can(event)) return { allowed: false, state: stateValueOf(snapshot) };
  const [next] = transition(onboardingMachine, snapshot, event);
  return { allowed: true, record: recordOf(next.context), state: stateValueOf(next), snapshot: next };
}
