import { createGlobalTheme } from '@vanilla-extract/css';

/**
 * The one theme contract of the SPA: green primary, cool gray scale, spacing, radii, type scale.
 * Every `*.css.ts` file reads its values from `vars`; breakpoints are exposed as media queries.
 */

/** Breakpoints of the spec (px), smallest first. */
export const breakpoints = { sm: 640, md: 768, lg: 1024, xl: 1280, '2xl': 1536 } as const;
export type Breakpoint = keyof typeof breakpoints;

/** `@media` helpers, e.g. `'@media': { [media.md]: { … } }` (mobile first: min-width). */
export const media = {
  sm: `screen and (min-width: ${breakpoints.sm}px)`,
  md: `screen and (min-width: ${breakpoints.md}px)`,
  lg: `screen and (min-width: ${breakpoints.lg}px)`,
  xl: `screen and (min-width: ${breakpoints.xl}px)`,
  '2xl': `screen and (min-width: ${breakpoints['2xl']}px)`,
  reducedMotion: '(prefers-reduced-motion: reduce)',
} as const satisfies Record<Breakpoint | 'reducedMotion', string>;

export const vars = createGlobalTheme(':root', {
  color: {
    primary: {
      50: '#f0fdf4',
      100: '#dcfce7',
      200: '#bbf7d0',
      300: '#86efac',
      400: '#4ade80',
      500: '#22c55e',
      600: '#16a34a',
      700: '#15803d',
      800: '#166534',
      900: '#14532d',
      950: '#052e16',
    },
    gray: {
      50: '#f9fafb',
      100: '#f3f4f6',
      200: '#e5e7eb',
      300: '#d1d5db',
      400: '#9ca3af',
      500: '#6b7280',
      600: '#4b5563',
      700: '#374151',
      800: '#1f2937',
      900: '#111827',
      950: '#030712',
    },
    white: '#ffffff',
    /** Text and surfaces (contrast ≥ 4.5:1 on `background`). */
    text: '#111827',
    textMuted: '#4b5563',
    background: '#ffffff',
    surface: '#f9fafb',
    border: '#d1d5db',
    /** Interactive primary (white text on it passes AA). */
    accent: '#15803d',
    accentHover: '#166534',
    accentText: '#ffffff',
    focusRing: '#15803d',
    danger: '#b91c1c',
    dangerSurface: '#fef2f2',
    success: '#15803d',
    successSurface: '#f0fdf4',
    warning: '#a16207',
    warningSurface: '#fefce8',
    info: '#1d4ed8',
    infoSurface: '#eff6ff',
  },
  space: {
    0: '0',
    px: '1px',
    0.5: '0.125rem',
    1: '0.25rem',
    2: '0.5rem',
    3: '0.75rem',
    4: '1rem',
    5: '1.25rem',
    6: '1.5rem',
    8: '2rem',
    10: '2.5rem',
    12: '3rem',
    16: '4rem',
    20: '5rem',
    24: '6rem',
  },
  radius: {
    none: '0',
    sm: '0.25rem',
    md: '0.375rem',
    lg: '0.5rem',
    xl: '0.75rem',
    '2xl': '1rem',
    full: '9999px',
  },
  font: {
    body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    heading: 'Georgia, "Times New Roman", serif',
    mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  },
  fontSize: {
    xs: '0.75rem',
    sm: '0.875rem',
    base: '1rem',
    lg: '1.125rem',
    xl: '1.25rem',
    '2xl': '1.5rem',
    '3xl': '1.875rem',
    '4xl': '2.25rem',
    '5xl': '3rem',
  },
  fontWeight: { normal: '400', medium: '500', semibold: '600', bold: '700' },
  lineHeight: { tight: '1.25', snug: '1.375', normal: '1.5', relaxed: '1.625' },
  shadow: {
    sm: '0 1px 2px 0 rgb(0 0 0 / 0.05)',
    md: '0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)',
    lg: '0 10px 15px -3px rgb(0 0 0 / 0.1), 0 4px 6px -4px rgb(0 0 0 / 0.1)',
  },
  size: {
    container: '80rem',
    prose: '42rem',
    card: '28rem',
    header: '4rem',
  },
  zIndex: { header: '10', overlay: '40', dialog: '50', toast: '60' },
  duration: { fast: '120ms', normal: '200ms' },
});
