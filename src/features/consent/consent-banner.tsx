import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { allChoices, type ConsentChoices, categoryLabels, noChoices, optionalCategories } from '#machines/public-site/consent.ts';
import { Button } from '#src/components/ui/button.tsx';
import * as styles from '#src/features/consent/consent.css.ts';
import { consentStore } from '#src/features/consent/consent-store.ts';
import { currentConsentText } from '#machines/privacy/consent-texts.ts';

/** The exact text whose hash is stored with each choice (machines/privacy/consent-texts.ts). */
const COOKIE_BANNER_TEXT = currentConsentText('cookies').description;

const serverSnapshot = { consent: null, open: false, reopened: false };

/**
 * The cookie banner (decisions §7, CNIL): shown until the visitor chooses, with « Tout refuser »
 * as visible and as easy as « Tout accepter », and the categories one by one. Not modal: the page
 * stays usable (silence means refusal). Reopened by the footer's « Gérer les cookies ». Loaded by
 * `DeferredConsentBanner` once the page is idle.
 */
export function ConsentBanner({ reopenRequests = 0 }: { reopenRequests?: number }) {
  useEffect(() => {
    consentStore.start();
    // « Gérer les cookies » (counted by DeferredConsentBanner, also before this code was loaded).
    if (reopenRequests > 0) consentStore.reopen();
  }, [reopenRequests]);
  const { consent, open, reopened } = useSyncExternalStore(consentStore.subscribe, consentStore.getSnapshot, () => serverSnapshot);
  const [customising, setCustomising] = useState(false);
  const [choices, setChoices] = useState<ConsentChoices>(noChoices);
  const regionRef = useRef<HTMLElement>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    if (!open) return;
    setChoices(consent?.choices ?? noChoices);
    setCustomising(reopened);
    if (reopened) regionRef.current?.focus();
  }, [open, reopened, consent]);

  if (!open) return null;

  return (
    <section ref={regionRef} tabIndex={-1} className={styles.banner} aria-labelledby={titleId} aria-describedby={textId}>
      <h2 id={titleId} className={styles.title}>
        Vos choix sur les cookies
      </h2>
      <p id={textId} className={styles.text}>
        {COOKIE_BANNER_TEXT} <Link to="/politique-de-confidentialite">En savoir plus</Link>
      </p>
      {customising ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            consentStore.choose(choices);
          }}
        >
          <fieldset className={styles.categories}>
            <legend className={styles.categoryTitle}>Catégories de cookies</legend>
            <label className={styles.category}>
              <input type="checkbox" className={styles.checkbox} checked disabled />
              <span>
                <span className={styles.categoryTitle}>{categoryLabels.necessary.title}</span>
                <br />
                <span className={styles.categoryText}>{categoryLabels.necessary.description}</span>
              </span>
            </label>
            {optionalCategories.map((category) => (
              <label key={category} className={styles.category}>
                <input
                  type="checkbox"
                  name={category}
                  className={styles.checkbox}
                  checked={choices[category]}
                  onChange={(event) => setChoices((current) => ({ ...current, [category]: event.target.checked }))}
                />
                <span>
                  <span className={styles.categoryTitle}>{categoryLabels[category].title}</span>
                  <br />
                  <span className={styles.categoryText}>{categoryLabels[category].description}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => consentStore.choose(noChoices)}>
              Tout refuser
            </Button>
            <Button type="submit" variant="secondary">
              Enregistrer mes choix
            </Button>
            <Button variant="secondary" onClick={() => consentStore.choose(allChoices)}>
              Tout accepter
            </Button>
          </div>
        </form>
      ) : (
        <div className={styles.actions}>
          <Button variant="secondary" onClick={() => consentStore.choose(noChoices)}>
            Tout refuser
          </Button>
          <Button variant="secondary" onClick={() => setCustomising(true)}>
            Personnaliser
          </Button>
          <Button variant="secondary" onClick={() => consentStore.choose(allChoices)}>
            Tout accepter
          </Button>
        </div>
      )}
    </section>
  );
}
