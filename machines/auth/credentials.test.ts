import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CredentialsSchema, credentialFailure } from '#machines/auth/credentials.ts';

describe('credentials', () => {
  it.each([
    [{ email: 'amina@example.fr', password: 'secret' }, null],
    [{ email: 'amina@example.fr', password: 'secret', passwordRepeat: 'secret' }, null],
    [{ email: 'amina @example.fr', password: 'secret' }, 'INVALID_EMAIL'],
    [{ email: 'amina@example', password: 'secret' }, 'INVALID_EMAIL'],
    [{ email: 'amina.example.fr', password: 'secret' }, 'INVALID_EMAIL'],
    [{ email: 'xx:;x@x.x', password: 'secret' }, 'INVALID_EMAIL'],
    [{ email: 'amina@-example.fr', password: 'secret' }, 'INVALID_EMAIL'],
    [{ email: "o'brien+tag@exemple.fr", password: 'secret' }, null],
    [{ email: 'amina@example.fr', password: 'short' }, 'PASSWORD_TOO_SHORT'],
    [{ email: 'amina@example.fr', password: 'secret', passwordRepeat: 'secreT' }, 'PASSWORD_REPEAT_FAILED'],
  ] as const)('%o gives %s', (input, expected) => {
    expect(credentialFailure(input)).toBe(expected);
    expect(v.is(CredentialsSchema, input)).toBe(expected === null);
  });

  it('normalises the email to lower case and trims it', () => {
    expect(v.parse(CredentialsSchema, { email: ' Amina@Example.FR ', password: 'secret' }).email).toBe('amina@example.fr');
  });
});
