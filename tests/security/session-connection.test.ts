import type { AddressInfo } from 'node:net';
import { Agent, request } from 'node:http';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SecurityProduct, signUpMember } from '#tests/security/support.ts';
import { startTestProduct } from '#tests/support/test-product.ts';

/**
 * Over a real socket, a kept-alive connection remembers its last Cookie header and what its token
 * proved (bff/auth/access-token.ts): the next request with the very same header skips decoding
 * it. A different header on that connection (another member, a forged token) must never be
 * answered from that memory, and a signed-out session must be refused on the same connection.
 */

let product: SecurityProduct;
let server: ReturnType<typeof serve>;
let port = 0;
beforeAll(async () => {
  product = await startTestProduct();
  server = serve({ fetch: product.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await product.stop();
});

const cookieOf = (cookies: Map<string, string>) => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** GET on the one kept-alive connection of `agent`: status, body, and the local port of the socket used. */
function get(agent: Agent, path: string, cookie: string) {
  return new Promise<{ status: number; body: string; socketPort: number }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { cookie, origin: `http://127.0.0.1:${port}` } }, (res) => {
      const socketPort = res.socket?.localPort ?? 0;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, socketPort }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the session remembered by a kept-alive connection', () => {
  it('answers each request for the cookie it carries: another member, a forged token, a signed-out session', async () => {
    const amina = await signUpMember(product);
    const youssef = await signUpMember(product, 'homme');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const aminaCookie = cookieOf(amina.agent.cookies);
      const first = await get(agent, '/api/v1/user/settings', aminaCookie);
      expect(first.status).toBe(200);
      expect(JSON.parse(first.body).id).toBe(amina.id);
      const again = await get(agent, '/api/v1/user/settings', aminaCookie);
      expect(again.socketPort).toBe(first.socketPort);
      expect(JSON.parse(again.body).id).toBe(amina.id);

      // Another member's session on the same connection.
      const other = await get(agent, '/api/v1/user/settings', cookieOf(youssef.agent.cookies));
      expect(other.socketPort).toBe(first.socketPort);
      expect(other.status).toBe(200);
      expect(JSON.parse(other.body).id).toBe(youssef.id);

      // Amina's session cookie with her token's signature altered.
      const [name, value] = [...amina.agent.cookies].find(([k]) => /^sb-.*-auth-token$/.test(k)) as [string, string];
      const session = JSON.parse(Buffer.from(value.replace(/^base64-/, ''), 'base64url').toString('utf8')) as { access_token: string };
      const forgedToken = `${session.access_token.slice(0, -4)}AAAA`;
      const forged = `${name}=base64-${Buffer.from(JSON.stringify({ ...session, access_token: forgedToken })).toString('base64url')}`;
      const refused = await get(agent, '/api/v1/user/settings', forged);
      expect(refused.socketPort).toBe(first.socketPort);
      expect(refused.status).toBe(401);

      // Amina signs out (on another connection): her old cookie is refused on this one.
      expect((await get(agent, '/api/v1/user/settings', aminaCookie)).status).toBe(200);
      const signOut = await amina.agent.post('/api/v1/auth/signout', {});
      expect(signOut.status).toBeLessThan(400);
      const afterSignOut = await get(agent, '/api/v1/user/settings', aminaCookie);
      expect(afterSignOut.socketPort).toBe(first.socketPort);
      expect(afterSignOut.status).toBe(401);
    } finally {
      agent.destroy();
    }
  });
});
