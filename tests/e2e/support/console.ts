import type { ConsoleMessage, Page } from '@playwright/test';

/**
 * Collects the page's console errors and uncaught exceptions: a test fails on any, as a visitor
 * would notice a broken page. `allowedStatuses` names HTTP statuses a test expects on purpose
 * (e.g. 400 for a refused sign-in), whose "Failed to load resource" lines are then not errors.
 */
export function watchConsole(page: Page, allowedStatuses: number[] = []): string[] {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (/Failed to load resource/.test(text) && allowedStatuses.some((status) => text.includes(`status of ${status}`))) return;
    errors.push(text);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  // Name the request behind a "Failed to load resource" line, so a failure says what failed.
  page.on('response', (response) => {
    if (response.status() >= 400 && !allowedStatuses.includes(response.status())) {
      errors.push(`HTTP ${response.status()} ${new URL(response.url()).pathname}`);
    }
  });
  return errors;
}
