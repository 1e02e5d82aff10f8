import type { Db } from '#bff/db/database.ts';
import { insertContactMessage, insertCookieChoice, insertPreSubscription } from '#bff/leads/store/public-forms.ts';
import { enqueueMail, type OutgoingMail } from '#bff/mail/outbox.ts';
import { recordConsent } from '#bff/privacy/consents.ts';
import type * as v from 'valibot';
import type { ConsentProofSchema } from '#machines/public-site/consent.ts';
import { PRIVACY_POLICY_VERSION, type PreSubscriptionSchema } from '#machines/public-site/public-forms.ts';

/**
 * What the public site's forms write (`api/public-routes.ts` validates them and limits their rate):
 * a pre-registration, a contact message, a visitor's cookie choice, each in one transaction with
 * its consent record or its mail.
 */

/** A pre-registration (its sign-up link's hash only, decision 127), its privacy-policy consent (decision 070) and its mail. */
export async function storePreSubscription(
  db: Db,
  input: v.InferOutput<typeof PreSubscriptionSchema>,
  link: { hash: string; expiresAt: Date },
  mail: OutgoingMail,
  now: Date,
): Promise<{ id: string }[]> {
  return db.transaction(async (tx) => {
    const inserted = await insertPreSubscription(tx, {
      gender: input.gender,
      email: input.email,
      age: input.age,
      zipCode: input.zip_code,
      city: input.city,
      consentVersion: PRIVACY_POLICY_VERSION,
      createdAt: now,
      signupTokenHash: link.hash,
      signupTokenExpiresAt: link.expiresAt,
    });
    // The privacy-policy consent as a record (decision 070), keyed by the pre-registration's id.
    for (const row of inserted) await recordConsent(tx, { anonymousId: row.id, kind: 'privacy_policy', given: true, at: now });
    await enqueueMail(tx, mail);
    return inserted;
  });
}

/** A contact message, stored for the leads inbox (decision 112) and mailed to the agency, in one transaction. */
export async function storeContactMessage(
  db: Db,
  input: { name: string; email: string; subject: string; message: string },
  mail: OutgoingMail,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await insertContactMessage(tx, {
      name: input.name,
      email: input.email,
      subject: input.subject,
      message: input.message,
      createdAt: now,
    });
    await enqueueMail(tx, mail);
  });
}

/** A visitor's cookie choice in detail, and the consent record (version, text hash, date, anonymous id). */
export async function storeCookieChoice(
  db: Db,
  input: v.InferOutput<typeof ConsentProofSchema>,
  now: Date,
): Promise<{ id: string; createdAt: Date } | undefined> {
  const given = Object.values(input.choices).some(Boolean);
  return db.transaction(async (tx) => {
    const inserted = await insertCookieChoice(tx, {
      anonymousId: input.anonymousId,
      version: input.version,
      choices: input.choices,
      createdAt: now,
    });
    await recordConsent(tx, { anonymousId: input.anonymousId, kind: 'cookies', given, at: now });
    return inserted;
  });
}
