import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { declaredBodyLimit } from '#bff/http/body-limit.ts';

/**
 * What our wrapper adds to Hono's `bodyLimit` (decision 215): a request that declares its length is
 * settled from `Content-Length` before anything reads `c.req.raw.body` (under @hono/node-server
 * that read builds a web stream over Node's for every later read); a chunked body is still counted
 * by Hono's `bodyLimit` as it streams. The refusal is ours (a French error).
 */
function app() {
  const readBody: boolean[] = [];
  const limited = new Hono()
    .onError((error, c) => c.json({ message: error.message }, 413))
    .use(
      declaredBodyLimit({
        maxSize: 10,
        onError: () => {
          throw new Error('Requête trop volumineuse');
        },
      }),
    )
    .post('/', async (c) => {
      readBody.push(true);
      return c.text(await c.req.text());
    });
  return { limited, readBody };
}

/** A request whose `body` getter records that someone read it (Hono's `bodyLimit` does, ours must not). */
function declared(length: number, declaredLength = length) {
  const request = new Request('http://localhost/', {
    method: 'POST',
    headers: { 'content-length': String(declaredLength) },
    body: 'x'.repeat(length),
  });
  let touched = false;
  const raw = request.body;
  Object.defineProperty(request, 'body', {
    get: () => {
      touched = true;
      return raw;
    },
  });
  return { request, touched: () => touched };
}

describe('declaredBodyLimit (Hono’s bodyLimit, settled from Content-Length first)', () => {
  it('refuses a declared length over the limit with our error, without reading the body', async () => {
    const { limited, readBody } = app();
    const over = declared(11);
    const answer = await limited.fetch(over.request);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ message: 'Requête trop volumineuse' });
    expect(over.touched()).toBe(false);
    expect(readBody).toEqual([]);
  });

  it('lets a declared length within the limit through without the middleware reading the body', async () => {
    const { limited } = app();
    const within = declared(10);
    const { request } = within;
    // Read by the handler only: the middleware itself went on at once.
    let touchedBeforeHandler = true;
    const handlerApp = new Hono()
      .use(
        declaredBodyLimit({
          maxSize: 10,
          onError: () => {
            throw new Error('trop');
          },
        }),
      )
      .post('/', (c) => {
        touchedBeforeHandler = within.touched();
        return c.text('ok');
      });
    expect((await handlerApp.fetch(request)).status).toBe(200);
    expect(touchedBeforeHandler).toBe(false);
    expect((await limited.fetch(declared(10).request)).status).toBe(200);
  });

  it('counts a chunked body as it streams (Hono’s bodyLimit) and refuses it past the limit', async () => {
    const { limited, readBody } = app();
    const chunked = (text: string) =>
      new Request('http://localhost/', {
        method: 'POST',
        headers: { 'transfer-encoding': 'chunked' },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(text));
            controller.close();
          },
        }),
        // @ts-expect-error Node's fetch needs it for a stream body.
        duplex: 'half',
      });
    const over = await limited.fetch(chunked('x'.repeat(11)));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ message: 'Requête trop volumineuse' });
    const within = await limited.fetch(chunked('x'.repeat(10)));
    expect(within.status).toBe(200);
    expect(await within.text()).toBe('x'.repeat(10));
    expect(readBody.length).toBeGreaterThanOrEqual(1);
  });
});
