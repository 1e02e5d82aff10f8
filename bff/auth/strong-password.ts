import { passwordWeakness } from '#bff/auth/password-strength.ts';
import { ApiError } from '#bff/http/errors.ts';

/**
 * Refuses a new password that is common or built on the person's details (decision 180): 400
 * with the spec's `INVALID_CREDENTIALS` shape, the `reason` (`PASSWORD_TOO_COMMON`,
 * `PASSWORD_PERSONAL`), the French message saying why, and the field it is about.
 */
export async function refuseWeakPassword(password: string, details: (string | null | undefined)[], field = 'password'): Promise<void> {
  const weakness = await passwordWeakness(password, details);
  if (weakness) {
    throw new ApiError(400, 'INVALID_CREDENTIALS', weakness.message, {
      reason: weakness.reason,
      issues: [{ path: field, message: weakness.message }],
    });
  }
}

/** The member's name as the contract gives it, for the password check. */
export function fullNameOf(contract: unknown): string | undefined {
  const name = (contract as { fullName?: unknown } | null)?.fullName;
  return typeof name === 'string' ? name : undefined;
}
