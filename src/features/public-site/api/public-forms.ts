import type * as v from 'valibot';
import type { ContactSchema, PreSubscriptionSchema } from '#machines/public-site/public-forms.ts';

/**
 * The public forms' requests. The typed client is fetched when a form is sent: the pages that
 * show a form do not load it to paint and hydrate. A client that cannot be loaded (network, a
 * new deploy) throws, and the form shows its generic error.
 */
const client = () => import('#src/lib/api-client.ts');

/**
 * The forms' checks before sending: the shared schemas (and valibot) are fetched then, not with
 * the page. A check that cannot be loaded throws (the form shows its generic error).
 */
export async function checkPreSubscription(input: unknown) {
  const [{ validate }, { PreSubscriptionSchema }] = await Promise.all([
    import('#src/lib/form.ts'),
    import('#machines/public-site/public-forms.ts'),
  ]);
  return validate(PreSubscriptionSchema, input);
}

export async function checkContact(input: unknown) {
  const [{ validate }, { ContactSchema }] = await Promise.all([
    import('#src/lib/form.ts'),
    import('#machines/public-site/public-forms.ts'),
  ]);
  return validate(ContactSchema, input);
}

/** `POST /api/v1/subscription/pre-subscription`: answers a list whose first item has an id. */
export async function preSubscribe(input: v.InferInput<typeof PreSubscriptionSchema>) {
  const { api, send } = await client();
  return send(api.subscription['pre-subscription'].$post({ json: input }));
}

/** `POST /api/v1/contact`: the agency receives the message by e-mail. */
export async function sendContactMessage(input: v.InferInput<typeof ContactSchema>) {
  const { api, send } = await client();
  return send(api.contact.$post({ json: input }));
}
