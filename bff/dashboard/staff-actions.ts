import { instantMs } from '#machines/onboarding/instant.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import { restoreSnapshot } from '#machines/onboarding/restore.ts';
import { type ContextName, parseUpdate, toMachineEvent } from '#machines/onboarding/update-contexts.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

/**
 * The staff actions of the member page, and which of them the chart allows right now. Nothing
 * here decides by itself: the chart is restored from the record and asked `snapshot.can(event)`,
 * exactly as `decideUpdate` does when the action is then sent (`POST /api/v1/user/update`, or
 * `POST /api/v1/auth/ban` for the ban).
 */

type StaffActionId = 'onb_meet_done' | 'onb_meet_missed' | 'onb_meet_cancel' | 'meeting_mm' | 'lmnop' | 'disable' | 'enable';

export interface StaffAction {
  id: StaffActionId;
  label: string;
  /** What the confirmation dialog says will happen. */
  confirm: string;
  /** Where the SPA sends it, and the exact body. */
  endpoint: '/user/update' | '/auth/ban';
  body: Record<string, unknown>;
  danger: boolean;
  allowed: boolean;
  /** Why a refused action is refused, when staff may expect it (French, shown on the member page). */
  reason: string | null;
}

interface Candidate {
  id: StaffActionId;
  label: string;
  confirm: string;
  danger: boolean;
  body: (uid: string) => Record<string, unknown> & ({ context: ContextName } | { disable: boolean });
}

const candidates: readonly Candidate[] = [
  {
    id: 'onb_meet_done',
    label: 'Entretien personnalisé effectué',
    confirm: 'L’entretien est noté comme tenu : le membre passe à l’étape du contrat et peut le remplir puis le signer.',
    danger: false,
    body: (uid) => ({ context: 'onb_meet_ok', status: true, uid }),
  },
  {
    id: 'onb_meet_missed',
    label: 'Entretien manqué',
    confirm: 'L’entretien est noté comme manqué : le créneau est libéré, le membre reçoit un e-mail et devra reprendre un rendez-vous.',
    danger: true,
    body: (uid) => ({ context: 'onb_meet_ok', status: false, uid }),
  },
  {
    id: 'onb_meet_cancel',
    label: 'Annuler le rendez-vous',
    confirm:
      'Le rendez-vous est annulé et sa date effacée : le membre revient à la prise de rendez-vous et devra choisir un autre créneau.',
    danger: true,
    body: (uid) => ({ context: 'onb_meet_cancel', uid }),
  },
  {
    id: 'meeting_mm',
    label: 'Entretien de rapprochement effectué',
    confirm: 'L’entretien de rapprochement est noté comme tenu : le membre devient membre actif.',
    danger: false,
    body: (uid) => ({ context: 'meeting_mm', uid }),
  },
  {
    id: 'lmnop',
    label: 'Réinitialiser l’inscription',
    confirm:
      'Toute la progression du membre est effacée (formule, rendez-vous, contrat) : il reprendra son inscription au début, à son profil.',
    danger: true,
    body: (uid) => ({ context: 'lmnop', uid }),
  },
  {
    id: 'disable',
    label: 'Désactiver le compte',
    confirm: 'Le membre perd l’accès à son espace immédiatement, sessions ouvertes comprises, jusqu’à ce que le compte soit réactivé.',
    danger: true,
    body: (uid) => ({ disable: true, uid }),
  },
  {
    id: 'enable',
    label: 'Réactiver le compte',
    confirm: 'Le membre retrouve l’accès, à l’étape où il s’était arrêté.',
    danger: false,
    body: (uid) => ({ disable: false, uid }),
  },
];

const parisDateTime = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'full', timeStyle: 'short' });

/** The onboarding meeting cannot be marked held, nor missed, before it starts (the chart's `meetingStarted` guard). */
function meetingNotStartedReason(record: OnboardingRecord, now: number, state: unknown, missed: boolean): string | null {
  if (state !== 'attente-entretien-personnalise' || record.onboardingMeetingDate === null) return null;
  const start = instantMs(record.onboardingMeetingDate);
  if (!Number.isFinite(start) || start <= now) return null;
  return `L’entretien est prévu le ${parisDateTime.format(start)} (heure de Paris) : il ne pourra être noté comme ${missed ? 'manqué' : 'effectué'} qu’à partir de son heure de début.`;
}

/** Every staff action with `allowed` as the chart answers it now. */
export function staffActions(record: OnboardingRecord, now: number): StaffAction[] {
  const snapshot = restoreSnapshot(record, now);
  return candidates.map((candidate) => {
    const body = candidate.body(record.id);
    let allowed: boolean;
    if ('disable' in body) {
      // Lifting a ban is not a transition of the chart (decision 010): it is allowed on a banned record.
      allowed = body.disable ? snapshot.can({ type: 'DISABLE', now }) : record.disabled;
    } else {
      const parsed = parseUpdate(body, now);
      allowed = parsed.success && snapshot.can(toMachineEvent(parsed.update, now));
    }
    return {
      id: candidate.id,
      label: candidate.label,
      confirm: candidate.confirm,
      endpoint: 'disable' in body ? ('/auth/ban' as const) : ('/user/update' as const),
      body,
      danger: candidate.danger,
      allowed,
      reason:
        !allowed && (candidate.id === 'onb_meet_done' || candidate.id === 'onb_meet_missed')
          ? meetingNotStartedReason(record, now, snapshot.value, candidate.id === 'onb_meet_missed')
          : null,
    };
  });
}
