import { ensureTestTemplates, TEMPLATE_SETS } from '#tests/support/test-database.ts';

/** Vitest's global set-up: the migrated test templates, made once before the workers start (decision 162). */
export default async function setup(): Promise<void> {
  await ensureTestTemplates(TEMPLATE_SETS);
}
