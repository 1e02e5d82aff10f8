import type { Context } from 'hono';

/**
 * A CSV file to download (decision 204), streamed chunk by chunk as the database gives them: never
 * the whole file in memory; a client that goes away stops the reading (`return` on the generator).
 * Its name is `<prefix>-<day>.csv`, the day of `now` (UTC).
 */
export function csvDownload(c: Context, prefix: string, now: Date, chunks: AsyncGenerator<string, unknown, unknown>): Response {
  c.header('Content-Type', 'text/csv; charset=utf-8');
  c.header('Content-Disposition', `attachment; filename="${prefix}-${now.toISOString().slice(0, 10)}.csv"`);
  c.header('Cache-Control', 'private, no-store');
  c.header('X-Content-Type-Options', 'nosniff');
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return c.body(body, 200);
}
