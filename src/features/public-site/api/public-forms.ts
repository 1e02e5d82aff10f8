import type * as v from 'valibot';
import type { ContactSchema, PreSubscriptionSchema } from '#machines/public-site/public-forms.ts';
import { api, send } from '#src/lib/api-client.ts';

/** `POST /api/v1/subscription/pre-subscription`: answers a list whose first item has an id. */
export function preSubscribe(input: v.InferInput<typeof PreSubscriptionSchema>) {
  return send(api.subscription['pre-subscription'].$post({ json: input }));
}

/** `POST /api/v1/contact`: the agency receives the message by e-mail. */
export function sendContactMessage(input: v.InferInput<typeof ContactSchema>) {
  return send(api.contact.$post({ json: input }));
}
