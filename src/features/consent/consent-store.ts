import {
  CONSENT_VERSION,
  type ConsentChoices,
  consentModeState,
  type StoredConsent,
  tagManagerAllowed,
  validStoredConsent,
} from '#machines/public-site/consent.ts';
import { loadTagManager, setConsentDefaults, updateConsent } from '#src/features/consent/tag-manager.ts';
import { api, send } from '#src/lib/api-client.ts';

/**
 * The visitor's cookie choice (decisions §7): kept 6 months in localStorage with its version and
 * date, a proof sent to `/api/v1/consent`, Consent Mode updated, and the tag manager loaded only
 * when a category it serves is accepted. Before any choice, nothing but necessary storage.
 */

const CONSENT_STORAGE_KEY = 'union:cookie-consent';

interface ConsentSnapshot {
  /** The valid stored choice, or null: the banner must ask. */
  consent: StoredConsent | null;
  /** The banner is shown (no valid choice, or reopened from the footer). */
  open: boolean;
  /** Reopened on purpose: show the categories directly. */
  reopened: boolean;
}

type Listener = () => void;

function readStored(now: Date): StoredConsent | null {
  try {
    const raw = window.localStorage.getItem(CONSENT_STORAGE_KEY);
    return raw ? validStoredConsent(JSON.parse(raw), now) : null;
  } catch {
    return null;
  }
}

function newAnonymousId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let gtmIdRequest: Promise<string | null> | null = null;

/** The configured GTM id (asked once, only once some consent allows the tag manager). */
function configuredGtmId(): Promise<string | null> {
  gtmIdRequest ??= send(api['public-config'].$get()).then((result) => (result.ok ? result.data.gtmId : null));
  return gtmIdRequest;
}

function applyChoices(choices: ConsentChoices): void {
  updateConsent(consentModeState(choices));
  if (tagManagerAllowed(choices)) {
    void configuredGtmId().then((id) => {
      if (id) loadTagManager(id);
    });
  }
}

function createConsentStore(now: () => Date = () => new Date()) {
  const listeners = new Set<Listener>();
  let snapshot: ConsentSnapshot = { consent: null, open: false, reopened: false };
  let started = false;

  const emit = (next: ConsentSnapshot) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };

  /** Shows the banner with its categories (« Gérer les cookies », through DeferredConsentBanner). */
  const reopen = (): void => emit({ ...snapshot, open: true, reopened: true });

  return {
    /** Reads the stored choice and applies it; called once in the browser. */
    start(): void {
      if (started || typeof window === 'undefined') return;
      started = true;
      setConsentDefaults();
      const consent = readStored(now());
      if (consent) applyChoices(consent.choices);
      emit({ consent, open: consent === null, reopened: false });
    },
    subscribe(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: (): ConsentSnapshot => snapshot,
    /** Records a choice: storage, proof, Consent Mode, tag manager. */
    choose(choices: ConsentChoices): StoredConsent {
      const consent: StoredConsent = {
        anonymousId: snapshot.consent?.anonymousId ?? newAnonymousId(),
        version: CONSENT_VERSION,
        date: now().toISOString(),
        choices: { ...choices },
      };
      try {
        window.localStorage.setItem(CONSENT_STORAGE_KEY, JSON.stringify(consent));
      } catch {
        // Private mode without storage: the choice holds for this page only.
      }
      void send(api.consent.$post({ json: { anonymousId: consent.anonymousId, version: consent.version, choices: consent.choices } }));
      applyChoices(consent.choices);
      emit({ consent, open: false, reopened: false });
      return consent;
    },
    reopen,
    close(): void {
      if (snapshot.consent) emit({ ...snapshot, open: false, reopened: false });
    },
  };
}

export const consentStore = createConsentStore();
