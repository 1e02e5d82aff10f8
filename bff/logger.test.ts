import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '#bff/config.ts';
import { createLogger, errorFields } from '#bff/logger.ts';

describe('the logger (decision 107)', () => {
  it('reduces an error to its type, code, message and stack, addresses masked, never its other properties', () => {
    const error = Object.assign(new Error('duplicate key value violates unique constraint for amina.benali@example.fr'), {
      code: '23505',
      detail: 'Key (email)=(amina.benali@example.fr) already exists.',
      table: 'members',
    });
    const fields = errorFields(error);
    expect(Object.keys(fields).sort()).toEqual(['code', 'message', 'stack', 'type']);
    expect(fields).toMatchObject({ type: 'Error', code: '23505', message: 'duplicate key value violates unique constraint for <adresse>' });
    expect(JSON.stringify(fields)).not.toContain('amina.benali');
    expect(errorFields('raté pour x@y.fr')).toEqual({ type: 'string', message: 'raté pour <adresse>' });
  });

  it('writes one JSON line per entry with an ISO time, its level by name, and errors through errorFields', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    logger.debug({ memberId: 'm1' }, 'pas écrit');
    logger.error({ err: Object.assign(new Error('échec'), { detail: 'secret' }) }, 'erreur inattendue');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 'error', msg: 'erreur inattendue', err: { type: 'Error', message: 'échec' } });
    expect(new Date(entry.time as string).toISOString()).toBe(entry.time);
    expect(lines[0]).not.toContain('secret');
  });

  it('takes its level from LOG_LEVEL: info by default, silent in tests, a clear French error otherwise', () => {
    expect(parseConfig({}).logLevel).toBe('info');
    expect(parseConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
    expect(parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(() => parseConfig({ LOG_LEVEL: 'bavard' })).toThrow(ConfigError);
    expect(() => parseConfig({ LOG_LEVEL: 'bavard' })).toThrow(/^Configuration invalide\s: LOG_LEVEL doit être l’un de fatal, error, warn/);
  });
});
