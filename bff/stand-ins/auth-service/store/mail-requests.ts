// When each address was last mailed each kind of account mail (embedded_auth.mail_requests).
import { and, eq, lt, lte } from 'drizzle-orm';
import type { Executor } from '#bff/stand-ins/auth-service/store/executor.ts';
import { mailRequests } from '#bff/stand-ins/auth-service/store/schema.ts';

/** Forgets the requests older than `before`. */
export async function deleteMailRequestsBefore(exec: Executor, before: Date): Promise<void> {
  await exec.delete(mailRequests).where(lt(mailRequests.lastRequestedAt, before));
}

/**
 * Records a request of `kind` to `address` at `now`, unless the previous one is later than
 * `threshold`: atomic across instances, the upsert only moves the date when the previous one is
 * old enough. Whether it was recorded.
 */
export async function claimMailRequest(exec: Executor, address: string, kind: string, now: Date, threshold: Date): Promise<boolean> {
  const claimed = await exec
    .insert(mailRequests)
    .values({ address, kind, lastRequestedAt: now })
    .onConflictDoUpdate({
      target: [mailRequests.address, mailRequests.kind],
      set: { lastRequestedAt: now },
      setWhere: lte(mailRequests.lastRequestedAt, threshold),
    })
    .returning({ address: mailRequests.address });
  return claimed.length > 0;
}

export async function mailRequestOf(exec: Executor, address: string, kind: string) {
  const [previous] = await exec
    .select()
    .from(mailRequests)
    .where(and(eq(mailRequests.address, address), eq(mailRequests.kind, kind)));
  return previous;
}
