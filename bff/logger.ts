import { createRequire } from 'node:module';
import type { DestinationStream, Logger } from 'pino';
import type { LogLevel } from '#bff/config.ts';

/**
 * The server's one logger (decision 107): pino, one JSON line per entry on stdout, written
 * asynchronously (no synchronous write per line). `startProduct` configures it from `LOG_LEVEL`
 * (bff/config.ts), once the server listens; until then, and in tests unless one captures it, it
 * is silent. pino is loaded at that first use, not when this module is (start-up, decision 091).
 *
 * What is never logged: bodies, cookies, query strings, e-mail addresses, names, phone numbers or
 * answers. Entries carry identifiers (request id, member id) and codes only; an error is reduced
 * to its type, code, message (addresses masked) and stack (`errorFields`), never its other
 * properties (a database error's `detail` names the values of a duplicate key).
 */

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;

/** An error as logged: no property beyond these, addresses masked in the message and stack. */
export function errorFields(error: unknown): { type: string; message: string; code?: string; stack?: string } {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error).replace(EMAIL, '<adresse>') };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: error.message.replace(EMAIL, '<adresse>'),
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.stack ? { stack: error.stack.replace(EMAIL, '<adresse>') } : {}),
  };
}

const requirePackage = createRequire(import.meta.url);
let pinoModule: typeof import('pino') | undefined;
const loadPino = () => {
  pinoModule ??= requirePackage('pino') as typeof import('pino');
  return pinoModule.pino;
};

/** A pino logger at this level, writing to `destination` (default: stdout, asynchronously). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const pino = loadPino();
  if (level === 'silent' && !destination) return pino({ level });
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: errorFields },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

let configured: Logger | undefined;

/** Replaces the process's logger (`startProduct`, from the configuration). */
export function setLogger(logger: Logger): void {
  configured = logger;
}

/** The process's logger now (the request middleware reads it once per request); silent until set. */
export function currentLogger(): Logger {
  configured ??= createLogger('silent');
  return configured;
}

type Fields = Record<string, unknown>;

/**
 * The call sites' logger: a French message, then identifiers only (`{ memberId, status }`) and
 * the error, if any, as `err` (reduced by `errorFields`).
 */
export const log = {
  error: (message: string, fields: Fields = {}) => configured?.error(fields, message),
  warn: (message: string, fields: Fields = {}) => configured?.warn(fields, message),
  info: (message: string, fields: Fields = {}) => configured?.info(fields, message),
  debug: (message: string, fields: Fields = {}) => configured?.debug(fields, message),
};
