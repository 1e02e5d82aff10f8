import type { AuthDeps, Executor } from '#bff/stand-ins/auth-service/deps.ts';
import { AuthApiError, errors } from '#bff/stand-ins/auth-service/errors.ts';
import { claimMailRequest, deleteMailRequestsBefore, mailRequestOf } from '#bff/stand-ins/auth-service/store/mail-requests.ts';

/**
 * The account mails' budgets (recovery, e-mail change, reauthentication codes; issue 60, decision
 * 181), checked before the address is looked up so that the answer is the same whether it has an
 * account or not:
 *
 * - the client's own budget (`mailPerClient`): a flood from one address empties only that;
 * - the recipient's budget (`mailPerRecipient`), and at most one mail of a kind a minute;
 * - the service-wide budget (`emailSent`), a last resort far above one client's reach, spent only
 *   by a mail really queued (`spendServiceMail`): made-up addresses cost it nothing.
 *
 * The agency's own mails (welcome, contract, introductions…) go through the BFF's outbox and take
 * nothing from these budgets. Each refusal is GoTrue's 429 `over_email_send_rate_limit`.
 */
export async function claimAccountMail(
  deps: AuthDeps,
  exec: Executor,
  input: { client: string | undefined; recipient: string; kind: string; now: Date },
): Promise<void> {
  if (input.client !== undefined && !(await deps.limits.mailPerClient.take(input.client))) throw errors.overEmailSendRateLimit();
  if (!(await deps.limits.mailPerRecipient.take(input.recipient.toLowerCase()))) throw errors.overEmailSendRateLimit();
  await claimMailSlot(exec, input.recipient, input.kind, input.now);
  if (!(await deps.limits.emailSent.hasPoint(SERVICE))) throw errors.overEmailSendRateLimit();
}

/** Takes the service-wide token of a mail about to be queued (after `claimAccountMail`). */
export async function spendServiceMail(deps: AuthDeps): Promise<void> {
  if (!(await deps.limits.emailSent.take(SERVICE))) throw errors.overEmailSendRateLimit();
}

const SERVICE = 'service';

/** At most one mail of a kind per address per minute (GoTrue's `*_sent_at` checks). */
const MAIL_REPEAT_SECONDS = 60;

/**
 * Claims the right to mail `address` now: at most one mail of a kind per address per minute,
 * for every address alike, known or not (so the answer reveals no account). Atomic across
 * instances: the upsert only moves the date when the previous one is old enough.
 */
async function claimMailSlot(exec: Executor, address: string, kind: string, now: Date): Promise<void> {
  const threshold = new Date(now.getTime() - MAIL_REPEAT_SECONDS * 1000);
  await deleteMailRequestsBefore(exec, new Date(now.getTime() - 3600 * 1000));
  if (await claimMailRequest(exec, address, kind, now, threshold)) return;
  const previous = await mailRequestOf(exec, address, kind);
  const elapsed = previous ? now.getTime() - previous.lastRequestedAt.getTime() : 0;
  const wait = Math.max(1, Math.ceil((MAIL_REPEAT_SECONDS * 1000 - elapsed) / 1000));
  throw new AuthApiError(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${wait} seconds.`);
}
