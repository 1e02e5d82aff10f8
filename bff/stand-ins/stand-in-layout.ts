import { Hono } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

type Fragment = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The page shell of the embedded stand-ins (checkout, scheduling): French, no inline script. */
export function standInDocument(title: string, body: Fragment, options: { script?: string } = {}) {
  return html`<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/_local/stand-ins.css">
${options.script ? html`<script src="${options.script}" defer></script>` : ''}</head>
<body>${body}</body></html>`;
}

const standInStyles = [
  'body{font-family:system-ui,sans-serif;margin:0;background:#f4f6f8;color:#1f2933;line-height:1.5}',
  'main{max-width:34rem;margin:auto;padding:1.5rem}',
  'h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:0}',
  '.card{background:#fff;border:1px solid #d2d6dc;border-radius:.5rem;padding:1rem;margin:1rem 0}',
  '.badge{display:inline-block;background:#fef3c7;color:#713f12;border-radius:.25rem;padding:.25rem .5rem;font-size:.9rem}',
  '.amount{font-size:1.5rem}.hint{color:#52606d;font-size:.9rem}.error{color:#9b1c1c;font-weight:600}',
  'label{display:block;font-weight:600;margin-top:.5rem}',
  'input[type=email],input[type=text],input[type=number],input[type=datetime-local],textarea{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #7b8794;border-radius:.25rem;font:inherit}',
  'button{margin-top:1rem;background:#166534;color:#fff;border:0;border-radius:.375rem;padding:.75rem 1.25rem;font:inherit;font-weight:600;cursor:pointer}',
  'button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}',
  'fieldset{border:1px solid #d2d6dc;border-radius:.5rem;padding:.75rem;margin:1rem 0;background:#fff}',
  '.slot{display:flex;gap:.5rem;align-items:center;padding:.25rem 0}.slot label{display:inline;font-weight:400;margin:0}',
  'a{color:#166534}',
].join('');

/** `/_local/stand-ins.css`, shared by the stand-in pages. */
export function standInAssets() {
  return new Hono().get('/stand-ins.css', (c) => {
    c.header('Content-Type', 'text/css; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    return c.body(standInStyles);
  });
}
