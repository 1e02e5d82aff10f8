import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import type { FieldErrors } from '#src/lib/api-client.ts';

/** What a submit handler returns: nothing on success, or the errors to show. */
export interface SubmitOutcome {
  fieldErrors?: FieldErrors;
  formError?: string;
}

/**
 * Form state for the real forms of the app: one submission at a time, field and form errors, and
 * focus moved to the first invalid field (in DOM order) once errors are shown.
 */
export function useForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [focusRequest, setFocusRequest] = useState(0);
  const busy = useRef(false);

  useEffect(() => {
    if (focusRequest === 0) return;
    const form = formRef.current;
    const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  }, [focusRequest]);

  const handleSubmit = useCallback(
    (submit: (data: FormData) => Promise<SubmitOutcome | undefined> | SubmitOutcome | undefined) =>
      async (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        if (busy.current) return;
        busy.current = true;
        setSubmitting(true);
        setFormError(null);
        try {
          const outcome = await submit(new FormData(event.currentTarget));
          const nextFieldErrors = outcome?.fieldErrors ?? {};
          setFieldErrors(nextFieldErrors);
          setFormError(outcome?.formError ?? null);
          if (Object.keys(nextFieldErrors).length > 0) setFocusRequest((n) => n + 1);
        } catch {
          setFormError('Une erreur inattendue est survenue. Veuillez réessayer.');
        } finally {
          busy.current = false;
          setSubmitting(false);
        }
      },
    [],
  );

  /** Clears the errors shown (a dialog closed and opened again starts clean). */
  const reset = useCallback(() => {
    setFieldErrors({});
    setFormError(null);
  }, []);

  return { formRef, fieldErrors, formError, submitting, handleSubmit, reset };
}
