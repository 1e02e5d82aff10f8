import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { confirmEmailChange } from '#src/features/account/account-api.ts';
import * as styles from '#src/features/account/account.css.ts';
import { BRAND_NAME } from '#src/features/layout/navigation.ts';
import { useSession, useSessionStore } from '#src/lib/use-session.ts';

const route = getRouteApi('/mon-compte_/confirmer-email');

type Outcome =
  | { kind: 'pending' }
  | { kind: 'done'; message: string }
  | { kind: 'partial'; message: string }
  | { kind: 'failed'; message: string };

// One confirmation per token and page load: a token works once, so a second call (React's
// development double effect, a re-render) must reuse the first answer.
const confirmations = new Map<string, ReturnType<typeof confirmEmailChange>>();

/**
 * `/mon-compte/confirmer-email?token_hash=…&type=email_change` (the link of the confirmation mail):
 * applies the change and says so. No layout, like `/connexion/confirmation`.
 */
export function ConfirmEmailPage() {
  const { token_hash: token, type } = route.useSearch();
  const store = useSessionStore();
  const { status } = useSession();
  const mainRef = useRef<HTMLElement>(null);
  const valid = Boolean(token) && (type === undefined || type === 'email_change');
  const [outcome, setOutcome] = useState<Outcome>(
    valid
      ? { kind: 'pending' }
      : { kind: 'failed', message: 'Ce lien est invalide ou incomplet. Demandez un nouveau changement depuis Mon profil.' },
  );

  useEffect(() => mainRef.current?.focus(), []);
  useEffect(() => {
    if (!valid || !token) return;
    let running = confirmations.get(token);
    if (!running) {
      running = confirmEmailChange(token);
      confirmations.set(token, running);
    }
    let live = true;
    void running.then(async (result) => {
      if (!live) return;
      if (!result.ok) setOutcome({ kind: 'failed', message: result.error.message });
      else if (result.data.done) setOutcome({ kind: 'done', message: result.data.message });
      else setOutcome({ kind: 'partial', message: result.data.message });
      // A signed-in member's header and pages show the new address.
      if (result.ok) await store.refresh();
    });
    return () => {
      live = false;
    };
  }, [token, valid, store]);

  const title =
    outcome.kind === 'pending'
      ? 'Confirmation en cours…'
      : outcome.kind === 'done'
        ? 'Adresse e-mail confirmée'
        : outcome.kind === 'partial'
          ? 'Encore une étape'
          : 'Confirmation impossible';
  const signedIn = status === 'signed-in';
  return (
    <main ref={mainRef} id="contenu" tabIndex={-1} className={styles.standalone} aria-busy={outcome.kind === 'pending'}>
      <p>{BRAND_NAME}</p>
      <h1 className={styles.title}>{title}</h1>
      <FormAlert tone={outcome.kind === 'failed' ? 'error' : 'success'}>{outcome.kind === 'pending' ? null : outcome.message}</FormAlert>
      {outcome.kind === 'pending' ? null : (
        <div className={styles.standaloneActions}>
          {signedIn ? (
            <Link to="/mon-compte/mon-profil" className={buttonClass.primary}>
              Retour à Mon profil
            </Link>
          ) : (
            <Link to="/connexion" className={buttonClass.primary}>
              Se connecter
            </Link>
          )}
          <Link to="/" className={buttonClass.secondary}>
            Retour à l’accueil
          </Link>
        </div>
      )}
    </main>
  );
}
