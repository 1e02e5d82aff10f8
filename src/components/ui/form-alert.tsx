import type { ReactNode } from 'react';
import * as styles from '#src/components/ui/form-alert.css.ts';

export interface FormAlertProps {
  /** `error` is announced assertively (`role="alert"`), the others politely (`role="status"`). */
  tone: 'error' | 'success' | 'info';
  children?: ReactNode;
  id?: string;
}

/**
 * A live region that stays in the DOM (empty when there is nothing to say), so screen readers
 * announce its content when it changes.
 */
export function FormAlert({ tone, children, id }: FormAlertProps) {
  const hasContent = children !== null && children !== undefined && children !== false && children !== '';
  return (
    <div id={id} role={tone === 'error' ? 'alert' : 'status'} aria-atomic="true" className={styles.region}>
      {hasContent ? <div className={styles.tone[tone]}>{children}</div> : null}
    </div>
  );
}
