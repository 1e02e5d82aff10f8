import { expect, type Page } from '@playwright/test';

/** The first match of `pattern` in a mail to `to`, once the local mailbox has it. */
export async function mailMatch(page: Page, to: string, pattern: RegExp, base = ''): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const mails = (await (await page.request.get(`${base}/_local/mailbox?format=json`)).json()) as { to: string; text: string }[];
        found = mails
          .filter((m) => m.to === to)
          .find((m) => pattern.test(m.text))
          ?.text.match(pattern)?.[0];
        return found;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return found as string;
}
