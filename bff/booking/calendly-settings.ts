import type { Config } from '#bff/config.ts';
import type { Db } from '#bff/db/database.ts';
import { standInSigningKey } from '#bff/booking/store/signing-key.ts';

/**
 * Where members book the 15-minute discovery call: the configured Calendly scheduling page
 * (`CALENDLY_URL`), or in embedded mode the local scheduling stand-in at `/_local/booking`,
 * which signs its webhooks with a generated key kept in the database.
 */

export function bookingEmbedded(config: Config): boolean {
  return config.calendlyUrl === undefined;
}

export function schedulingPageBase(config: Config): string {
  return config.calendlyUrl ?? `${config.publicSiteUrl}/_local/booking`;
}

export function calendlySigningKey(config: Config, db: Db): Promise<string> {
  return config.calendlyWebhookSigningKey !== undefined ? Promise.resolve(config.calendlyWebhookSigningKey) : standInSigningKey(db);
}

/** The page's host as Calendly's `embed_domain` expects it (needed for the window messages). */
export function embedDomain(config: Config): string {
  return new URL(config.publicSiteUrl).host;
}
