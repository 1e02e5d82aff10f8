import * as sections from '#src/features/public-site/sections.css.ts';

/**
 * The public pages' icons: inline SVG drawn with the text colour (`currentColor`), decorative
 * (`aria-hidden`, the text beside each says what it means). Only the deferred sections use them,
 * so they are static markup in the prerendered HTML and cost no first-load JavaScript.
 */
const PATHS = {
  /** Pre-registration: a form with a pen. */
  form: 'M9 3h6l1 2h3v16H5V5h3zM9 3v3h6V3M8 11h8M8 15h5',
  /** Introduce oneself: a person with a speech bubble. */
  person: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M16 4h6v5h-3l-2 2V9h-1z',
  /** Choose a plan: a card. */
  card: 'M3 6h18v12H3zM3 10h18M7 15h4',
  /** The personal interview: a calendar with a check. */
  calendar: 'M4 5h16v16H4zM4 9h16M8 3v4M16 3v4M9 15l2 2 4-4',
  /** The contract: a document with a signature. */
  contract: 'M6 3h9l4 4v14H6zM14 3v5h5M9 13h7M9 17c1.5-2 2.5-2 3 0s1.5 2 3 0',
  /** Introductions: two hearts/people joined. */
  handshake: 'M12 20s-7-4.5-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.5-7 10-7 10zM9 11h6',
  /** Listening: an ear / speech. */
  listen: 'M4 5h16v11H9l-5 4zM8 9h8M8 12h5',
  /** Chosen proposals: a target. */
  target: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10zM12 13a1 1 0 1 0 0-2 1 1 0 0 0 0 2z',
  /** Respectful frame, family, wali: a group. */
  family: 'M8 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM16 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM2 20a6 6 0 0 1 12 0M12 20a6 6 0 0 1 10 0',
  /** Discretion: a lock. */
  lock: 'M5 11h14v10H5zM8 11V7a4 4 0 0 1 8 0v4M12 15v2',
  /** No published profile: an eye struck through. */
  eyeOff:
    'M3 3l18 18M10.6 5.1A10 10 0 0 1 22 12a17 17 0 0 1-3 3.6M6.6 6.6A17 17 0 0 0 2 12s3.6 7 10 7a9.7 9.7 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2',
  /** Fixed term, no tacit renewal: a calendar with an end. */
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM9 12l2 2 4-4',
  /** Human follow-up: a clock. */
  clock: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 7v5l3 2',
  check: 'M5 12l5 5L20 7',
  /** Opening quotation mark (drawn filled). */
  quote: 'M4 11c0-3 1.5-5 4.5-6l.7 1.4C7.4 7.3 6.7 8.5 6.6 10H10v7H4zM14 11c0-3 1.5-5 4.5-6l.7 1.4c-1.8.9-2.5 2.1-2.6 3.6H20v7h-6z',
  arrow: 'M5 12h14M13 6l6 6-6 6',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 24, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill={name === 'quote' ? 'currentColor' : 'none'}
      stroke={name === 'quote' ? 'none' : 'currentColor'}
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...(className ? { className } : {})}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}

/** An icon in a round badge (the cards of the designed sections). */
export function IconBadge({ name }: { name: IconName }) {
  return (
    <span className={sections.icon}>
      <Icon name={name} />
    </span>
  );
}
