import { describe, expect, it } from 'vitest';
import { send, toApiFailure } from '#src/lib/api-client.ts';

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

describe('toApiFailure', () => {
  it('maps issues to field errors, first message per field', () => {
    const failure = toApiFailure(400, {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'Données invalides',
        issues: [
          { path: 'email', message: 'Email invalide' },
          { path: 'email', message: 'second' },
          { path: 'password', message: 'Trop court' },
          { path: '', message: 'form level' },
        ],
      },
    });
    expect(failure).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Données invalides',
      fieldErrors: { email: 'Email invalide', password: 'Trop court' },
    });
  });

  it('keeps the server message of a 429 and reads Retry-After', () => {
    const failure = toApiFailure(
      429,
      { error: { code: 'over_request_rate_limit', message: 'Trop de tentatives, réessayez dans une minute.' } },
      '60',
    );
    expect(failure.message).toBe('Trop de tentatives, réessayez dans une minute.');
    expect(failure.retryAfter).toBe(60);
  });

  it('falls back to a French message for bodies of another shape', () => {
    expect(toApiFailure(502, '<html>').message).toMatch(/erreur inattendue/);
    expect(toApiFailure(429, null).message).toMatch(/Trop de tentatives/);
    expect(toApiFailure(0, undefined).code).toBe('NETWORK');
  });
});

describe('send', () => {
  it('returns the parsed data of a success', async () => {
    const result = await send(Promise.resolve(jsonResponse(200, { id: 'u1' })));
    expect(result).toEqual({ ok: true, status: 200, data: { id: 'u1' } });
  });

  it('returns a failure for an error answer and for a network error', async () => {
    const failed = await send(Promise.resolve(jsonResponse(401, { error: { code: 'UNAUTHORIZED', message: 'Non connecté' } })));
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', message: 'Non connecté' });
    const network = await send(Promise.reject(new TypeError('Failed to fetch')));
    expect(network.ok).toBe(false);
    if (!network.ok) expect(network.error.status).toBe(0);
  });

  it('accepts an empty success body', async () => {
    const result = await send(Promise.resolve(new Response(null, { status: 204 })));
    expect(result).toEqual({ ok: true, status: 204, data: undefined });
  });
});
