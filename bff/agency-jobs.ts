import type { AuthConnection } from '#bff/auth/supabase.ts';
import type { Clock } from '#bff/clock.ts';
import type { Config } from '#bff/config.ts';
import type { Db } from '#bff/db/database.ts';
import { INTRODUCTION_DEADLINE_INTERVAL_MS, runIntroductionDeadlines, runIntroductionEndings } from '#bff/introductions/introductions.ts';
import { log } from '#bff/logger.ts';
import { AGENCY_MAIL_INTERVAL_MS, runAgencyMailJob } from '#bff/mail/agency-mail-triggers.ts';
import { MATCH_PROFILE_REFRESH_INTERVAL_MS, refreshWaitingMatchProfiles } from '#bff/matching/refresh.ts';
import { cancelStoppedSubscriptions } from '#bff/payments/contract-ledger.ts';
import { subscriptionGateway } from '#bff/payments/subscription-gateway.ts';
import { executePendingRefunds, refundGateway } from '#bff/payments/refunds.ts';
import { paymentsEmbedded } from '#bff/payments/stripe-settings.ts';
import { RETENTION_INTERVAL_MS, runRetention } from '#bff/retention/retention-job.ts';
import type { ScheduledJob } from '#bff/scheduled-jobs.ts';
import { chargeDueInstalments } from '#bff/stand-ins/instalment-stand-in.ts';

/** How often the retries of refunds and the local instalments run in real time. */
const QUARTER_HOUR_MS = 15 * 60 * 1000;

export interface AgencyJobDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** The embedded auth service's clock (real time): its sessions' idle time is measured on it, not on the movable agency's clock. */
  authClock?: Clock;
  auth: AuthConnection;
  /** The product's own app: the instalment stand-in posts its signed webhooks through it. */
  dispatch: (request: Request) => Promise<Response> | Response;
  /** A pass queued mail: the dispatcher sends it now rather than at its next tick. */
  mailQueued: () => void;
}

/**
 * Every time-driven job of the agency, in the order a move of the clock runs them (decision 170):
 * each day crossed, the monthly instalments due (the local Stripe Billing stand-in, when payments
 * are embedded), the introductions ended by a contract's term, their reminders and expiries, the agency's mails (meeting reminder,
 * end of the 7- and 14-day periods, active member, term ending and ended); then, once, the refunds
 * to retry, the match profiles of members active by time, and the retention rules.
 */
export function agencyJobs(deps: AgencyJobDeps): ScheduledJob[] {
  const { config, db, clock } = deps;
  const site = { siteUrl: config.publicSiteUrl, agency: config.agency };
  const instalments: ScheduledJob[] = paymentsEmbedded(config)
    ? [
        {
          name: 'instalments',
          label: 'mensualités dues (simulation locale de Stripe)',
          run: () => chargeDueInstalments({ config, db, clock, dispatch: deps.dispatch }),
          failure: 'mensualités locales interrompues',
          firstDelayMs: QUARTER_HOUR_MS,
          intervalMs: QUARTER_HOUR_MS,
          cadence: 'each-day',
        },
      ]
    : [];
  return [
    ...instalments,
    {
      // A contract at its term (or anything else left) ends its introductions (decision 194), before
      // the deadlines: a proposal of a member whose contract ended is ended, not reminded.
      name: 'introduction-endings',
      label: 'fins des mises en relation (contrat ou compte terminé)',
      run: async () => {
        const { ended } = await runIntroductionEndings(db, clock.now());
        if (ended > 0) log.info('mises en relation terminées', { ended });
      },
      failure: 'tâche des fins des mises en relation interrompue',
      firstDelayMs: 12_000,
      intervalMs: INTRODUCTION_DEADLINE_INTERVAL_MS,
      cadence: 'each-day',
    },
    {
      name: 'introduction-deadlines',
      label: 'rappels et expirations des mises en relation',
      run: async () => {
        const report = await runIntroductionDeadlines(db, clock.now(), site);
        if (report.reminded + report.expired + report.meetingReminders > 0) {
          log.info('échéances des mises en relation', { ...report });
          deps.mailQueued();
        }
      },
      failure: 'tâche des échéances des mises en relation interrompue',
      firstDelayMs: 15_000,
      intervalMs: INTRODUCTION_DEADLINE_INTERVAL_MS,
      cadence: 'each-day',
    },
    {
      name: 'agency-mails',
      label: 'courriels de l’agence (rappels, fins de délais, fin de contrat)',
      run: async (stopping) => {
        const report = await runAgencyMailJob({ db, clock, site, stopping });
        if (report.queued > 0) deps.mailQueued();
      },
      failure: 'tâche des courriels de l’agence interrompue',
      firstDelayMs: 10_000,
      intervalMs: AGENCY_MAIL_INTERVAL_MS,
      cadence: 'each-day',
    },
    {
      // The subscription of a contract stopped or at its term is cancelled at the provider on the
      // day it happens (decision 175), whether payments are embedded or Stripe's.
      name: 'subscriptions',
      label: 'abonnements des contrats arrêtés ou arrivés à terme',
      run: async () => {
        const { cancelled } = await cancelStoppedSubscriptions(db, subscriptionGateway(config), { now: clock.now() });
        if (cancelled > 0) log.info('abonnements annulés', { cancelled });
      },
      failure: 'annulation des abonnements interrompue',
      firstDelayMs: QUARTER_HOUR_MS,
      intervalMs: QUARTER_HOUR_MS,
      cadence: 'each-day',
    },
    {
      // Refunds the provider did not take at once (decision 118).
      name: 'refunds',
      label: 'remboursements à reprendre',
      run: () => executePendingRefunds(db, refundGateway(config), { now: clock.now() }),
      failure: 'tâche des remboursements interrompue',
      firstDelayMs: QUARTER_HOUR_MS,
      intervalMs: QUARTER_HOUR_MS,
      cadence: 'at-end',
    },
    {
      // Members who became active by time alone enter the pool of candidates (decision 113).
      name: 'match-profiles',
      label: 'profils de mise en relation',
      run: async () => {
        const count = await refreshWaitingMatchProfiles(db, clock.now());
        if (count > 0) log.info('profils de mise en relation disponibles', { count });
      },
      failure: 'rafraîchissement des profils de mise en relation interrompu',
      firstDelayMs: 20_000,
      intervalMs: MATCH_PROFILE_REFRESH_INTERVAL_MS,
      cadence: 'at-end',
    },
    {
      name: 'retention',
      label: 'durées de conservation',
      run: (stopping) => runRetention({ db, clock, authClock: deps.authClock, auth: deps.auth, stopping }),
      failure: 'tâche de conservation interrompue',
      firstDelayMs: 5_000,
      intervalMs: RETENTION_INTERVAL_MS,
      cadence: 'at-end',
    },
  ];
}
