import type { Context } from 'hono';
import type { Clock } from '#bff/clock.ts';
import type { Db } from '#bff/db/database.ts';
import type { Executor } from '#bff/stand-ins/auth-service/store/executor.ts';
import type { SigningKey } from '#bff/stand-ins/auth-service/keys.ts';
import type { RateLimits } from '#bff/stand-ins/auth-service/rate-limit.ts';
import type { CodeCaps } from '#bff/stand-ins/auth-service/code-caps.ts';
import type { AccountMailTo } from '#bff/mail/recovery-mail.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';

/** Everything the handlers need, built once by `createAuthService`. */
export interface AuthDeps {
  db: Db;
  clock: Clock;
  key: SigningKey;
  limits: RateLimits;
  /** The daily ceiling of six-digit codes per account (decision 188). */
  codeCaps: CodeCaps;
  config: AuthConfig;
  /** Called after a mail was committed to the outbox. */
  mailQueued(): void;
  /** The first name the product holds for an account, read with the mail's executor; absent: « Bonjour, ». */
  firstNameOf?: ((exec: Executor, userId: string) => Promise<string | null>) | undefined;
}

export interface AuthConfig {
  siteUrl: string;
  /** Where this API answers, for links in mails (`${siteUrl}/auth/v1`). */
  apiUrl: string;
  issuer: string;
  jwtExpirySeconds: number;
  /** How long an e-mail link or code stays valid. */
  otpExpirySeconds: number;
  /**
   * The client's address as the gateway in front of the service names it, which keys the per-IP
   * limits; undefined: no per-IP limit (GoTrue without its rate-limit header).
   */
  clientAddress(c: Context): string | undefined;
  /** GoTrue's DISABLE_SIGNUP: POST /signup answers 422 `signup_disabled`. */
  disableSignup: boolean;
  /** Origins (besides the site's) that `redirect_to` may point to. */
  redirectOrigins: string[];
  siteName: string;
  /** The agency's identity and address, for the signature and footer of the service's mails (decision 198). */
  mailSite: AgencyMailSite;
}

/**
 * How an account mail greets and is signed: the first name the product holds for the account (read
 * in the mail's own transaction through `firstNameOf`, none without it) and the agency's layout.
 */
export async function accountMailTo(deps: AuthDeps, exec: Executor, input: { to: string; userId: string | null }): Promise<AccountMailTo> {
  const firstName = input.userId && deps.firstNameOf ? await deps.firstNameOf(exec, input.userId) : null;
  return { to: input.to, firstName, siteName: deps.config.siteName, site: deps.config.mailSite };
}

export type { Executor };
