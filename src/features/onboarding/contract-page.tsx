import { MyRights } from '#src/features/account/my-rights.tsx';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import * as v from 'valibot';
import { loadFormRules, useFormRulesOnFirstUse } from '#src/features/onboarding/form-rules.ts';
import { dayAfterText, untilText } from '#machines/onboarding/deadline-texts.ts';
import {
  contractDeadlines,
  deadlinesOfSignature,
  NO_PAYMENT_PERIOD_DAYS,
  WITHDRAWAL_PERIOD_DAYS,
} from '#machines/onboarding/legal-deadlines.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { Countdown } from '#src/features/onboarding/countdown.tsx';
import { useDraft } from '#src/features/onboarding/drafts.ts';
import { initialSentCode, type SentCode, sentCodeText } from '#src/features/onboarding/signature-code.ts';
import { StateWatch } from '#src/features/onboarding/use-state-watch.ts';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import {
  CONTRACT_PDF_URL,
  CONTRACT_PREVIEW_URL,
  type ContractAnswer,
  type ContractDocument,
  type ContractSection,
  flattenFieldErrors,
  requestSignatureCode,
  signContract,
  topLevelFieldErrors,
} from '#src/features/onboarding/onboarding-api.ts';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { subOf } from '#src/features/onboarding/onboarding-state.ts';
import { formatParis, StepPage } from '#src/features/onboarding/step-page.tsx';
import { useOnboardingUpdate } from '#src/features/onboarding/use-onboarding-update.ts';
import { textOf } from '#src/lib/form.ts';
import { useSession } from '#src/lib/use-session.ts';
import { contractQuery } from '#src/features/onboarding/onboarding-queries.ts';
import { errorMessage } from '#src/lib/query-client.ts';
import { currentConsentText } from '#machines/privacy/consent-texts.ts';

/** The exact text whose hash is stored with the acceptance (machines/privacy/consent-texts.ts). */
const CONTRACT_TERMS_CONSENT = currentConsentText('contract_terms');
/** A consent is given by a tick each time: never kept in a draft. */
const CONTRACT_CONSENT_FIELDS = ['termsAccepted'] as const;
function PdfLink() {
  return (
    <p>
      <a href={CONTRACT_PDF_URL} target="_blank" rel="noopener" type="application/pdf">
        Télécharger mon contrat (PDF)
      </a>
    </p>
  );
}

/** The contract page's data (details to confirm, the whole text), loaded once per sub-step (the screen is keyed by it). */
function useContract(sub: string): { contract: ContractAnswer | null; error: string | null } {
  const query = useQuery(contractQuery(sub));
  return { contract: query.data ?? null, error: errorMessage(query.error) };
}

/**
 * The details printed in the contract, prefilled from what the member already gave (step 1's name,
 * postcode and city): the street address is the only new answer, asked here once. The signature
 * itself is the code sent by e-mail (decision 109): nothing is typed twice.
 */
function ContractForm({ details }: { details: ContractAnswer['details'] }) {
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  useFormRulesOnFirstUse(formRef);
  const { user } = useSession();
  // What was typed (the street address above all) survives a reload; the acceptance is ticked each time.
  const discardDraft = useDraft(formRef, user?.id, 'contrat', CONTRACT_CONSENT_FIELDS);
  const { update } = useOnboardingUpdate();
  const onSubmit = handleSubmit(async (data) => {
    const fullName = textOf(data, 'fullName');
    const input = {
      fullName,
      address: textOf(data, 'address'),
      postcode: textOf(data, 'postcode'),
      city: textOf(data, 'city'),
      // The stored payload keeps its `signature` field: the name, never typed a second time.
      signature: fullName,
      termsAccepted: data.get('termsAccepted') === 'true',
    };
    const { contractFormSchema } = await loadFormRules();
    const parsed = v.safeParse(contractFormSchema, input);
    if (!parsed.success)
      return { fieldErrors: flattenFieldErrors(v.flatten(parsed.issues)), formError: 'Certaines informations sont à corriger.' };
    const result = await update({ context: 'contractForm', contractForm: true, ...input });
    if (!result.ok) return { fieldErrors: topLevelFieldErrors(result.error.fieldErrors), formError: result.error.message };
    discardDraft();
    return undefined;
  });
  return (
    <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
      <FormAlert tone="error">{formError}</FormAlert>
      <p className={styles.text}>
        Vérifiez les informations qui figureront dans votre contrat. Nous avons repris celles de votre profil ; vous pouvez les corriger
        ici.
      </p>
      <TextField
        name="fullName"
        label="Nom complet"
        autoComplete="name"
        required
        defaultValue={details.fullName}
        error={fieldErrors.fullName}
      />
      <TextField
        name="address"
        label="Adresse postale"
        hint="Numéro et rue : seule information nouvelle demandée pour le contrat."
        autoComplete="street-address"
        required
        defaultValue={details.address}
        error={fieldErrors.address}
      />
      <div className={styles.twoColumns}>
        <TextField
          name="postcode"
          label="Code postal"
          autoComplete="postal-code"
          inputMode="numeric"
          required
          defaultValue={details.postcode}
          error={fieldErrors.postcode}
        />
        <TextField name="city" label="Ville" autoComplete="address-level2" required defaultValue={details.city} error={fieldErrors.city} />
      </div>
      <CheckboxField name="termsAccepted" required error={fieldErrors.termsAccepted} label={CONTRACT_TERMS_CONSENT.label} />
      <div className={styles.actions}>
        <Button type="submit" loading={submitting} loadingText="Enregistrement…">
          Afficher mon contrat
        </Button>
      </div>
    </form>
  );
}

function SectionText({ section, level }: { section: ContractSection; level: 3 | 4 }) {
  const Heading = level === 3 ? 'h3' : 'h4';
  return (
    <section>
      <Heading>{section.heading}</Heading>
      {section.blocks.map((block, index) =>
        typeof block === 'string' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the blocks of a section never move
          <p key={index}>{block}</p>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the blocks of a section never move
          <ul key={index} className={styles.list}>
            {block.bullets.map((bullet) => (
              <li key={bullet}>{bullet}</li>
            ))}
          </ul>
        ),
      )}
    </section>
  );
}

/** The whole contract, the same text as the PDF. */
function ContractText({ document, note }: { document: ContractDocument; note?: string }) {
  return (
    <article className={`${styles.section} ${styles.contractDocument}`} aria-labelledby="contract-title" data-testid="contract-document">
      <h2 id="contract-title" className={styles.sectionTitle}>
        {document.title}
      </h2>
      {note ? <p className={styles.text}>{note}</p> : null}
      <p>{document.status}</p>
      {document.sections.map((section) => (
        <SectionText key={section.heading} section={section} level={3} />
      ))}
      <SectionText section={document.signature} level={3} />
      <SectionText section={document.annex} level={3} />
    </article>
  );
}

function SignStep({ contract }: { contract: ContractAnswer }) {
  const { goToCurrent } = useOnboardingUpdate();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<SentCode | null>(() => initialSentCode(contract));
  const [error, setError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  // The periods a signature today would start (civil days, decision 165): the same day as the server's.
  const today = deadlinesOfSignature(Date.now());
  if (!contract.document) return <FormAlert tone="error">Le contrat n’est pas encore disponible.</FormAlert>;
  return (
    <>
      <ContractText document={contract.document} />
      <p>
        <a href={CONTRACT_PREVIEW_URL} target="_blank" rel="noopener" type="application/pdf">
          Voir le contrat en PDF (le document exact que vous signez)
        </a>
      </p>
      <section className={styles.section} aria-labelledby="sign">
        <h2 id="sign" className={styles.sectionTitle}>
          Signature
        </h2>
        <p>
          Vous signez électroniquement en saisissant un code à usage unique envoyé à votre adresse e-mail ({contract.email}). La date de
          signature fait courir :
        </p>
        <ul className={styles.list}>
          <li>
            le délai de renonciation de {NO_PAYMENT_PERIOD_DAYS} jours, pendant lequel aucun paiement ne peut vous être demandé : signé
            aujourd’hui, il court {untilText(today.renunciation)} ;
          </li>
          <li>
            votre délai de rétractation de {WITHDRAWAL_PERIOD_DAYS} jours : signé aujourd’hui, il court {untilText(today.withdrawal)}.
          </li>
        </ul>
        <p>
          Le jour de la signature n’est pas compté ; un délai qui finit un samedi, un dimanche ou un jour férié va jusqu’au jour ouvrable
          suivant.
        </p>
        <FormAlert tone="error">{error}</FormAlert>
        {sent ? (
          <form
            className={styles.form}
            noValidate
            onSubmit={async (event) => {
              event.preventDefault();
              if (!/^\d{6}$/.test(code.trim())) {
                setError('Le code contient 6 chiffres.');
                return;
              }
              setBusy(true);
              setError(null);
              const result = await signContract(code.trim());
              setBusy(false);
              if (!result.ok) {
                setError(result.error.message);
                return;
              }
              await goToCurrent();
            }}
          >
            <p>{sentCodeText(sent)}</p>
            <TextField
              name="code"
              label="Code reçu par e-mail"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              required
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
            <div className={styles.actions}>
              <Button type="submit" loading={busy} loadingText="Signature…">
                Signer le contrat
              </Button>
              <Button
                type="button"
                variant="secondary"
                onClick={async () => {
                  setError(null);
                  const result = await requestSignatureCode();
                  if (result.ok) setSent(result.data);
                  else setError(result.error.message);
                }}
              >
                Renvoyer un code
              </Button>
            </div>
          </form>
        ) : (
          <div className={styles.actions}>
            <Button
              loading={busy}
              loadingText="Envoi…"
              onClick={async () => {
                setBusy(true);
                setError(null);
                const result = await requestSignatureCode();
                setBusy(false);
                if (result.ok) setSent(result.data);
                else setError(result.error.message);
              }}
            >
              J’ai lu le contrat : recevoir mon code de signature
            </Button>
          </div>
        )}
      </section>
    </>
  );
}

/** The form, then the contract to read and sign, with the data of its sub-step. */
function ContractScreen({ sub }: { sub: 'formulaire-contrat' | 'signature' }) {
  const { contract, error } = useContract(sub);
  if (!contract) return <FormAlert tone="error">{error}</FormAlert>;
  if (sub === 'signature') return <SignStep contract={contract} />;
  return (
    <>
      <p className={styles.text}>Votre entretien a eu lieu. Lisez votre contrat, vérifiez ses mentions, puis signez-le.</p>
      {contract.draft ? (
        <ContractText
          document={contract.draft}
          note="Le texte ci-dessous sera complété avec les informations que vous confirmez plus bas ; vous le relirez en entier avant de signer."
        />
      ) : null}
      <ContractForm details={contract.details} />
    </>
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
  const deadlines = contractDeadlines(user?.subscription.subscriptionDate ?? null);
  return (
    <StepPage step="attente-contrat" title="Votre contrat">
      {sub === 'formulaire-contrat' || sub === 'signature' ? <ContractScreen key={sub} sub={sub} /> : null}
      {sub === 'delai-renonciation' ? (
        <section className={styles.section} aria-labelledby="wait">
          <h2 id="wait" className={styles.sectionTitle}>
            Contrat signé
          </h2>
          <p>
            Signé le {formatParis(user?.subscription.subscriptionDate ?? null)}. La loi interdit tout paiement, de quelque nature que ce
            soit, avant la fin du délai de renonciation de {NO_PAYMENT_PERIOD_DAYS} jours qui suit la signature (article L224‑91 du Code de
            la consommation) : vous n’avez rien réglé et pouvez renoncer au contrat sans frais{' '}
            {deadlines ? untilText(deadlines.renunciation) : 'pendant ce délai'}. Le paiement des frais de dossier et de l’abonnement
            s’ouvrira {deadlines ? dayAfterText(deadlines.renunciation) : 'ensuite'}.
          </p>
          {deadlines !== null ? (
            <Countdown until={deadlines.paymentOpensAtMs} label="Ouverture du paiement :" onDone={() => void goToCurrent()} />
          ) : null}
          <PdfLink />
        </section>
      ) : null}
      {sub === 'delai-renonciation' ? <MyRights /> : null}
      {sub === 'delai-renonciation' ? <StateWatch /> : null}
    </StepPage>
  );
}
