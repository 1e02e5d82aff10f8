import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import type { Db } from '#bff/db/database.ts';
import { insertMailboxMessage } from '#bff/mail/store/mailbox.ts';

/**
 * The embedded stand-in for an SMTP relay: a real SMTP server on loopback that stores every
 * message it receives in the `mailbox` table, shown by the local mailbox page. The product sends
 * to it through nodemailer exactly as it would to a hosted relay.
 */
export async function startEmbeddedSmtp(db: Db): Promise<{ url: string; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    banner: 'Union Sincère — boîte de réception locale',
    size: 5 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        PostalMime.parse(raw, { attachmentEncoding: 'base64' })
          .then((parsed) =>
            insertMailboxMessage(db, {
              fromAddress: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              toAddress: session.envelope.rcptTo.map((r) => r.address).join(', '),
              subject: parsed.subject ?? '',
              textBody: parsed.text ?? '',
              htmlBody: typeof parsed.html === 'string' ? parsed.html : null,
              raw,
              attachments: parsed.attachments.map((a) => {
                const content = Buffer.from(String(a.content), 'base64');
                return {
                  filename: a.filename ?? 'piece-jointe',
                  contentType: a.mimeType,
                  size: content.length,
                  sha256: createHash('sha256').update(content).digest('hex'),
                  contentBase64: content.toString('base64'),
                };
              }),
            }),
          )
          .then(
            () => callback(),
            (error: Error) => callback(error),
          );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
