/**
 * rate-limiter-flexible's base for a limiter with a store of its own (its README, « Contributions »:
 * implement `_upsert`, `_get`, `_delete` and `_getRateLimiterRes`). Its types declare the class
 * without these four; its index does not re-export it.
 */
declare module 'rate-limiter-flexible/lib/RateLimiterStoreAbstract.js' {
  import { RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';

  export default abstract class RateLimiterStoreAbstract extends RateLimiterAbstract {
    constructor(opts: { storeClient: unknown; points: number; duration: number; keyPrefix?: string });
    abstract _upsert(key: string, points: number, msDuration: number, forceExpire?: boolean): Promise<unknown>;
    abstract _get(key: string): Promise<unknown>;
    abstract _delete(key: string): Promise<boolean>;
    abstract _getRateLimiterRes(key: string, changedPoints: number, stored: unknown): RateLimiterRes;
  }
}
