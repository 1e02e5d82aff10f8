import { describe, expect, it } from 'vitest';
import { RedirectSearchSchema, UpdatePasswordSearchSchema } from '#src/lib/search-schemas.ts';

describe('search schemas', () => {
  it('keep good values and drop bad ones without throwing', () => {
    expect(RedirectSearchSchema({ redirect: '/mon-compte' })).toEqual({ redirect: '/mon-compte' });
    expect(RedirectSearchSchema({ redirect: 42 })).toEqual({ redirect: undefined });
    expect(RedirectSearchSchema({})).toEqual({ redirect: undefined });
    expect(UpdatePasswordSearchSchema({ token_hash: 'ab12'.repeat(14), type: 'recovery' })).toEqual({
      token_hash: 'ab12'.repeat(14),
      email: undefined,
      type: 'recovery',
    });
    expect(UpdatePasswordSearchSchema({ token_hash: '<script>', email: ['x'] })).toEqual({
      token_hash: undefined,
      email: undefined,
      type: undefined,
    });
    expect(RedirectSearchSchema({ redirect: '  /blog  ' })).toEqual({ redirect: '/blog' });
    expect(RedirectSearchSchema({ redirect: '   ' })).toEqual({ redirect: undefined });
    expect(RedirectSearchSchema({ redirect: `/${'a'.repeat(2048)}` })).toEqual({ redirect: undefined });
    expect(UpdatePasswordSearchSchema({ token_hash: ` ${'ab12'.repeat(5)} ` }).token_hash).toBe('ab12'.repeat(5));
  });
});
