import * as styles from '#src/features/account/account.css.ts';
import { useSession } from '#src/lib/use-session.ts';
import { PrivacySection } from '#src/features/privacy/privacy-section.tsx';

/** `/mon-compte/mon-profil` placeholder. */
export function MyProfilePage() {
  const { user } = useSession();
  return (
    <>
      <h1 className={styles.title}>Mon profil</h1>
      <dl className={styles.panel}>
        <dt>Adresse e-mail</dt>
        <dd>{user?.email ?? '—'}</dd>
      </dl>
      <PrivacySection />
    </>
  );
}
