import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CredentialsSchema, credentialFailure } from '#machines/auth/credentials.ts';

describe('credentials', () => {
  it.each([
    [{ email: 'amina@example.fr', password: 'rose-des-sables-42' }, null],
    [{ email: 'amina@example.fr', password: 'rose-des-sables-42', passwordRepeat: 'rose-des-sables-42' }, null],
    [{ email: 'amina @example.fr', password: 'rose-des-sables-42' }, 'INVALID_EMAIL'],
    [{ email: 'amina@example', password: 'rose-des-sables-42' }, 'INVALID_EMAIL'],
    [{ email: 'amina.example.fr', password: 'rose-des-sables-42' }, 'INVALID_EMAIL'],
    [{ email: 'xx:;x@x.x', password: 'rose-des-sables-42' }, 'INVALID_EMAIL'],
    [{ email: 'amina@-example.fr', password: 'rose-des-sables-42' }, 'INVALID_EMAIL'],
    [{ email: "o'brien+tag@exemple.fr", password: 'rose-des-sables-42' }, null],
    [{ email: 'amina@example.fr', password: 'short' }, 'PASSWORD_TOO_SHORT'],
    [{ email: 'amina@example.fr', password: 'onze-signes' }, 'PASSWORD_TOO_SHORT'],
    [{ email: 'amina@example.fr', password: 'rose-des-sables-42', passwordRepeat: 'rose-des-sableS-42' }, 'PASSWORD_REPEAT_FAILED'],
  ] as const)('%o gives %s', (input, expected) => {
    expect(credentialFailure(input)).toBe(expected);
    expect(v.is(CredentialsSchema, input)).toBe(expected === null);
  });

  it('normalises the email to lower case and trims it', () => {
    expect(v.parse(CredentialsSchema, { email: ' Amina@Example.FR ', password: 'rose-des-sables-42' }).email).toBe('amina@example.fr');
  });
});
