import { assertCounsels } from '#bff/auth/staff-policy.ts';
import { executePendingRefunds, refundGateway } from '#bff/payments/refunds.ts';
import { cancelStoppedSubscriptions } from '#bff/payments/contract-ledger.ts';
import { subscriptionGateway } from '#bff/payments/subscription-gateway.ts';
import { Hono } from 'hono';
import type { ApiDeps } from '#bff/api/deps.ts';
import { authenticate, type Caller, requireCaller } from '#bff/auth/guards.ts';
import { ApiError } from '#bff/http/errors.ts';
import { readJson } from '#bff/http/validate.ts';
import { settleMemberWrite, watchMemberWrite } from '#bff/auth/member-cache.ts';
import { type MemberRow, recordOf, settingsView } from '#bff/members/members.ts';
import { applyOnboardingUpdate } from '#bff/onboarding/apply-update.ts';
import { firstNameOf } from '#bff/mail/agency-mail-triggers.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import * as v from 'valibot';

/** Settings of the spec plus where the member stands in the onboarding chart. */
export function settingsWithState(row: Readonly<MemberRow>, now: Date) {
  const view = settingsView(row);
  if (row.role === 'staff') return { ...view, state: null, version: row.version, onboarding: null, firstName: null };
  const record = recordOf(row);
  // The record lets the SPA restore the same chart (machines/onboarding) and run it in the browser.
  return {
    ...view,
    state: stateKey(stateFromRecord(record, now.getTime())),
    version: row.version,
    onboarding: record,
    // The first name of the member's answers, to greet them by it (issue 63); null before step 1.
    firstName: firstNameOf(row.profile),
  };
}

/**
 * The JSON of `GET /user/settings`, built once per member row and per state, level and pause: a
 * row from the member cache is frozen and replaced on every change, never changed in place
 * (decision 090). Any other row is serialised afresh.
 */
const settingsAnswers = new WeakMap<object, Map<string, string>>();

export function settingsJson(caller: Caller, now: Date): string {
  const row = caller.member;
  // Set when the member withdrew the sensitive-data consent: matchmaking is paused (decision 070).
  const paused = caller.role === 'staff' ? null : caller.matchmakingPausedAt;
  const build = () =>
    JSON.stringify({ ...settingsWithState(row, now), aal: caller.aal, matchmakingPausedAt: paused?.toISOString() ?? null });
  if (!Object.isFrozen(row)) return build();
  // What `now` changes in the answer: the state (a waiting period ends); the rest is the row's.
  const state = row.role === 'staff' ? '' : stateKey(stateFromRecord(recordOf(row), now.getTime()));
  const key = `${state} ${caller.aal} ${paused?.getTime() ?? ''}`;
  let answers = settingsAnswers.get(row);
  if (!answers) {
    answers = new Map();
    settingsAnswers.set(row, answers);
  }
  let json = answers.get(key);
  if (json === undefined) {
    json = build();
    answers.set(key, json);
  }
  return json;
}

export function userRoutes(deps: ApiDeps) {
  return (
    new Hono()
      // Whether someone is signed in, for the SPA's header and guards: always 200, so a signed-out
      // visitor's page logs no failed request. Member endpoints themselves answer 401.
      .get('/auth/session', async (c) => {
        c.header('Cache-Control', 'private, no-store');
        // A disabled account is signed out (cookies cleared): nobody is signed in.
        const caller = await authenticate(c, deps).catch((error: unknown) => {
          if (error instanceof ApiError && error.status === 401) return null;
          throw error;
        });
        if (!caller) return c.json({ user: null }, 200);
        return c.json({ user: { ...settingsWithState(caller.member, deps.clock.now()), aal: caller.aal } }, 200);
      })
      .get('/user/settings', async (c) => {
        const caller = await requireCaller(c, deps);
        c.header('Cache-Control', 'private, no-store');
        c.header('Content-Type', 'application/json');
        return c.body(settingsJson(caller, deps.clock.now()), 200);
      })
      .post('/user/update', async (c) => {
        const caller = await requireCaller(c, deps);
        // The payload is validated by the chart's table of update contexts (machines/onboarding).
        const input = await readJson(c, v.unknown());
        // The contract is signed only through the one-time code (decision 109): the BFF sends
        // `sub_date` itself once the code is verified, never on the browser's word.
        if (typeof input === 'object' && input !== null && (input as { context?: unknown }).context === 'sub_date') {
          throw new ApiError(
            403,
            'SIGNATURE_CODE_REQUIRED',
            'Le contrat se signe avec le code reçu par e-mail, à l’étape « Signature » de votre espace.',
          );
        }
        // A termination request carries its proof as a file: it has its own form (decision 189).
        const asked = typeof input === 'object' && input !== null ? (input as { context?: unknown }).context : undefined;
        if (asked === 'terminate' || asked === 'terminate_letter') {
          throw new ApiError(
            403,
            'TERMINATION_FORM_REQUIRED',
            asked === 'terminate'
              ? 'La résiliation se demande avec son formulaire, depuis «\u00a0Mes droits\u00a0» de votre espace membre.'
              : 'Une demande reçue par courrier s’enregistre depuis la fiche du membre («\u00a0Enregistrer une demande de résiliation reçue par courrier\u00a0»).',
          );
        }
        if (caller.role === 'staff' && caller.aal !== 'aal2') {
          throw new ApiError(403, 'MFA_REQUIRED', 'Validez d’abord votre second facteur (code à usage unique).');
        }
        // A counsellor acts only for the members assigned to them (decision 206).
        if (caller.role === 'staff') {
          const uid = (input as { uid?: unknown } | null)?.uid;
          await assertCounsels(deps.database.db, caller, [typeof uid === 'string' ? uid.toLowerCase() : '']);
        }
        const now = deps.clock.now();
        // A member's own event: the member cache keeps the row the event's UPDATE returned
        // instead of reading it again on the next request (decision 129).
        const write = caller.role === 'staff' ? undefined : watchMemberWrite(deps.database, caller.id);
        let applied: Awaited<ReturnType<typeof applyOnboardingUpdate>>;
        try {
          applied = await applyOnboardingUpdate(deps.database.db, input, {
            actor: { id: caller.id, role: caller.role === 'staff' ? 'staff' : 'member' },
            callerMemberId: caller.role === 'staff' ? null : caller.id,
            // The caller's row from the member cache: the event reads only its version when it is current.
            current: caller.member,
            now,
            verifyPayment: deps.verifyPayment,
            agency: deps.config.agency,
            mail: { siteUrl: deps.config.publicSiteUrl, agency: deps.config.agency },
          });
        } catch (error) {
          if (write) settleMemberWrite(deps.database, write);
          throw error;
        }
        if (write) settleMemberWrite(deps.database, write, applied);
        // The dispatcher is woken only when the event queued a mail (decision 129).
        if (applied.mailQueued) deps.mailQueued();
        // A withdrawal's refund, recorded with it, is carried out now (decision 118); a failure stays pending for the job.
        const context = (input as { context?: unknown }).context;
        // …and an accepted termination's (decision 119).
        if (context === 'withdraw' || context === 'terminate_ok')
          await executePendingRefunds(deps.database.db, refundGateway(deps.config), { now, memberId: applied.row.id });
        // A renunciation, a withdrawal or an accepted termination stops the contract: its monthly
        // subscription is cancelled at the provider now, at the stop's instant (decision 175).
        if (context === 'renounce' || context === 'withdraw' || context === 'terminate_ok')
          await cancelStoppedSubscriptions(deps.database.db, subscriptionGateway(deps.config), { now, memberId: applied.row.id });
        c.header('Cache-Control', 'private, no-store');
        return c.json({ ...settingsWithState(applied.row, now), eventId: applied.eventId }, 200);
      })
  );
}
