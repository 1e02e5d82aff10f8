import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { RedirectSearchSchema, UpdatePasswordSearchSchema } from '#src/lib/search-schemas.ts';

describe('search schemas', () => {
  it('keep good values and drop bad ones without throwing', () => {
    expect(v.parse(RedirectSearchSchema, { redirect: '/mon-compte' })).toEqual({ redirect: '/mon-compte' });
    expect(v.parse(RedirectSearchSchema, { redirect: 42 })).toEqual({ redirect: undefined });
    expect(v.parse(RedirectSearchSchema, {})).toEqual({ redirect: undefined });
    expect(v.parse(UpdatePasswordSearchSchema, { token_hash: 'ab12'.repeat(14), type: 'recovery' })).toEqual({
      token_hash: 'ab12'.repeat(14),
      email: undefined,
      type: 'recovery',
    });
    expect(v.parse(UpdatePasswordSearchSchema, { token_hash: '<script>', email: ['x'] })).toEqual({
      token_hash: undefined,
      email: undefined,
      type: undefined,
    });
  });
});
