import { useState } from 'react';
import * as v from 'valibot';
import { contractFormSchema } from '#machines/onboarding/forms.ts';
import { NO_PAYMENT_PERIOD_DAYS, subscriptionPaymentOpensAt, WITHDRAWAL_PERIOD_DAYS } from '#machines/onboarding/periods.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { Countdown } from '#src/features/onboarding/countdown.tsx';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import { CONTRACT_PDF_URL, flattenFieldErrors, topLevelFieldErrors } from '#src/features/onboarding/onboarding-api.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { subOf } from '#src/features/onboarding/onboarding-state.ts';
import { formatParis, StepPage } from '#src/features/onboarding/step-page.tsx';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { textOf } from '#src/lib/form.ts';
import { useSession } from '#src/lib/use-session.ts';
import { currentConsentText } from '#machines/privacy/consent-texts.ts';

/** The exact text whose hash is stored with the acceptance (machines/privacy/consent-texts.ts). */
const CONTRACT_TERMS_CONSENT = currentConsentText('contract_terms');

function PdfLink() {
  return (
    <p>
      <a href={CONTRACT_PDF_URL} target="_blank" rel="noopener" type="application/pdf">
        Télécharger mon contrat (PDF)
      </a>
    </p>
  );
}

function ContractForm() {
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  const { update } = useOnboardingUpdate();
  const onSubmit = handleSubmit(async (data) => {
    const input = {
      fullName: textOf(data, 'fullName'),
      address: textOf(data, 'address'),
      postcode: textOf(data, 'postcode'),
      city: textOf(data, 'city'),
      signature: textOf(data, 'signature'),
      termsAccepted: data.get('termsAccepted') === 'true',
    };
    const parsed = v.safeParse(contractFormSchema, input);
    if (!parsed.success)
      return { fieldErrors: flattenFieldErrors(v.flatten(parsed.issues)), formError: 'Certaines informations sont à corriger.' };
    const result = await update({ context: 'contractForm', contractForm: true, ...input });
    if (!result.ok) return { fieldErrors: topLevelFieldErrors(result.error.fieldErrors), formError: result.error.message };
    return undefined;
  });
  return (
    <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
      <FormAlert tone="error">{formError}</FormAlert>
      <TextField name="fullName" label="Nom complet" autoComplete="name" required error={fieldErrors.fullName} />
      <TextField name="address" label="Adresse" autoComplete="street-address" required error={fieldErrors.address} />
      <div className={styles.twoColumns}>
        <TextField
          name="postcode"
          label="Code postal"
          autoComplete="postal-code"
          inputMode="numeric"
          required
          error={fieldErrors.postcode}
        />
        <TextField name="city" label="Ville" autoComplete="address-level2" required error={fieldErrors.city} />
      </div>
      <TextField
        name="signature"
        label="Signature"
        hint="Saisissez à nouveau votre nom complet : il vaut signature."
        autoComplete="off"
        required
        error={fieldErrors.signature}
      />
      <CheckboxField name="termsAccepted" required error={fieldErrors.termsAccepted} label={CONTRACT_TERMS_CONSENT.label} />
      <div className={styles.actions}>
        <Button type="submit" loading={submitting} loadingText="Enregistrement…">
          Valider le contrat
        </Button>
      </div>
    </form>
  );
}

function SignStep() {
  const { update } = useOnboardingUpdate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <section className={styles.section} aria-labelledby="sign">
      <h2 id="sign" className={styles.sectionTitle}>
        Signature
      </h2>
      <p>Relisez votre contrat, puis signez-le. La date de signature fait courir :</p>
      <ul className={styles.list}>
        <li>le délai de {NO_PAYMENT_PERIOD_DAYS} jours avant lequel aucun paiement de l’abonnement ne peut vous être demandé ;</li>
        <li>votre délai de rétractation de {WITHDRAWAL_PERIOD_DAYS} jours.</li>
      </ul>
      <PdfLink />
      <FormAlert tone="error">{error}</FormAlert>
      <div className={styles.actions}>
        <Button
          loading={busy}
          loadingText="Signature…"
          onClick={async () => {
            setBusy(true);
            setError(null);
            const result = await update({ context: 'sub_date', subDate: new Date().toISOString() });
            if (!result.ok) setError(result.error.message);
            setBusy(false);
          }}
        >
          Signer
        </Button>
      </div>
    </section>
  );
}

/**
 * Step 7: contract form, signature, then the 7-day renunciation period during which no money of
 * any kind is asked (L224-91). At day 7 the chart moves on to the payment step (frais-de-dossier).
 */
export function ContractPage() {
  const { user } = useSession();
  const { goToCurrent } = useOnboardingUpdate();
  const sub = subOf(user?.state);
  const opensAt = subscriptionPaymentOpensAt(user?.subscription.subscriptionDate ?? null);
  return (
    <StepPage step="attente-contrat" title="Votre contrat">
      {sub === 'formulaire-contrat' ? (
        <>
          <p className={styles.text}>Votre entretien a eu lieu. Complétez les mentions de votre contrat, puis signez-le.</p>
          <ContractForm />
        </>
      ) : null}
      {sub === 'signature' ? <SignStep /> : null}
      {sub === 'delai-renonciation' ? (
        <section className={styles.section} aria-labelledby="wait">
          <h2 id="wait" className={styles.sectionTitle}>
            Contrat signé
          </h2>
          <p>
            Signé le {formatParis(user?.subscription.subscriptionDate ?? null)}. La loi interdit tout paiement, de quelque nature que ce
            soit, avant {NO_PAYMENT_PERIOD_DAYS} jours pleins après la signature (article L224-91 du Code de la consommation) : vous n’avez
            rien réglé et pouvez renoncer au contrat sans frais pendant ce délai. Le paiement des frais de dossier et de l’abonnement
            s’ouvrira ensuite.
          </p>
          {opensAt !== null ? <Countdown until={opensAt} label="Ouverture du paiement :" onDone={() => void goToCurrent()} /> : null}
          <PdfLink />
        </section>
      ) : null}
    </StepPage>
  );
}
