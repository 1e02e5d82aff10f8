import { type APIRequestContext, expect, type Page } from '@playwright/test';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The agency's clock of a product, through its HTTP route (`/_local/clock`, decision 170): the
 * walks move time as a person would on the clock's page, and every job due on the way runs
 * (mails, expiries, reminders, instalments, refunds, match profiles, retention) before the move
 * answers.
 */
export async function agencyNow(request: APIRequestContext, base: string): Promise<number> {
  const response = await request.get(`${base}/_local/clock`, { headers: { accept: 'application/json' } });
  expect(response.status()).toBe(200);
  return Date.parse(((await response.json()) as { now: string }).now);
}

/** Moves the agency's clock `ms` ahead, then the pages' clocks to the same instant; answers the new time. */
export async function moveAgencyClock(request: APIRequestContext, base: string, ms: number, pages: Page[] = []): Promise<Date> {
  // Whole days as `days`; otherwise an instant (`to`), read from the clock first (real time runs on).
  const data = ms % DAY === 0 ? { days: ms / DAY } : { to: new Date((await agencyNow(request, base)) + ms).toISOString() };
  const response = await request.post(`${base}/_local/clock`, { data, headers: { origin: base } });
  expect(response.status(), await response.text()).toBe(200);
  const now = new Date(((await response.json()) as { now: string }).now);
  for (const page of pages) await page.clock.setSystemTime(now);
  return now;
}
