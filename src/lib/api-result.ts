/**
 * Results of the product API (`/api/v1`) as the SPA reads them: `send()` turns a `fetch` or
 * typed-client call into `{ ok, data }` or `{ ok: false, error }`. Kept apart from the typed
 * client (`api-client.ts`) so that code needing only plain requests (the session, loaded on every
 * page) does not bring the Hono client into the first load.
 */

/** Field name (dot path of the request body, e.g. `email`) → French message. */
export type FieldErrors = Record<string, string>;

export interface ApiFailure {
  /** HTTP status; 0 when the server could not be reached. */
  status: number;
  /** Machine code of the error body (`VALIDATION_FAILED`, `over_request_rate_limit`…) or a local one. */
  code: string;
  /** French message to show the user. */
  message: string;
  /** Field-level errors from the body's `issues`; issues without a path are not in here. */
  fieldErrors: FieldErrors;
  /** Seconds from a `Retry-After` header, when given. */
  retryAfter?: number;
  /** The raw `error` object of the body, for callers that need extra fields (e.g. a 409's state). */
  details?: Record<string, unknown>;
}

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; error: ApiFailure };

interface ResponseLike {
  ok: boolean;
  status: number;
  headers: Headers;
  text(): Promise<string>;
}

type SuccessData<R> = R extends { ok: true; json(): Promise<infer D> } ? D : never;
type DataOf<R> = [SuccessData<R>] extends [never] ? unknown : SuccessData<R>;

const DEFAULT_MESSAGES: Record<number, string> = {
  0: 'Impossible de joindre le serveur. Vérifiez votre connexion internet et réessayez.',
  400: 'Certaines informations sont invalides.',
  401: 'Vous devez être connecté(e) pour continuer.',
  403: 'Vous n’avez pas accès à cette ressource.',
  404: 'Ressource introuvable.',
  409: 'Cette action n’est pas possible pour le moment.',
  413: 'Requête trop volumineuse.',
  429: 'Trop de tentatives. Veuillez patienter quelques instants avant de réessayer.',
};
const SERVER_ERROR_MESSAGE = 'Une erreur inattendue est survenue. Veuillez réessayer plus tard.';

export function defaultMessage(status: number): string {
  return DEFAULT_MESSAGES[status] ?? (status >= 500 ? SERVER_ERROR_MESSAGE : 'La requête a échoué.');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Maps a failed answer (status + parsed body) to an `ApiFailure`; pure, so it is unit-tested. */
export function toApiFailure(status: number, body: unknown, retryAfterHeader?: string | null): ApiFailure {
  const failure: ApiFailure = {
    status,
    code: status === 0 ? 'NETWORK' : `HTTP_${status}`,
    message: defaultMessage(status),
    fieldErrors: {},
  };
  const error = isRecord(body) && isRecord(body.error) ? body.error : null;
  if (error) {
    if (typeof error.code === 'string' && error.code) failure.code = error.code;
    if (typeof error.message === 'string' && error.message.trim()) failure.message = error.message;
    if (Array.isArray(error.issues)) {
      for (const issue of error.issues) {
        if (!isRecord(issue) || typeof issue.message !== 'string') continue;
        const path = typeof issue.path === 'string' ? issue.path : '';
        if (path && !(path in failure.fieldErrors)) failure.fieldErrors[path] = issue.message;
      }
    }
    failure.details = error;
  }
  const seconds = retryAfterHeader ? Number.parseInt(retryAfterHeader, 10) : Number.NaN;
  if (Number.isFinite(seconds) && seconds >= 0) failure.retryAfter = seconds;
  return failure;
}

async function readBody(response: ResponseLike): Promise<unknown> {
  if (response.status === 204 || response.status === 205) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!/json/i.test(type)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Awaits a typed-client call and returns `{ ok, data }` or `{ ok: false, error }`. Never throws:
 * a network failure is `status 0`.
 */
export async function send<R extends ResponseLike>(request: Promise<R>): Promise<ApiResult<DataOf<R>>> {
  let response: R;
  try {
    response = await request;
  } catch {
    return { ok: false, error: toApiFailure(0, undefined) };
  }
  let body: unknown;
  try {
    body = await readBody(response);
  } catch {
    body = undefined;
  }
  if (response.ok) return { ok: true, status: response.status, data: body as DataOf<R> };
  return { ok: false, error: toApiFailure(response.status, body, response.headers.get('retry-after')) };
}
