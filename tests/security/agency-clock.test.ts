import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '#bff/clock.ts';
import { isErrorShape, type SecurityProduct } from '#tests/security/support.ts';
import { startTestProduct, TEST_SITE } from '#tests/support/test-product.ts';

/**
 * `/_local/clock` under attack (decision 170): whatever the body, the headers or the caller, it
 * never answers 5xx, refusals have the API's error shape, the clock never goes back, and only a
 * valid move from the site's own Origin moves it.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
let product: SecurityProduct;
beforeAll(async () => {
  product = await startTestProduct({ clock: fakeClock('2027-01-04T09:00:00Z') });
});
afterAll(() => product.stop());

const nowOf = async () => Date.parse(((await (await product.app.request(`${TEST_SITE}/_local/clock`)).json()) as { now: string }).now);

const bodyArbitrary = fc.oneof(
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        days: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.integer(), fc.double(), fc.string(), fc.constant(null)),
        to: fc.oneof(
          fc.string(),
          fc.date({ min: new Date('2000-01-01'), max: new Date('2027-02-01'), noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constantFrom('2027-13-45T99:99', '2027-01-05T10:00', 'demain', '0000-00-00T00:00:00Z'),
        ),
        extra: fc.string(),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.string(),
);

const headersArbitrary = fc.record(
  {
    'content-type': fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data'),
    origin: fc.constantFrom(TEST_SITE, 'https://attaquant.example', 'null', TEST_SITE.replace('http:', 'https:')),
    'sec-fetch-site': fc.constantFrom('same-origin', 'cross-site', 'same-site', 'none'),
  },
  { requiredKeys: [] },
);

describe('/_local/clock, fuzzed', () => {
  it('never answers 5xx, never goes back, and moves only on a valid body from the site', async () => {
    let last = await nowOf();
    let moves = 0;
    await fc.assert(
      fc.asyncProperty(bodyArbitrary, headersArbitrary, async (body, headers) => {
        const response = await product.app.request(`${TEST_SITE}/_local/clock`, { method: 'POST', headers, body });
        expect(response.status).toBeLessThan(500);
        const text = await response.text();
        const now = await nowOf();
        expect(now).toBeGreaterThanOrEqual(last);
        const fromSite = headers.origin === TEST_SITE || (headers.origin === undefined && headers['sec-fetch-site'] === 'same-origin');
        if (!fromSite) {
          expect(response.status).toBe(403);
          expect(now).toBe(last);
        }
        if (response.status !== 200) {
          expect(now).toBe(last);
          if (!/html/.test(response.headers.get('content-type') ?? '')) expect(isErrorShape(JSON.parse(text))).toBe(true);
        } else moves += 1;
        // A valid move goes at most 3 days ahead, or to a date before February 2027.
        expect(now).toBeLessThanOrEqual(Math.max(Date.parse('2027-02-01T00:00:00Z'), last + 3 * DAY_MS));
        last = now;
      }),
      { numRuns: 300 },
    );
    expect(moves).toBeGreaterThan(0);
  });
});
