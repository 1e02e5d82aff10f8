import { parsePhoneNumber } from 'libphonenumber-js/min';

/**
 * A stored phone number (E.164, as step 1 and the guardian's form save it) as a person writes it:
 * a French number in its national form ('+33612345678' → '06 12 34 56 78'), any other in its
 * international form ('+32470123456' → '+32 470 12 34 56'). What cannot be read is shown as stored.
 * The one formatter for every screen and mail that shows a phone (members, guardians, staff).
 */
export function formatPhone(value: string): string {
  try {
    const phone = parsePhoneNumber(value, 'FR');
    return phone.country === 'FR' ? phone.formatNational() : phone.formatInternational();
  } catch {
    return value;
  }
}
