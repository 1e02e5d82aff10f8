import { useRouter } from '@tanstack/react-router';
import { Button } from '#src/components/ui/button.tsx';
import { buttonClass } from '#src/components/ui/button.css.ts';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import * as styles from '#src/features/privacy/privacy.css.ts';
import { EXPORT_URL, eraseAccount, SIGNED_CONTRACT_URL, withdrawConsent } from '#src/features/privacy/privacy-api.ts';
import { type ConsentStatus, formatDate, MatchmakingPausedNotice, useConsents } from '#src/features/privacy/privacy-status.tsx';
import { notify } from '#src/lib/notifications.ts';
import { useSession, useSessionStore } from '#src/lib/use-session.ts';
import { consentTexts, currentConsentText } from '#machines/privacy/consent-texts.ts';
import { type ActionOutcome, ActionDialog } from '#src/components/ui/action-dialog.tsx';

/** The whole « Mes données personnelles » part of `/mon-compte/mon-profil`. */
export function PrivacySection() {
  const { consents, matchmaking, error, reload } = useConsents();
  return (
    <>
      <MatchmakingPausedNotice matchmaking={matchmaking} />
      <section className={styles.section} aria-labelledby="privacy-consents">
        <h2 id="privacy-consents" className={styles.heading}>
          Mes consentements
        </h2>
        <p className={styles.text}>
          Chaque consentement est enregistré avec sa date et la version exacte du texte que vous avez accepté. Vous pouvez retirer celui qui
          concerne votre pratique religieuse aussi simplement que vous l’avez donné.
        </p>
        <FormAlert tone="error">{error}</FormAlert>
        {consents === null ? (
          error ? null : (
            <p className={styles.status} role="status">
              Chargement…
            </p>
          )
        ) : consents.length === 0 ? (
          <p className={styles.text}>Aucun consentement enregistré pour le moment.</p>
        ) : (
          <ul className={styles.list}>
            {consents.map((consent) => (
              <ConsentItem key={consent.kind} consent={consent} onChanged={reload} />
            ))}
          </ul>
        )}
      </section>
      <ExportSection />
      <EraseSection />
    </>
  );
}

function ConsentItem({ consent, onChanged }: { consent: ConsentStatus; onChanged: () => Promise<void> }) {
  const text = consentTexts[consent.kind].versions[consent.version] ?? currentConsentText(consent.kind);
  const titleId = `consent-${consent.kind}`;

  const confirm = async (): Promise<string | null> => {
    const result = await withdrawConsent(consent.kind);
    if (!result.ok) return result.error.message;
    notify({ title: 'Consentement retiré', description: result.data.matchmaking.message, variant: 'success' });
    await onChanged();
    return null;
  };

  return (
    <li className={styles.item} aria-labelledby={titleId} data-testid={`consent-${consent.kind}`}>
      <h3 id={titleId} className={styles.itemTitle}>
        {consent.title}
      </h3>
      <p className={styles.status}>
        {consent.given ? 'Donné' : 'Retiré'} le {formatDate(consent.at)} — version du {consent.version}
      </p>
      <p className={styles.text}>« {text.label} »</p>
      {consent.withdrawable ? (
        <div className={styles.actions}>
          <ActionDialog
            trigger={<Button variant="secondary">Retirer ce consentement</Button>}
            title="Retirer votre consentement ?"
            description={consent.effect}
            submitLabel="Oui, retirer mon consentement"
            busyLabel="Retrait en cours…"
            onSubmit={confirm}
          />
        </div>
      ) : (
        <p className={styles.status}>{consent.effect}</p>
      )}
    </li>
  );
}

function ExportSection() {
  const { user } = useSession();
  const signed = user?.subscription.subscriptionDate != null;
  return (
    <section className={styles.section} aria-labelledby="privacy-export">
      <h2 id="privacy-export" className={styles.heading}>
        Télécharger mes données
      </h2>
      <p className={styles.text}>
        Un fichier JSON avec tout ce que nous détenons sur vous : compte, informations personnelles, questionnaire, formule, paiements,
        rendez-vous, messages (y compris ceux du formulaire de contact), photos, consentements, suivi et historique de votre dossier.
      </p>
      <div className={styles.actions}>
        <a className={buttonClass.secondary} href={EXPORT_URL} download>
          Télécharger mes données (JSON)
        </a>
        {signed ? (
          <a className={buttonClass.ghost} href={SIGNED_CONTRACT_URL} download>
            Mon contrat signé (PDF)
          </a>
        ) : null}
      </div>
    </section>
  );
}

function EraseSection() {
  const router = useRouter();
  const session = useSessionStore();
  const { user } = useSession();
  const erase = async (data: FormData): Promise<ActionOutcome> => {
    const email = String(data.get('email') ?? '').trim();
    if (!user || email.toLowerCase() !== user.email.toLowerCase()) {
      return { fieldErrors: { email: 'Saisissez l’adresse e-mail de votre compte, exactement.' } };
    }
    const result = await eraseAccount(email);
    if (!result.ok) {
      const { email: emailError } = result.error.fieldErrors;
      return emailError ? { fieldErrors: { email: emailError } } : result.error.message;
    }
    await router.navigate({ to: '/' });
    session.clear();
    notify({ title: 'Votre compte a été supprimé', description: result.data.message, variant: 'success' });
    return null;
  };

  return (
    <section className={`${styles.section} ${styles.danger}`} aria-labelledby="privacy-erase">
      <h2 id="privacy-erase" className={styles.heading}>
        Supprimer mon compte
      </h2>
      <p className={styles.text}>
        Vos informations personnelles, votre questionnaire, vos messages et vos consentements sont effacés ou rendus anonymes, et votre
        compte est fermé sur tous vos appareils. La loi nous oblige à conserver votre contrat signé et les pièces comptables de vos
        paiements pendant 10 ans, à part et en accès restreint. Cette action est définitive.
      </p>
      <div className={styles.actions}>
        <ActionDialog
          trigger={<Button variant="secondary">Supprimer mon compte…</Button>}
          title="Supprimer définitivement votre compte ?"
          description="Pour confirmer, saisissez l’adresse e-mail de votre compte. Vos données seront effacées et vous serez déconnecté(e)."
          submitLabel="Supprimer définitivement"
          busyLabel="Suppression…"
          tone="danger"
          onSubmit={erase}
        >
          {(fieldErrors) => (
            <TextField name="email" type="email" label="Adresse e-mail du compte" autoComplete="off" required error={fieldErrors.email} />
          )}
        </ActionDialog>
      </div>
    </section>
  );
}
