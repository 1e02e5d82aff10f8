import { type Page, test } from '@playwright/test';

/**
 * Full-page shots at both widths the product is checked at (390 px and 1440 px), into this test's
 * output folder (`test-results/…/<name>-<width>.png`), from the top with nothing focused (a
 * full-page shot of a scrolled page repeats the sticky header). The viewport is restored after.
 */
export async function screenshots(page: Page, name: string, fullPage = true): Promise<void> {
  const size = page.viewportSize();
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage });
  }
  if (size) await page.setViewportSize(size);
}
