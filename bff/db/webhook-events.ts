import type { Transaction } from '#bff/db/database.ts';
import { webhookEvents } from '#bff/db/schema.ts';

/**
 * Records a received webhook event once (insert-if-absent on provider and id), in the caller's
 * transaction. False when the event was already recorded: a duplicate delivery, which changes nothing.
 */
export async function recordWebhookEventOnce(
  tx: Transaction,
  event: { provider: string; id: string; type: string; payload: unknown },
  receivedAt: Date,
): Promise<boolean> {
  const inserted = await tx
    .insert(webhookEvents)
    .values({ ...event, receivedAt })
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  return inserted.length > 0;
}
