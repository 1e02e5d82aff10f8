import { expect, type Page, test } from '@playwright/test';

/**
 * The page checked at both widths the product is checked at (390 px and 1440 px), and — with
 * `SCREENSHOTS=1` (decision 162) — full-page shots (the screen alone while a dialog is open) into
 * this test's output folder (`test-results/…/<name>-<width>.png`), from the top with nothing
 * focused (a full-page shot of a scrolled page repeats the sticky header). The viewport is
 * restored after. Without `SCREENSHOTS=1` no picture is written: nothing compares them, a person
 * looks at them when asked.
 *
 * Each shot also holds the page to the screen's width: a page that scrolls sideways fails, naming
 * the elements that reach past the right edge. An open dialog must fit the screen, whose page
 * does not scroll under it: one that reaches past an edge fails, with its title out of reach.
 */
/** Whether pictures are written (`SCREENSHOTS=1`); the width checks run always. */
export const SHOTS = process.env.SCREENSHOTS === '1';

export async function screenshots(page: Page, name: string, fullPage = true): Promise<void> {
  const size = page.viewportSize();
  // An open dialog is seen on the screen, over the page the scroll lock holds: a full-page shot
  // would stretch that page under it (the sticky header in its middle), which no one ever sees.
  const wholePage = fullPage && (await page.locator('[role="dialog"], [role="alertdialog"]').count()) === 0;
  // `instant`: the site scrolls smoothly (CSS and Lenis), and a shot taken mid-way draws the sticky
  // header and the skip link over the middle of the page.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo({ top: 0, behavior: 'instant' });
  });
  // Lenis, once loaded, may carry on its own scroll: ask again until the top is reached, and never
  // hold the test for the shot (5 s at most; it then shows the page as it is).
  if (SHOTS && wholePage) {
    await page
      .waitForFunction(
        () => {
          window.scrollTo({ top: 0, behavior: 'instant' });
          return window.scrollY === 0;
        },
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
  }
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    if (SHOTS) await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: wholePage });
    expect(await pastTheRightEdge(page), `${name} scrolls sideways at ${width} px`).toEqual([]);
    expect(await brokenInTables(page), `${name}: a word or a number broken across lines in a table at ${width} px`).toEqual([]);
    if (!wholePage) expect(await dialogsOffScreen(page), `${name}: a dialog reaches past the screen at ${width} px`).toEqual([]);
  }
  if (size) await page.setViewportSize(size);
}

/**
 * When the page is wider than its screen: the innermost elements whose box, or whose text (a word
 * too long for its line overflows a box that fits), ends past the page's width; never an empty
 * list, so a page that scrolls sideways always fails.
 */
function pastTheRightEdge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth <= width) return [];
    const ownsItsOverflow = (element: Element) =>
      element.matches('input, textarea, select') || getComputedStyle(element).overflowX !== 'visible';
    const past = [...document.body.querySelectorAll('*')].filter((element) => {
      const box = element.getBoundingClientRect();
      const textOverflow = ownsItsOverflow(element) ? 0 : element.scrollWidth - element.clientWidth;
      return box.right + Math.max(0, textOverflow) > width + 0.5;
    });
    const innermost = past
      .filter((element) => !past.some((other) => other !== element && element.contains(other)))
      .slice(0, 5)
      .map((element) => `<${element.tagName.toLowerCase()} class="${element.className}"> ${(element.textContent ?? '').slice(0, 60)}`);
    return innermost.length > 0 ? innermost : [`the page is ${pageWidth} px wide`];
  });
}

/**
 * The words and numbers of a table's cells that a line break cuts in two (« Mens/ualité »,
 * « 85,0/0 € », decision 198): each piece of a cell's text between the places French may break a
 * line (an ordinary space, after a hyphen, a slash or a dash, as in « 28–40 »; never a non-breaking
 * space) must lie on one line, which a Range's client rectangles tell (two lines: two tops).
 */
function brokenInTables(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const cell of document.querySelectorAll('table th, table td, table caption')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/[^ \t\n\-/–—]+[-/–—]?/g)) {
          // An address is no word: a long one in a narrow cell may wrap anywhere.
          if (match[0].includes('@')) continue;
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(`« ${match[0]} » in « ${(cell.textContent ?? '').trim().slice(0, 60)} »`);
        }
      }
    }
    return broken.slice(0, 10);
  });
}

/** The open dialogs (their titles) whose box reaches past an edge of the screen. */
function dialogsOffScreen(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')]
      .filter((dialog) => {
        const box = dialog.getBoundingClientRect();
        return box.top < -0.5 || box.left < -0.5 || box.bottom > window.innerHeight + 0.5 || box.right > window.innerWidth + 0.5;
      })
      .map((dialog) => (dialog.querySelector('h1, h2, h3')?.textContent ?? dialog.id).slice(0, 60)),
  );
}
