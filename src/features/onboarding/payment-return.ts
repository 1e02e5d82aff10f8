import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { ApiFailure } from '#src/lib/api-client.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';

const RETRIES = 4;
const RETRY_MS = 1500;

/**
 * Back from a payment link with `?csid=`: sends `app` or `sub` with the member's e-mail and the
 * checkout session id. The server only accepts a session it knows as paid (its webhook may
 * arrive a little after the redirect: a 402 is retried a few times). Once confirmed, the `csid`
 * is dropped from the address (the payment step may stay on screen for the next part).
 */
export function usePaymentReturn(context: 'app' | 'sub', email: string | undefined, csid: string | undefined) {
  const { update } = useOnboardingUpdate();
  const router = useRouter();
  const started = useRef(false);
  const [status, setStatus] = useState<'idle' | 'confirming' | 'done' | 'failed'>(csid ? 'confirming' : 'idle');
  const [error, setError] = useState<ApiFailure | null>(null);

  useEffect(() => {
    if (!csid || !email || started.current) return;
    started.current = true;
    void (async () => {
      for (let attempt = 0; attempt <= RETRIES; attempt += 1) {
        const result = await update({ context, email, csid });
        if (result.ok) {
          setStatus('done');
          const { pathname, searchStr } = router.state.location;
          if (searchStr.includes('csid=')) await router.navigate({ href: pathname, replace: true });
          return;
        }
        if (result.error.status !== 402 || attempt === RETRIES) {
          setError(result.error);
          setStatus('failed');
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    })();
  }, [context, email, csid, update, router]);

  return { status, error };
}
