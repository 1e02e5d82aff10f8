import { frenchTimeFormat } from '#machines/french/dates.ts';
import type { ContractAnswer } from '#src/features/onboarding/onboarding-api.ts';

/**
 * The signature code as the contract page shows it (decision 185): the server says whether a code
 * it sent for the text shown is still usable, so that a reload shows the code field again instead
 * of asking for a new code, which would void the one in the member's mailbox.
 */

const parisTime = frenchTimeFormat('Europe/Paris');

/** The code sent, as the page shows it: from the server's answer, so that a reload keeps it. */
export interface SentCode {
  sentTo: string;
  expiresAt: string;
}

/** The code state the signature step starts from: a code the server still holds for this text, or none. */
export function initialSentCode(contract: Pick<ContractAnswer, 'signatureCode'>, now: number = Date.now()): SentCode | null {
  const code = contract.signatureCode;
  if (!code || Date.parse(code.expiresAt) <= now) return null;
  return { sentTo: code.sentTo, expiresAt: code.expiresAt };
}

/** « Un code a été envoyé à … Il est valable jusqu’à 11 h 18. » */
export function sentCodeText(code: SentCode): string {
  return `Un code a été envoyé à ${code.sentTo}. Il est valable jusqu’à ${parisTime.format(new Date(code.expiresAt))} (15 minutes) et ne sert qu’une fois.`;
}
