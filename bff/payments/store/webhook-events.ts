// Stores the received Stripe events, once each (the insert-if-absent of bff/db/webhook-events.ts).
export { recordWebhookEventOnce } from '#bff/db/webhook-events.ts';
