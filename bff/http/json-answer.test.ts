import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { jsonAnswer, prepareHeader } from '#bff/http/json-answer.ts';

const app = new Hono()
  .get('/plain', (c) => jsonAnswer(c, '{"a":1}', 200, { 'Cache-Control': 'private, no-store' }))
  .get('/prepared', (c) => {
    prepareHeader(c, 'Set-Cookie', 'a=1; Path=/', { append: true });
    prepareHeader(c, 'Set-Cookie', 'b=2; Path=/', { append: true });
    prepareHeader(c, 'Cache-Control', 'private, no-cache, no-store, must-revalidate, max-age=0');
    return jsonAnswer(c, '{"a":1}', 200, { 'Cache-Control': 'private, no-store' });
  });

describe('jsonAnswer (decision 093)', () => {
  it('answers the JSON with its headers', async () => {
    const response = await app.request('/plain');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(await response.json()).toEqual({ a: 1 });
  });

  it('keeps the headers prepared on the context (a refreshed session’s cookies); the route’s own win', async () => {
    const response = await app.request('/prepared');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ a: 1 });
  });
});
