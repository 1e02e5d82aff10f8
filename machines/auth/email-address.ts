/**
 * The address format Supabase Auth accepts (GoTrue's `validateEmail`, which uses the checkmail
 * package's expression): a local part of letters, digits and `.!#$%&'*+/=?^_`{|}~-`, then a domain
 * of labels of letters, digits and inner hyphens. Shared by the embedded auth service, the BFF and
 * the SPA's forms, so no address is accepted by one and refused by another.
 */
const GOTRUE_EMAIL_FORMAT =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** GoTrue's length limit on an address. */
export const EMAIL_MAX_LENGTH = 255;

/** Whether GoTrue would accept this address (before lower-casing). */
export function hasGoTrueEmailFormat(address: string): boolean {
  return address.length <= EMAIL_MAX_LENGTH && GOTRUE_EMAIL_FORMAT.test(address);
}
