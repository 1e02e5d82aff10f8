import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { bookingLinkQuery } from '#src/features/onboarding/onboarding-queries.ts';
import { ApiError, errorMessage } from '#src/lib/query-client.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { topOf } from '#src/features/onboarding/onboarding-state.ts';
import { StepPage } from '#src/features/onboarding/step-page.tsx';
import { STEP_FRAMES } from '#src/features/onboarding/step-frames.ts';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';

const POLLS = 10;
const POLL_MS = 1000;

function isScheduledMessage(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { event?: unknown }).event === 'calendly.event_scheduled';
}

/**
 * Step 6: book the onboarding meeting on the scheduling page (embedded, or in a new tab). The
 * booking itself reaches the server by webhook; the page's `calendly.event_scheduled` message
 * (checked against the scheduling page's origin) only tells us to reload the session.
 */
export function BookingPage() {
  const { goToCurrent } = useOnboardingUpdate();
  const query = useQuery(bookingLinkQuery);
  const link = query.data ?? null;
  const error =
    query.error instanceof ApiError && query.error.failure.status === 404
      ? 'La prise de rendez-vous en ligne n’est pas encore disponible. Réessayez un peu plus tard.'
      : errorMessage(query.error);
  const [status, setStatus] = useState<string | null>(null);
  const waiting = useRef(false);

  useEffect(() => {
    if (!link) return;
    const origin = link.origin ?? new URL(link.url, window.location.href).origin;
    async function onMessage(event: MessageEvent) {
      if (event.origin !== origin || !isScheduledMessage(event.data) || waiting.current) return;
      waiting.current = true;
      setStatus('Rendez-vous enregistré. Mise à jour de votre espace…');
      for (let i = 0; i < POLLS; i += 1) {
        const state = await goToCurrent();
        if (topOf(state) !== 'prendre-un-rendez-vous') return;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      waiting.current = false;
      setStatus('Votre rendez-vous est en cours de confirmation. Actualisez cette page dans quelques instants.');
    }
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [link, goToCurrent]);

  return (
    <StepPage step="prendre-un-rendez-vous" {...STEP_FRAMES['prendre-un-rendez-vous']}>
      <FormAlert tone="error">{error}</FormAlert>
      <FormAlert tone="success">{status}</FormAlert>
      {link ? (
        <>
          <div className={styles.actions}>
            <a
              href={link.url}
              target="_blank"
              rel="noopener opener"
              onClick={(event) => {
                // Keeps `window.opener` so the agenda can tell this page the booking is made.
                if (window.open(link.url, '_blank')) event.preventDefault();
              }}
            >
              Ouvrir l’agenda dans un nouvel onglet
            </a>
            <Button variant="secondary" onClick={() => void goToCurrent()}>
              J’ai pris rendez-vous : actualiser
            </Button>
          </div>
          <iframe className={styles.frame} src={link.url} title="Agenda de prise de rendez-vous" />
        </>
      ) : error ? null : (
        <p role="status" className={styles.text}>
          Chargement de l’agenda…
        </p>
      )}
    </StepPage>
  );
}
