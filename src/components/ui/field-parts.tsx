import { useId } from 'react';
import * as styles from '#src/components/ui/field.css.ts';

/**
 * The ids that tie a field to its hint and its error: `describedBy` names those shown, so that a
 * screen reader reads them with the field. Every field of the product takes them from here.
 */
export function useFieldIds(shown: { hint?: unknown; error?: unknown }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [shown.hint ? hintId : '', shown.error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return { id, hintId, errorId, describedBy };
}

/** A field's error, under it, with the id its `aria-describedby` names; nothing without one. */
export function FieldError({ id, error }: { id: string; error?: string | undefined }) {
  return error ? (
    <p id={id} className={styles.error}>
      {error}
    </p>
  ) : null;
}
