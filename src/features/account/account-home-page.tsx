import { Link } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import * as styles from '#src/features/account/account.css.ts';
import { useSession } from '#src/lib/use-session.ts';
import { welcome } from '#src/features/account/welcome.ts';
import { MatchmakingPausedNotice, useConsents } from '#src/features/privacy/privacy-status.tsx';

const AccountHomeSections = lazy(() =>
  import('#src/features/account/account-home-sections.tsx').then((m) => ({ default: m.AccountHomeSections })),
);

/** `/mon-compte` of an active member (members still onboarding are sent to their current step). */
export function AccountHomePage() {
  const { user } = useSession();
  const active = user?.state === 'membre-actif';
  const { matchmaking } = useConsents();
  return (
    <>
      <h1 className={styles.title}>Mon compte</h1>
      <p className={styles.text}>{welcome(user?.firstName)}</p>
      <MatchmakingPausedNotice matchmaking={matchmaking} />
      <section className={styles.panel} aria-labelledby="account-next">
        <h2 id="account-next">{active ? 'Votre accompagnement' : 'Votre espace'}</h2>
        {active ? (
          <>
            <p className={styles.text}>
              Votre inscription est terminée et votre entretien de rapprochement a eu lieu : vous êtes membre actif. Votre conseillère vous
              présente les profils compatibles et vous accompagne avant et après chaque rencontre.
            </p>
            <p className={styles.text}>
              <a href="/api/v1/user/contract/signed.pdf" target="_blank" rel="noopener" type="application/pdf">
                Télécharger mon contrat (PDF)
              </a>
            </p>
          </>
        ) : (
          <p className={styles.text}>
            Retrouvez vos informations dans <Link to="/mon-compte/mon-profil">Mon profil</Link>.
          </p>
        )}
      </section>
      <Suspense fallback={<div className={styles.sectionsPending} />}>
        <AccountHomeSections />
      </Suspense>
    </>
  );
}
