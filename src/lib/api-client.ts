import { hc } from 'hono/client';
import type { ApiType } from '#bff/api-type.ts';

export * from '#src/lib/api-result.ts';

/**
 * The typed client of the product API (`/api/v1`). The browser never holds a token: the BFF keeps
 * the session in HttpOnly cookies, so every request only sends same-origin credentials.
 *
 * Call an endpoint through `send()` to get a discriminated result instead of a raw `Response`:
 *   const result = await send(api.auth.signin.$post({ json: { email, password } }));
 *   if (!result.ok) showErrors(result.error.fieldErrors, result.error.message);
 */
export const api = hc<ApiType>('/api/v1', { init: { credentials: 'same-origin' } });
