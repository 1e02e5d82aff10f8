import type { Page } from '@playwright/test';
import { type ContractDeadlines, contractDeadlines } from '#machines/onboarding/legal-deadlines.ts';

/**
 * The signed member's legal deadlines (civil days, Paris: decision 165), from the signature the
 * server recorded, so that a spec moves its clock to the instant a period ends rather than by
 * 7 × 24 hours, which a weekend, a holiday or the hour of signature would make wrong.
 */
export async function deadlinesOf(page: Page, base: string): Promise<ContractDeadlines> {
  const settings = (await (await page.request.get(`${base}/api/v1/user/settings`)).json()) as {
    subscription: { subscriptionDate: string | null };
  };
  const deadlines = contractDeadlines(settings.subscription.subscriptionDate);
  if (deadlines === null) throw new Error('the member has not signed');
  return deadlines;
}
