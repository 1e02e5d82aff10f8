import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { Db } from '#bff/db/database.ts';
import { errorBody } from '#bff/http/errors.ts';
import { isLoopbackRequest } from '#bff/http/rate-limit.ts';
import { latestMails, mailAttachments } from '#bff/stand-ins/store/mailbox.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

const receivedAt = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'short', timeStyle: 'medium' });

/** Links in a mail body, made clickable (the body itself is escaped). */
function linkify(text: string) {
  const escaped = text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return raw(escaped.replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`));
}

/** The page's few rules, inline (the CSP allows inline styles): no second route beside `/:id/…`. */
const MAILBOX_CSS =
  'body{font-family:system-ui,sans-serif;margin:0;background:#f4f6f8;color:#1f2933}main{max-width:52rem;margin:auto;padding:1.5rem}article{background:#fff;border:1px solid #d2d6dc;border-radius:.5rem;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap;font:inherit}a{color:#166534}';

/**
 * The embedded mail stand-in's inbox: every mail the embedded SMTP server received, newest
 * first. Served only in embedded mode (no SMTP_URL), at /_local/mailbox; JSON at ?format=json;
 * to loopback clients only (404 to anyone else, as if it did not exist).
 */
export function mailboxPage(db: Db) {
  return (
    new Hono()
      // It lists every recovery link: only for someone at this machine (issue 19).
      .use(async (c, next) => {
        if (!isLoopbackRequest(c)) return c.json(errorBody('NOT_FOUND', 'Ressource introuvable'), 404);
        await next();
      })
      .get('/', async (c) => {
        const rows = await latestMails(db, 50);
        if (c.req.query('format') === 'json') {
          return c.json(
            rows.map((r) => ({
              id: r.id,
              to: r.toAddress,
              from: r.fromAddress,
              subject: r.subject,
              text: r.textBody,
              receivedAt: r.receivedAt,
              attachments: r.attachments.map((a, index) => ({
                filename: a.filename,
                contentType: a.contentType,
                size: a.size,
                sha256: a.sha256,
                url: `/_local/mailbox/${r.id}/attachments/${index}`,
              })),
            })),
            200,
          );
        }
        c.header('Cache-Control', 'no-store');
        return c.html(
          html`<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Boîte mail locale</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><style>${raw(MAILBOX_CSS)}</style></head>
<body><main><h1>Boîte mail locale</h1>
<p>Les e-mails envoyés par le site en mode embarqué arrivent ici (aucun e-mail ne part sur Internet).</p>
${rows.length === 0 ? html`<p>Aucun e-mail pour l’instant.</p>` : ''}
${rows.map(
  (r) => html`<article aria-labelledby="m${r.id}"><h2 id="m${r.id}">${r.subject}</h2>
<p><strong>À :</strong> ${r.toAddress} — <time datetime="${r.receivedAt.toISOString()}">${receivedAt.format(r.receivedAt)}</time></p>
<pre>${linkify(r.textBody)}</pre>
${
  r.attachments.length > 0
    ? html`<p><strong>Pièces jointes :</strong></p><ul>${r.attachments.map(
        (a, index) =>
          html`<li><a href="/_local/mailbox/${r.id}/attachments/${index}" download="${a.filename}">${a.filename}</a> (${a.contentType}, ${Math.ceil(a.size / 1024)} Ko)</li>`,
      )}</ul>`
    : ''
}</article>`,
)}
</main></body></html>`,
          200,
        );
      })
      .get('/:id/attachments/:index', async (c) => {
        const id = Number(c.req.param('id'));
        const index = Number(c.req.param('index'));
        if (!Number.isSafeInteger(id) || !Number.isSafeInteger(index)) {
          return c.json(errorBody('NOT_FOUND', 'Pièce jointe introuvable'), 404);
        }
        const attachment = (await mailAttachments(db, id))?.[index];
        if (!attachment) return c.json(errorBody('NOT_FOUND', 'Pièce jointe introuvable'), 404);
        c.header('Content-Type', attachment.contentType);
        c.header('Content-Disposition', `attachment; filename="${attachment.filename.replace(/[^\w.-]/g, '_')}"`);
        c.header('Cache-Control', 'no-store');
        return c.body(new Uint8Array(Buffer.from(attachment.contentBase64, 'base64')));
      })
  );
}
