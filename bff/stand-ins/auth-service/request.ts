import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import type { AuthConfig, AuthDeps } from '#bff/stand-ins/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import type { LimitName } from '#bff/stand-ins/auth-service/rate-limit.ts';

/**
 * Reads a JSON body and validates it: an empty body counts as `{}`, malformed JSON is 400
 * `bad_json`, a schema failure 400 `validation_failed`. Never a 5xx. Its size was bounded before
 * (the service's body limit, 413 while it streams).
 */
export async function readBody<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  const text = await c.req.text();
  let body: unknown = {};
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new AuthApiError(
        400,
        'bad_json',
        `Could not parse request body as JSON: ${error instanceof Error ? error.message : 'invalid JSON'}`,
      );
    }
  }
  const result = v.safeParse(schema, body, { lang: 'en' });
  if (!result.success) {
    const issue = result.issues[0];
    const path = v.getDotPath(issue);
    throw errors.validation(`Invalid request body${path ? ` (${path})` : ''}: ${issue.message}`);
  }
  return result.output;
}

/** The client's address as GoTrue records it on MFA challenges: the gateway's, else the socket's. */
export function clientIp(c: Context, config: AuthConfig): string {
  const named = config.clientAddress(c);
  if (named) return named;
  try {
    return getConnInfo(c).remote.address ?? '';
  } catch {
    return '';
  }
}

/** Per-IP limit in front of a route (decision 220): 429 over_request_rate_limit once its window is spent. */
export function limitedBy(deps: AuthDeps, name: LimitName): MiddlewareHandler {
  return async (c, next) => {
    const key = deps.config.clientAddress(c);
    if (key !== undefined && !(await deps.limits[name].take(key))) throw errors.overRequestRateLimit();
    await next();
  };
}

/** `redirect_to` when it points to the site (or an allowed origin), otherwise undefined. */
export function allowedRedirect(raw: string | undefined, config: AuthConfig): string | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    const allowed = [new URL(config.siteUrl).origin, ...config.redirectOrigins];
    return allowed.includes(url.origin) ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

export function bearerToken(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

// Valibot pieces shared by the request schemas. supabase-js sends `null` for unused fields.
export const optionalString = v.nullish(v.string());
export const optionalObject = v.nullish(v.record(v.string(), v.unknown()));

/** Who is calling, as sessions and MFA challenges record it. */
export function clientInfo(c: Context, config: AuthConfig): { ip: string; userAgent: string | null } {
  return { ip: clientIp(c, config), userAgent: c.req.header('user-agent') ?? null };
}
