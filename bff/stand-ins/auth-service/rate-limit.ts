import { RateLimiterRes } from 'rate-limiter-flexible';
// The library's documented base for a limiter with its own store (its README, « Contributions »);
// declared by its types, not re-exported by its index: imported from its file (rate-limiter-store.d.ts).
import RateLimiterStoreAbstract from 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js';
import type { Clock } from '#bff/clock.ts';

/**
 * The embedded auth service's limits (decision 220): rate-limiter-flexible, as the server's
 * (`bff/http/rate-limit.ts`), with the same fixed windows — `points` per `durationSeconds`, the
 * window opened by a key's first request — counted in memory on the service's clock, so that the
 * agency's movable clock and the tests' move them. GoTrue refills token buckets continuously;
 * each window here keeps its bucket's burst (`points`) and its average rate (`durationSeconds` =
 * burst / rate), and GoTrue's error bodies (429 `over_request_rate_limit`,
 * `over_email_send_rate_limit`) are unchanged.
 */
export interface WindowSpec {
  points: number;
  durationSeconds: number;
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

export const DEFAULT_LIMITS: Record<LimitName, WindowSpec> = {
  /** POST /token, per client address (GoTrue: 150 per 5 min, burst 30). */
  token: { points: 30, durationSeconds: 60 },
  /** POST /verify (and GET), per client address (GoTrue: 30 per 5 min). */
  verify: { points: 30, durationSeconds: 300 },
  /** POST /signup, /recover, /resend, /otp and PUT /user, per client address (GoTrue: 30 per 5 min). */
  email: { points: 30, durationSeconds: 300 },
  /** MFA challenge and verify, per client address (GoTrue: 15 a minute, burst 30). */
  mfa: { points: 30, durationSeconds: 120 },
  /**
   * Account mails really queued by the whole service: 429 over_email_send_rate_limit. GoTrue's is
   * 30 an hour, taken before the address is looked up, so that anyone could empty it with made-up
   * addresses (issue 60): here a last resort, far above what one client may ask (decision 181).
   */
  emailSent: { points: 300, durationSeconds: 18 * 60 },
  /** Not in GoTrue: account mails asked for by one client address, known recipient or not. */
  mailPerClient: { points: 10, durationSeconds: 30 * 60 },
  /** Not in GoTrue: account mails to one address (every kind), whoever asks. */
  mailPerRecipient: { points: 5, durationSeconds: 30 * 60 },
  /**
   * Not in GoTrue: guesses of a six-digit code per e-mail address or per MFA factor, whatever the
   * client address, so that a caller who sends no rate-limit header cannot enumerate codes.
   */
  codeGuesses: { points: 10, durationSeconds: 20 * 60 },
  /**
   * Not in GoTrue: wrong passwords per e-mail address (known or not, so that the answer reveals no
   * account), whatever the client address: ten in 15 minutes, as the product's own sign-in
   * (`LIMITS.signinPerAccount`). Only failures count.
   */
  passwordFailures: { points: 10, durationSeconds: 15 * 60 },
};

interface StoredWindow {
  points: number;
  /** When the window ends (ms on the service clock); null: never. */
  expire: number | null;
}

const MAX_KEYS = 50_000;

/**
 * rate-limiter-flexible over a store in memory whose time is the service's clock (the library's
 * own memory limiter reads the system's). Each change is made synchronously when the library calls
 * `_upsert`, so that requests in flight cannot all pass a window with one point left (issue 60).
 */
class ClockedMemoryLimiter extends RateLimiterStoreAbstract {
  private readonly windows = new Map<string, StoredWindow>();

  constructor(
    private readonly clock: Clock,
    spec: WindowSpec,
  ) {
    super({ storeClient: 'memory', points: spec.points, duration: spec.durationSeconds });
  }

  private live(key: string, now: number): StoredWindow | undefined {
    const stored = this.windows.get(key);
    return stored && (stored.expire === null || stored.expire > now) ? stored : undefined;
  }

  override _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<StoredWindow> {
    const now = this.clock.now().getTime();
    const current = this.live(key, now);
    if (current && !forceExpire) {
      current.points += points;
      return Promise.resolve({ ...current });
    }
    // A point given back after its window ended gives nothing to the next one.
    const opened = { points: Math.max(0, points), expire: msDuration > 0 ? now + msDuration : null };
    this.windows.set(key, opened);
    if (this.windows.size > MAX_KEYS) this.prune(now);
    return Promise.resolve({ ...opened });
  }

  override _get(key: string): Promise<StoredWindow | null> {
    const current = this.live(key, this.clock.now().getTime());
    return Promise.resolve(current ? { ...current } : null);
  }

  override _delete(key: string): Promise<boolean> {
    return Promise.resolve(this.windows.delete(key));
  }

  override _getRateLimiterRes(_key: string, changedPoints: number, stored: StoredWindow): RateLimiterRes {
    return new RateLimiterRes(
      Math.max(this.points - stored.points, 0),
      stored.expire === null ? -1 : Math.max(stored.expire - this.clock.now().getTime(), 0),
      stored.points,
      stored.points === changedPoints,
    );
  }

  /** Forgets the windows that have ended (they behave exactly like absent ones). */
  private prune(now: number): void {
    for (const [key, stored] of this.windows) if (stored.expire !== null && stored.expire <= now) this.windows.delete(key);
  }
}

/** One limit of the service: a point per request, refused once the key's window has none left. */
export class ServiceLimit {
  private readonly limiter: ClockedMemoryLimiter;

  constructor(clock: Clock, spec: WindowSpec) {
    this.limiter = new ClockedMemoryLimiter(clock, spec);
  }

  /** Takes one point for `key`; false when its window has none left. */
  async take(key: string): Promise<boolean> {
    try {
      await this.limiter.consume(key);
      return true;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return false;
      throw rejection;
    }
  }

  /**
   * Gives back a point taken by `take` for work that turned out not to count (a right password
   * where only wrong ones count). Taking first and giving back after is what keeps a limit whole
   * when many requests run at once: checking first and taking after let every request in flight
   * pass the check (issue 60).
   */
  async giveBack(key: string): Promise<void> {
    await this.limiter.reward(key);
  }

  /** Whether `key` has a point left, without taking it (the service-wide mail budget's check). */
  async hasPoint(key: string): Promise<boolean> {
    const res = await this.limiter.get(key);
    return res === null || res.remainingPoints > 0;
  }
}

export type RateLimits = Record<LimitName, ServiceLimit>;

export function createRateLimits(clock: Clock, overrides: Partial<Record<LimitName, WindowSpec>> = {}): RateLimits {
  const specs = { ...DEFAULT_LIMITS, ...overrides };
  const limits = {} as RateLimits;
  for (const name of Object.keys(specs) as LimitName[]) limits[name] = new ServiceLimit(clock, specs[name]);
  return limits;
}
