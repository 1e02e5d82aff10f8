import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { adminClient } from '#bff/auth/supabase.ts';
import { ensureAccount } from '#bff/members/accounts.ts';
import { startProduct } from '#bff/start.ts';
import { EmailSchema, PASSWORD_MIN_LENGTH } from '#machines/auth/credentials.ts';
import { scriptConfig } from './script-config.ts';

/**
 * Creates a staff account (staff are never created by sign-up):
 *   npm run staff:create -- --email prenom@agence.fr --name "Prénom Nom" [--password …]
 * Without --password a strong one is generated and printed once. The TOTP second factor is
 * enrolled at the first sign-in on /dashboard/connexion.
 */
const Args = v.object({
  email: EmailSchema,
  name: v.pipe(v.string('--name est requis'), v.trim(), v.minLength(2, '--name est requis')),
  password: v.optional(
    v.pipe(v.string(), v.minLength(12, `--password : au moins 12 caractères (minimum technique ${PASSWORD_MIN_LENGTH})`)),
  ),
});

const { values } = parseArgs({ options: { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' } } });
const parsed = v.safeParse(Args, values);
if (!parsed.success) {
  console.error(`staff:create — ${parsed.issues[0].message}\nUsage : npm run staff:create -- --email … --name "…" [--password …]`);
  process.exit(1);
}
const config = scriptConfig();
const password = parsed.output.password ?? randomBytes(18).toString('base64url');
const product = await startProduct(config, { listen: false });
try {
  const { id, created } = await ensureAccount(adminClient(product.auth), product.database.db, {
    email: parsed.output.email,
    password,
    kind: 'staff',
    name: parsed.output.name,
  });
  if (created) {
    console.log(`Compte équipe créé : ${parsed.output.email} (${id})`);
    if (!parsed.output.password) console.log(`Mot de passe (affiché une seule fois) : ${password}`);
    console.log('Le second facteur (TOTP) sera enregistré à la première connexion sur /dashboard/connexion.');
  } else {
    console.log(`Un compte existe déjà pour ${parsed.output.email} (${id}) : rien n’a été modifié.`);
  }
} finally {
  await product.close();
}
