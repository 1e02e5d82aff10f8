import type { Clock } from '#bff/clock.ts';

/** GoTrue's limits (conf, api/middleware.go): token buckets refilled at `perPeriod/periodSeconds`. */
export interface BucketSpec {
  perPeriod: number;
  periodSeconds: number;
  burst: number;
}

export type LimitName =
  | 'token'
  | 'verify'
  | 'email'
  | 'mfa'
  | 'emailSent'
  | 'mailPerClient'
  | 'mailPerRecipient'
  | 'codeGuesses'
  | 'passwordFailures';

export const DEFAULT_LIMITS: Record<LimitName, BucketSpec> = {
  /** POST /token, per client address. */
  token: { perPeriod: 150, periodSeconds: 300, burst: 30 },
  /** POST /verify (and GET), per client address. */
  verify: { perPeriod: 30, periodSeconds: 300, burst: 30 },
  /** POST /signup, /recover, /resend, /otp and PUT /user, per client address. */
  email: { perPeriod: 30, periodSeconds: 300, burst: 30 },
  /** MFA challenge and verify, per client address. */
  mfa: { perPeriod: 15, periodSeconds: 60, burst: 30 },
  /**
   * Account mails really queued by the whole service: 429 over_email_send_rate_limit. GoTrue's is
   * 30 an hour, taken before the address is looked up, so that anyone could empty it with made-up
   * addresses (issue 60): here a last resort, far above what one client may ask (decision 181).
   */
  emailSent: { perPeriod: 1000, periodSeconds: 3600, burst: 300 },
  /** Not in GoTrue: account mails asked for by one client address, known recipient or not. */
  mailPerClient: { perPeriod: 20, periodSeconds: 3600, burst: 10 },
  /** Not in GoTrue: account mails to one address (every kind), whoever asks. */
  mailPerRecipient: { perPeriod: 10, periodSeconds: 3600, burst: 5 },
  /**
   * Not in GoTrue: guesses of a six-digit code per e-mail address or per MFA factor, whatever the
   * client address, so that a caller who sends no rate-limit header cannot enumerate codes.
   */
  codeGuesses: { perPeriod: 30, periodSeconds: 3600, burst: 10 },
  /**
   * Not in GoTrue: wrong passwords per e-mail address (known or not, so that the answer reveals no
   * account), whatever the client address: ten, then one more every 90 s. Only failures count.
   */
  passwordFailures: { perPeriod: 10, periodSeconds: 900, burst: 10 },
};

interface Bucket {
  tokens: number;
  at: number;
}

const MAX_KEYS = 50_000;

/** Token buckets keyed by client, driven by the service clock (so tests can move time). */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly ratePerMs: number;

  constructor(
    private readonly clock: Clock,
    private readonly spec: BucketSpec,
  ) {
    this.ratePerMs = spec.perPeriod / (spec.periodSeconds * 1000);
  }

  /** Whether `key` has a token left, without taking it (the service-wide mail budget's check). */
  hasToken(key: string): boolean {
    const bucket = this.buckets.get(key);
    if (!bucket) return true;
    return bucket.tokens + Math.max(0, this.clock.now().getTime() - bucket.at) * this.ratePerMs >= 1;
  }

  /**
   * Gives back a token taken by `take` for work that turned out not to count (a right password
   * where only wrong ones count). Taking first and giving back after is what keeps a limit whole
   * when many requests run at once: checking first and taking after let every request in flight
   * pass the check (issue 60).
   */
  giveBack(key: string): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.tokens = Math.min(this.spec.burst, bucket.tokens + 1);
  }

  /** Takes one token for `key`; false when the bucket is empty. */
  take(key: string): boolean {
    const now = this.clock.now().getTime();
    const bucket = this.buckets.get(key) ?? { tokens: this.spec.burst, at: now };
    const tokens = Math.min(this.spec.burst, bucket.tokens + Math.max(0, now - bucket.at) * this.ratePerMs);
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return false;
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.buckets.size > MAX_KEYS) this.prune(now);
    return true;
  }

  /** Forgets the buckets that have refilled completely (they behave exactly like new ones). */
  private prune(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.ratePerMs >= this.spec.burst) this.buckets.delete(key);
    }
  }
}

export type RateLimits = Record<LimitName, TokenBuckets>;

export function createRateLimits(clock: Clock, overrides: Partial<Record<LimitName, BucketSpec>> = {}): RateLimits {
  const specs = { ...DEFAULT_LIMITS, ...overrides };
  return {
    token: new TokenBuckets(clock, specs.token),
    verify: new TokenBuckets(clock, specs.verify),
    email: new TokenBuckets(clock, specs.email),
    mfa: new TokenBuckets(clock, specs.mfa),
    emailSent: new TokenBuckets(clock, specs.emailSent),
    mailPerClient: new TokenBuckets(clock, specs.mailPerClient),
    mailPerRecipient: new TokenBuckets(clock, specs.mailPerRecipient),
    codeGuesses: new TokenBuckets(clock, specs.codeGuesses),
    passwordFailures: new TokenBuckets(clock, specs.passwordFailures),
  };
}
