import { Hono } from 'hono';
import type { ApiDeps } from '#bff/api/deps.ts';
import { requireCaller } from '#bff/auth/guards.ts';
import { renderMemberContract } from '#bff/contract/member-contract.ts';
import { ApiError } from '#bff/http/errors.ts';

function asciiFileName(name: string): string {
  const ascii = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `contrat-union-sincere${ascii ? `-${ascii.toLowerCase()}` : ''}.pdf`;
}

/**
 * `GET /api/v1/user/contract.pdf`: the member's copy of their contract (L224-90: handed over at
 * conclusion), once the contract form is completed; with the annex of qualities sought (R224-1).
 */
export function contractRoutes(deps: ApiDeps) {
  const guardDeps = { database: deps.database, auth: deps.auth };
  return new Hono().get('/user/contract.pdf', async (c) => {
    const caller = await requireCaller(c, guardDeps);
    if (caller.role === 'staff') throw new ApiError(404, 'CONTRACT_NOT_FOUND', 'Aucun contrat pour ce compte.');
    const contract = await renderMemberContract(deps.database.db, caller.member, {
      agency: deps.config.agency,
      now: deps.clock.now(),
    });
    if (!contract) throw new ApiError(409, 'CONTRACT_NOT_READY', 'Le contrat sera disponible une fois son formulaire rempli.');
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', `inline; filename="${asciiFileName(contract.fullName)}"`);
    c.header('Cache-Control', 'private, no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.body(contract.pdf as Uint8Array<ArrayBuffer>, 200);
  });
}
