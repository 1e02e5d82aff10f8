import { html } from 'hono/html';

/**
 * What `GET /api/v1/auth/signout` shows (issue 60): signing out is a write (POST, with the Origin
 * rule of every write), so a link on another site cannot sign a member out; a visitor who follows
 * an old link gets this page and its button. No script, no inline style (the CSP allows neither).
 */
export function signOutPage() {
  return html`<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Se déconnecter — Union Sincère</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body><main>
<h1>Se déconnecter</h1>
<p>Voulez-vous fermer votre session sur cet appareil ?</p>
<form method="post" action="/api/v1/auth/signout"><button type="submit">Me déconnecter</button></form>
<p><a href="/mon-compte">Rester connecté(e) et revenir à mon espace</a></p>
</main></body></html>`;
}
