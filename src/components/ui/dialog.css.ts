import { style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

/**
 * Every Radix dialog of the product, member area and dashboard alike: a dimmed overlay and a
 * centred panel that never outgrows the screen — a taller one (a lead's notes and history on a
 * phone) scrolls inside, its title and close button within reach.
 */
// The overlay shares the panel's layer: a dialog opened from another (the confirmation of a lead's
// erasure over the lead's dialog) dims the first one, by the order they were opened in.
export const overlay = style({ position: 'fixed', inset: 0, backgroundColor: 'rgb(3 7 18 / 0.5)', zIndex: vars.zIndex.dialog });
export const dialog = style({
  position: 'fixed',
  top: '50%',
  left: '50%',
  transform: 'translate(-50%, -50%)',
  width: 'min(30rem, calc(100vw - 2rem))',
  maxHeight: 'calc(100dvh - 2rem)',
  overflowY: 'auto',
  backgroundColor: vars.color.background,
  borderRadius: vars.radius.lg,
  boxShadow: vars.shadow.lg,
  padding: vars.space[6],
  display: 'flex',
  flexDirection: 'column',
  gap: vars.space[4],
  zIndex: vars.zIndex.dialog,
});
export const dialogTitle = style({ margin: 0, fontSize: vars.fontSize.lg, fontWeight: vars.fontWeight.semibold });
/** What the action does: muted text under the title. */
export const dialogDescription = style({ margin: 0, color: vars.color.textMuted });
/** What a destructive action does: it must be read, not skimmed. */
export const dialogWarning = style({ margin: 0, fontWeight: vars.fontWeight.medium });
/** The dialog's form: its fields, its error, its buttons, one under the other. */
export const dialogBody = style({ display: 'flex', flexDirection: 'column', gap: vars.space[4] });
export const dialogActions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space[3] });
