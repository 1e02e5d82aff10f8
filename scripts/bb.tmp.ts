import { measure } from './bundle-budget.ts';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
const r = measure('dist/client');
for (const p of r.pages.filter((p) => p.page === '/formulaire-inscription' || p.page === '/')) { console.log(p.page); for (const f of p.files) { const b = readFileSync(join('dist/client', f)); console.log((gzipSync(b, { level: 9 }).length / 1000).toFixed(2), f); } }
