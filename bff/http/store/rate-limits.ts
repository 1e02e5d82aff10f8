// The rate limits' counters: rate-limiter-flexible's Drizzle store over the `rate_limits` table.
import { RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { Db } from '#bff/db/database.ts';
import { rateLimits } from '#bff/db/schema.ts';

/** One bucket's limiter over `rate_limits`, keyed by `keyPrefix` (expired rows are not swept on a timer). */
export function rateLimitBucket(
  db: Db,
  bucket: { keyPrefix: string; points: number; duration: number; blockDuration: number },
): RateLimiterDrizzle {
  return new RateLimiterDrizzle({
    storeClient: db,
    schema: rateLimits,
    keyPrefix: bucket.keyPrefix,
    points: bucket.points,
    duration: bucket.duration,
    blockDuration: bucket.blockDuration,
    clearExpiredByTimeout: false,
  });
}
