import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { type RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import { rateLimitBucket } from '#bff/http/store/rate-limits.ts';
import { count } from '#machines/french/plural.ts';

export interface Limit {
  /** Bucket name, e.g. `signin-ip`. */
  name: string;
  points: number;
  durationSeconds: number;
  /** Block for this long once exhausted (defaults to the window). */
  blockSeconds?: number;
}

/** The product's limits against brute force and abuse (per address and per account). */
export const LIMITS = {
  signinPerIp: { name: 'signin-ip', points: 30, durationSeconds: 15 * 60 },
  signinPerAccount: { name: 'signin-account', points: 10, durationSeconds: 15 * 60 },
  recoveryPerIp: { name: 'recovery-ip', points: 10, durationSeconds: 60 * 60 },
  recoveryPerAccount: { name: 'recovery-account', points: 3, durationSeconds: 60 * 60 },
  signupPerIp: { name: 'signup-ip', points: 10, durationSeconds: 60 * 60 },
  /**
   * Registrations with one address in a day, whoever asks and whether or not it has an account
   * (decision 187): bounds the confirmation mails and the « someone tried » mails it gets.
   */
  signupPerAddress: { name: 'signup-address', points: 5, durationSeconds: 24 * 60 * 60 },
  /** « Renvoyer le mail de confirmation » (decision 187), per client and per address. */
  confirmationResendPerIp: { name: 'confirmation-resend-ip', points: 10, durationSeconds: 60 * 60 },
  confirmationResendPerAddress: { name: 'confirmation-resend-address', points: 3, durationSeconds: 60 * 60 },
  publicFormPerIp: { name: 'form-ip', points: 10, durationSeconds: 10 * 60 },
  /** Address and password changes from Mon profil, per account (decision 102). */
  accountChangePerAccount: { name: 'account-change', points: 10, durationSeconds: 15 * 60 },
  /** Confirmations of an e-mail change, per client address (each is a token guess). */
  emailConfirmPerIp: { name: 'email-confirm-ip', points: 20, durationSeconds: 15 * 60 },
  /** The contract's signing codes mailed to one member in a day (decision 182). */
  contractCodesPerDay: { name: 'contract-codes', points: 5, durationSeconds: 24 * 60 * 60 },
  /** The contract's signing codes tried by one member in a day, right or wrong (decision 182). */
  contractTriesPerDay: { name: 'contract-tries', points: 15, durationSeconds: 24 * 60 * 60 },
  /** Answers one colleague mails to leads in ten minutes (decision 211): a day's work, never a mass mailing. */
  leadAnswerPerStaff: { name: 'lead-answer', points: 20, durationSeconds: 10 * 60 },
} satisfies Record<string, Limit>;

export type RateLimiter = (limit: Limit, key: string) => Promise<void>;

/**
 * Rate limiting backed by the database (rate-limiter-flexible's Drizzle store), so limits hold
 * across restarts and across instances sharing one PostgreSQL. Exceeding one throws a 429 with a
 * French message and a Retry-After.
 */
export function createRateLimiter(db: Db): RateLimiter {
  const limiters = new Map<string, RateLimiterDrizzle>();
  return async (limit, key) => {
    let limiter = limiters.get(limit.name);
    if (!limiter) {
      limiter = rateLimitBucket(db, {
        keyPrefix: limit.name,
        points: limit.points,
        duration: limit.durationSeconds,
        blockDuration: limit.blockSeconds ?? 0,
      });
      limiters.set(limit.name, limiter);
    }
    try {
      await limiter.consume(key.toLowerCase());
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        const minutes = Math.ceil(seconds / 60);
        throw new ApiError(429, 'RATE_LIMITED', `Trop de tentatives. Réessayez dans ${count(minutes, 'minute', 'minutes')}.`, {
          retryAfter: seconds,
        });
      }
      throw rejection;
    }
  };
}

/**
 * The caller's address: the socket's, or behind `trustProxy` proxies of ours the `X-Forwarded-For`
 * hop the outermost one appended — the `trustProxy`-th from the right. Each proxy appends the
 * address it was connected from, so anything left of that hop was written by the caller and is
 * ignored: rotating it changes nothing (issue 60). A shorter header gives its leftmost hop.
 */
export function clientAddress(c: Context, trustProxy: number): string {
  if (trustProxy > 0) {
    const hops = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter((hop) => hop !== '');
    const forwarded = hops[Math.max(0, hops.length - trustProxy)];
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'in-process';
  }
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * Whether the request comes from this machine: a loopback peer, and no proxy hop naming anyone
 * else (a reverse proxy on the same host connects from loopback for every visitor, so any
 * `X-Forwarded-For` hop must be loopback too, whatever TRUST_PROXY says). A request made
 * in-process (no socket: the tests' `app.request`) is the product's own.
 */
export function isLoopbackRequest(c: Context): boolean {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    return true;
  }
  if (!peer || !LOOPBACK.test(peer)) return false;
  const forwarded = c.req.header('x-forwarded-for');
  return forwarded === undefined || forwarded.split(',').every((hop) => LOOPBACK.test(hop.trim()));
}
