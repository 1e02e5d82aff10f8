import { style } from '@vanilla-extract/css';
import { vars } from '#src/styles/theme.css.ts';

export const checkboxRow = style({ display: 'flex', gap: vars.space[3], alignItems: 'flex-start', lineHeight: vars.lineHeight.normal });

export const checkbox = style({ width: '1.25rem', height: '1.25rem', marginTop: '0.15rem', flexShrink: 0, accentColor: vars.color.accent });
