// The PKCE flows of the auth service and their auth codes (embedded_auth.flow_state).
import { eq, lt } from 'drizzle-orm';
import type { Executor } from '#bff/stand-ins/auth-service/store/executor.ts';
import { flowState } from '#bff/stand-ins/auth-service/store/schema.ts';

/** Forgets the flows created before `before`. */
export async function deleteFlowStatesBefore(exec: Executor, before: Date): Promise<void> {
  await exec.delete(flowState).where(lt(flowState.createdAt, before));
}

export async function insertFlowState(exec: Executor, row: typeof flowState.$inferInsert): Promise<void> {
  await exec.insert(flowState).values(row);
}

/** Gives the flow its auth code; whether the flow exists. */
export async function setAuthCode(exec: Executor, id: string, code: string, now: Date): Promise<boolean> {
  const [row] = await exec
    .update(flowState)
    .set({ authCode: code, authCodeIssuedAt: now, updatedAt: now })
    .where(eq(flowState.id, id))
    .returning({ id: flowState.id });
  return row !== undefined;
}

/** The flow holding that auth code, locked. */
export async function flowByAuthCodeForUpdate(exec: Executor, authCode: string) {
  const [flow] = await exec.select().from(flowState).where(eq(flowState.authCode, authCode)).for('update');
  return flow;
}

export async function deleteFlowState(exec: Executor, id: string): Promise<void> {
  await exec.delete(flowState).where(eq(flowState.id, id));
}
