import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { buttonClass, fullWidth, spinner } from '#src/components/ui/button.css.ts';

type ButtonVariant = keyof typeof buttonClass;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Shows a spinner and `loadingText`, and disables the button. */
  loading?: boolean;
  loadingText?: ReactNode;
  block?: boolean;
}

/**
 * While `loading`, the button is `aria-disabled` (not `disabled`) so it keeps the keyboard focus;
 * clicks are ignored and forms guard against double submission themselves (`useForm`).
 */
export function Button({
  variant = 'primary',
  loading = false,
  loadingText,
  block = false,
  className,
  disabled,
  children,
  type = 'button',
  onClick,
  ...rest
}: ButtonProps) {
  const classes = [buttonClass[variant], block ? fullWidth : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button
      {...rest}
      type={type}
      className={classes}
      disabled={disabled}
      aria-disabled={loading || undefined}
      aria-busy={loading || undefined}
      onClick={(event) => {
        if (loading) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    >
      {loading ? <span className={spinner} aria-hidden="true" /> : null}
      {loading && loadingText ? loadingText : children}
    </button>
  );
}
