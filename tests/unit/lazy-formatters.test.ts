import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazy } from '#machines/lazy.ts';

/**
 * `Intl` formatters are built at their first use, never while a module loads (decision 158): each
 * costs milliseconds (ICU loads its locale and time-zone data), paid in the long task that
 * evaluates a page's modules before its first paint, for formatters it may never use.
 */

const KINDS = ['DateTimeFormat', 'NumberFormat', 'PluralRules', 'Collator', 'RelativeTimeFormat', 'ListFormat'] as const;

/** Counts the `Intl` objects built from now on, by kind, until `restore`. */
function countIntl() {
  const built: string[] = [];
  const originals = KINDS.map((kind) => [kind, Intl[kind]] as const);
  for (const [kind, original] of originals) {
    const counting = new Proxy(original, {
      construct(target, args, newTarget) {
        built.push(kind);
        return Reflect.construct(target, args, newTarget);
      },
      apply(target, thisArg, args) {
        built.push(kind);
        return Reflect.apply(target as unknown as (...a: unknown[]) => unknown, thisArg, args);
      },
    });
    Object.defineProperty(Intl, kind, { value: counting, configurable: true, writable: true });
  }
  return {
    built,
    restore: () => {
      for (const [kind, original] of originals) Object.defineProperty(Intl, kind, { value: original, configurable: true, writable: true });
    },
  };
}

/** Every module of `machines/` (shared by the SPA and the server) and the dashboard's formats, loaded on demand. */
const modules = import.meta.glob(['/machines/**/*.ts', '!/machines/**/*.test.ts', '/src/features/dashboard/format-fr.ts']);

describe('lazy', () => {
  it('makes its value at the first call only, then returns the same one', () => {
    const make = vi.fn(() => ({ made: true }));
    const value = lazy(make);
    expect(make).not.toHaveBeenCalled();
    const first = value();
    expect(value()).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
  });
});

describe('Intl formatters', () => {
  let counter: ReturnType<typeof countIntl> | undefined;
  afterEach(() => counter?.restore());

  it('are not built while the shared modules load, only when a date or an amount is written', async () => {
    expect(Object.keys(modules).length).toBeGreaterThan(40);
    vi.resetModules();
    counter = countIntl();
    for (const load of Object.values(modules)) await load();
    expect(counter.built).toEqual([]);

    // The counter sees a formatter built at its first use, and only that one.
    const loadFormats = modules['/src/features/dashboard/format-fr.ts'];
    if (!loadFormats) throw new Error('format-fr.ts is missing from the glob');
    const { formatDateTime, formatAmount } = (await loadFormats()) as typeof import('#src/features/dashboard/format-fr.ts');
    expect(formatDateTime('2026-12-01T08:05:00Z')).toBe('1er déc. 2026 à 9\u00a0h\u00a005');
    expect(formatAmount(9500)).toBe('95,00\u00a0€');
    formatAmount(100);
    expect(counter.built.sort()).toEqual(['DateTimeFormat', 'DateTimeFormat', 'NumberFormat']);
  });
});
