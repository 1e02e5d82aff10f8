/**
 * What the product and an auth service with a daily ceiling of six-digit codes (decision 188)
 * share: the embedded service (`bff/stand-ins/auth-service/code-caps.ts`) counts through a
 * `DailyCodeCounter` and reports a `CodeCapReached`; the product's side (`auth/code-caps.ts`)
 * gives the database-backed counter and writes the member's history line. Handed over by the
 * composition root (`start.ts`); a hosted Supabase project has no such ceiling and needs neither.
 */
export type CodeKind = 'recovery' | 'signup' | 'invite' | 'email_change' | 'reauthentication';
export type CodeUse = 'mailed' | 'tried';

export const DAY_SECONDS = 24 * 60 * 60;

/** Where the day's counts are kept: in memory by default; the product passes its database-backed limiter. */
export interface DailyCodeCounter {
  /** Takes one of `points` a day for `key`; false once they are spent. */
  take(key: string, points: number, use: CodeUse): Promise<boolean>;
}

export interface CodeCapReached {
  kind: CodeKind;
  use: CodeUse;
  /** The address the codes are about (the account's, or the new one of an e-mail change). */
  email: string;
}
