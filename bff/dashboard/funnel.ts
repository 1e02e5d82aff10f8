import type { Caller } from '#bff/auth/caller.ts';
import { counselledOnly } from '#bff/auth/staff-policy.ts';
import { type MemberScope, membersPerStage, onboardingMeetingsPast } from '#bff/dashboard/store/member-counts.ts';
import type { Db } from '#bff/db/database.ts';
import { refreshStaleStages } from '#bff/members/stage.ts';
import { stateLabels } from '#machines/onboarding/labels.ts';
import { stateOfKey } from '#machines/onboarding/stored-stage.ts';
import { type stepIds, steps, TOP_STATES, type TopState, topStateOf } from '#machines/onboarding/steps.ts';

/**
 * The staff dashboard's funnel (`GET /dashboard/funnel`): members per state and per step at `now`,
 * and those waiting on staff (decision 221: the queries left the route).
 */

const topLabels: Record<TopState, string> = {
  ...(Object.fromEntries(steps.map((s) => [s.id, s.title])) as Record<(typeof stepIds)[number], string>),
  'membre-actif': 'Membre actif',
  renonce: stateLabels.renonce,
  retracte: stateLabels.retracte,
  'contrat-termine': stateLabels['contrat-termine'],
  'resiliation-demandee': stateLabels['resiliation-demandee'],
  resilie: stateLabels.resilie,
  desactive: 'Compte désactivé',
};

/** The funnel a member of staff sees: a counsellor's counts their members (decision 206). */
export async function dashboardFunnel(db: Db, staff: Caller, now: Date) {
  await refreshStaleStages(db);
  // One grouped query over the stored stage (decision 204), from an index alone: members per state
  // at `now`; and of those at step 6, whose meeting time has passed.
  // A counsellor's funnel counts their members (decision 206).
  const scope: MemberScope = (memberId) => counselledOnly(staff, memberId);
  const [grouped, [past]] = await Promise.all([
    membersPerStage(db, now, scope),
    // Step 6's members whose meeting time has passed: only they are read whole (members_stage).
    onboardingMeetingsPast(db, now, scope),
  ]);
  const byState = new Map<string, number>();
  const byTop = new Map<TopState, number>();
  let total = 0;
  for (const row of grouped) {
    // A record the server could not read keeps no stage: counted in the total, as before it failed the whole answer.
    total += row.count;
    if (row.state === null) continue;
    byState.set(row.state, row.count);
    const top = topStateOf(stateOfKey(row.state));
    byTop.set(top, (byTop.get(top) ?? 0) + row.count);
  }
  const onboardingMeetingPast = past?.n ?? 0;
  const onboardingMeeting = byTop.get('attente-entretien-personnalise') ?? 0;
  const matchmakingMeeting = byState.get('attente.entretien-matchmaking') ?? 0;
  return {
    total,
    steps: TOP_STATES.map((id) => ({
      id,
      number: steps.find((s) => s.id === id)?.number ?? null,
      title: topLabels[id],
      count: byTop.get(id) ?? 0,
    })),
    states: [...byState].map(([state, count]) => ({ state, count })).sort((a, b) => a.state.localeCompare(b.state)),
    waitingOnStaff: {
      /** At step 7: the onboarding meeting is to be marked done (or missed). */
      onboardingMeeting,
      /** Of those, the meeting time has passed. */
      onboardingMeetingPast,
      /** Withdrawal period over (or renounced): the matchmaking meeting is due. */
      matchmakingMeeting,
      total: onboardingMeeting + matchmakingMeeting,
    },
  };
}
