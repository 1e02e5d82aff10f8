import { useQuery } from '@tanstack/react-query';
import { bookingQuery } from '#src/features/onboarding/onboarding-queries.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { formatParis, StepPage } from '#src/features/onboarding/step-page.tsx';
import { useStateWatch } from '#src/features/onboarding/use-state-watch.ts';
import { useSession } from '#src/lib/use-session.ts';

/** Step 7: the onboarding meeting is booked; its date (Paris time) and what happens next. */
export function MeetingWaitPage() {
  const { user } = useSession();
  const booking = useQuery(bookingQuery).data ?? null;
  // Staff validate the meeting from the dashboard: the page moves on by itself.
  useStateWatch();

  const date = booking?.startTime ?? user?.subscription.onboardingMeetingDate ?? null;

  return (
    <StepPage step="attente-entretien-personnalise" title="Votre entretien personnalisé">
      <section className={styles.section} aria-labelledby="meeting">
        <h2 id="meeting" className={styles.sectionTitle}>
          Rendez-vous confirmé
        </h2>
        <p>
          Votre entretien avec une conseillère aura lieu le{' '}
          <strong>{date ? <time dateTime={new Date(date).toISOString()}>{formatParis(date)}</time> : 'date à confirmer'}</strong> (heure de
          Paris).
        </p>
        {booking?.rescheduleUrl || booking?.cancelUrl ? (
          <div className={styles.actions}>
            {booking.rescheduleUrl ? <a href={booking.rescheduleUrl}>Changer de créneau</a> : null}
            {booking.cancelUrl ? <a href={booking.cancelUrl}>Annuler le rendez-vous</a> : null}
          </div>
        ) : null}
      </section>
      <section className={styles.section} aria-labelledby="next">
        <h2 id="next" className={styles.sectionTitle}>
          Et ensuite ?
        </h2>
        <ol className={styles.list}>
          <li>La conseillère vous appelle à l’heure prévue pour faire connaissance et répondre à vos questions.</li>
          <li>Après l’entretien, elle valide votre dossier : vous recevez alors votre contrat à remplir et à signer ici.</li>
          <li>Sept jours après la signature, vous pourrez régler votre abonnement.</li>
        </ol>
        <p className={styles.text} role="status">
          Cette page se met à jour d’elle-même : dès que votre entretien est validé, vous passez à l’étape suivante.
        </p>
      </section>
    </StepPage>
  );
}
