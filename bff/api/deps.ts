import type { AuthConnection } from '#bff/auth/supabase.ts';
import type { Clock } from '#bff/clock.ts';
import type { Config } from '#bff/config.ts';
import type { Database } from '#bff/db/database.ts';
import type { RateLimiter } from '#bff/http/rate-limit.ts';
import type { PaymentVerifier } from '#bff/payments/verify-payment.ts';
import type { PayInFullSetting } from '#machines/onboarding/plans.ts';

/** Everything the API needs from the outside world; tests build it with test doubles of time only. */
export interface ApiDeps {
  config: Config;
  database: Database;
  clock: Clock;
  auth: AuthConnection;
  rateLimit: RateLimiter;
  /** Confirms a paid checkout session before the `app` and `sub` contexts (bff/payments). */
  verifyPayment: PaymentVerifier;
  /** Called after a transaction that queued mail has committed. */
  mailQueued: () => void;
  /** Called once staff have changed the pay-in-full setting: the public pages follow (decision 106). */
  payInFullChanged?: ((setting: PayInFullSetting) => void) | undefined;
}
