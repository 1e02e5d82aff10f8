import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import * as v from 'valibot';
import { requestIdOf } from '#bff/http/request-log.ts';
import { log } from '#bff/logger.ts';

/** The one error body of the whole product API. */
export interface ApiErrorBody {
  error: { code: string; message: string; issues?: { path: string; message: string }[]; [extra: string]: unknown };
}

/** Thrown anywhere in a handler; shaped by `onApiError`. */
export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extra: Omit<ApiErrorBody['error'], 'code' | 'message'> = {},
  ) {
    super(status, { message });
  }
}

/**
 * Valibot's own messages, for the checks to which a schema gives no message of its own (a missing
 * field, a value of another type): French, as every other message of the API, never « Invalid
 * key: Expected "password" but received undefined ». Process-wide from here, where every API
 * validation failure is shaped; the embedded auth service parses in English, as GoTrue answers.
 */
v.setGlobalMessage((issue) => (issue.received === 'undefined' ? 'Champ obligatoire' : 'Valeur invalide'), 'fr');
v.setGlobalConfig({ lang: 'fr' });

function issuesOf(issues: readonly v.BaseIssue<unknown>[]): { path: string; message: string }[] {
  return issues.map((issue) => ({ path: v.getDotPath(issue) ?? '', message: issue.message }));
}

/** A valibot failure as a 400 with the field-level issues (messages are French). */
export function validationError(issues: readonly v.BaseIssue<unknown>[], message = 'Données invalides'): ApiError {
  return new ApiError(400, 'VALIDATION_FAILED', message, { issues: issuesOf(issues) });
}

export function errorBody(code: string, message: string, extra: Omit<ApiErrorBody['error'], 'code' | 'message'> = {}): ApiErrorBody {
  return { error: { code, message, ...extra } };
}

/**
 * Hono `onError`: every error leaves as the error shape, with the request id (`requestId` in the
 * body and `X-Request-Id`, decision 107) that a member can quote; unknown ones are logged with
 * that id and never leak.
 */
export function onApiError(error: Error, c: Context): Response {
  const requestId = requestIdOf(c);
  const withId = requestId ? { requestId } : {};
  if (requestId) c.header('X-Request-Id', requestId);
  if (error instanceof ApiError) {
    // Rate limits (429) and outages say when to come back.
    if (typeof error.extra.retryAfter === 'number') c.header('Retry-After', String(error.extra.retryAfter));
    return c.json(errorBody(error.code, error.message, { ...error.extra, ...withId }), error.status);
  }
  if (error instanceof HTTPException) {
    const status = error.status;
    const code = status === 400 ? 'BAD_REQUEST' : status === 401 ? 'UNAUTHORIZED' : status === 413 ? 'PAYLOAD_TOO_LARGE' : 'HTTP_ERROR';
    const message = status === 400 ? 'Requête invalide' : status === 413 ? 'Requête trop volumineuse' : error.message || 'Erreur';
    return c.json(errorBody(code, message, withId), status);
  }
  if (isUnavailable(error)) {
    log.warn('base de données injoignable', { reqId: requestId, err: error });
    return c.json(errorBody('SERVICE_UNAVAILABLE', 'Service momentanément indisponible, réessayez dans un instant.', withId), 503);
  }
  log.error('erreur inattendue', { reqId: requestId, method: c.req.method, path: c.req.path, err: error });
  const quote = requestId ? ` Si le problème persiste, indiquez cette référence à l’agence : ${requestId}.` : '';
  return c.json(errorBody('INTERNAL', `Une erreur inattendue est survenue.${quote}`, withId), 500);
}

/** Database connection failures: the BFF answers 503 and recovers by itself. */
function isUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001', '08003'].includes(code)
    ) {
      return true;
    }
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && /Connection terminated|timeout exceeded when trying to connect/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
