import { createServer } from 'node:net';

/**
 * A port no one listens on now, chosen by the system (a socket bound to port 0, then closed). A walk
 * that starts its own product takes one, so that two sessions' walks — or two Playwright workers —
 * never ask for the same fixed port (decision 226).
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}
