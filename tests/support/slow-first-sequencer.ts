import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds a file's tests took in the quiet run of 2026-12-07 21:02 UTC (`npm test`, load 3–5), for
 * the files of 1.5 s or more; the two halves of the contract sequences are that file's 40 s split
 * (decision 226). Only the order matters: a file missing here, or measured again slower or faster,
 * still runs once.
 */
const MEASURED_SECONDS: Record<string, number> = {
  'tests/integration/contract-sequences.test.ts': 21,
  'tests/integration/contract-sequences-second-half.test.ts': 20,
  'tests/integration/backup.test.ts': 19.9,
  'tests/integration/compiled-server.test.ts': 13,
  'tests/integration/introduction-endings.test.ts': 12.3,
  'tests/security/authorisation-matrix.test.ts': 10.1,
  'tests/integration/deploy.test.ts': 6.9,
  'tests/integration/request-path.test.ts': 5.7,
  'machines/onboarding/onboarding.model.test.ts': 4.5,
  'tests/integration/agency-mails.test.ts': 4.4,
  'tests/security/fuzz.test.ts': 4,
  'machines/introductions/introduction.model.test.ts': 3.9,
  'tests/integration/meeting-feedback-and-ending.test.ts': 3.6,
  'tests/security/auth-code-caps.test.ts': 3.5,
  'tests/integration/termination-proof.test.ts': 3.5,
  'tests/integration/payments.test.ts': 3.4,
  'tests/integration/auth-api.test.ts': 3.4,
  'tests/security/bounded-work.test.ts': 3.2,
  'tests/integration/public-offers.test.ts': 3.2,
  'tests/integration/first-meeting-mails.test.ts': 3.1,
  'tests/integration/expected-instalments.test.ts': 2.6,
  'tests/integration/contract-ledger.test.ts': 2.5,
  'tests/integration/agency-clock.test.ts': 2.4,
  'tests/integration/privacy.test.ts': 2.3,
  'tests/integration/session-revocation.test.ts': 2.2,
  'tests/security/address-ownership.test.ts': 2.2,
  'tests/unit/french-typography.test.ts': 2.2,
  'tests/integration/readiness.test.ts': 2.1,
  'tests/integration/contract-rights.test.ts': 2.1,
  'tests/integration/introductions.test.ts': 2.1,
  'tests/integration/coupons.test.ts': 2.1,
  'tests/integration/instalments.test.ts': 1.8,
  'tests/integration/contract-signature.test.ts': 1.8,
  'tests/security/brute-force.test.ts': 1.8,
  'bff/images/image-route.test.ts': 1.7,
  'tests/integration/public-api.test.ts': 1.6,
  'tests/integration/password-reset-signin.test.ts': 1.5,
  'tests/integration/member-list.test.ts': 1.5,
  'tests/integration/member-cache.test.ts': 1.5,
};

/** The `product` project first (a worker keeps its module graph from one of its files to the next, decision 199), then `unit`. */
const PROJECT_ORDER = ['product', 'unit'];

/**
 * The slowest files first (decision 226). Vitest's own order runs its projects one after the other
 * and, inside one, sorts by the durations of the last run cached in `node_modules/.vite` — whatever
 * ran last, a single file or a run under load, and nothing on a fresh clone — so that a 40 s file
 * could start two thirds of the way through and leave the other worker alone at the end. Here the
 * order is the same on every machine: by project, then the measured seconds above, then the
 * biggest files (Vitest's own guess when it knows nothing), then the path.
 */
export class SlowFirstSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const key = (spec: TestSpecification) => {
      const path = relative(root, spec.moduleId);
      const projectRank = PROJECT_ORDER.indexOf(spec.project.name);
      return {
        path,
        project: projectRank === -1 ? PROJECT_ORDER.length : projectRank,
        seconds: MEASURED_SECONDS[path] ?? 0,
        size: statSync(spec.moduleId, { throwIfNoEntry: false })?.size ?? 0,
      };
    };
    const keys = new Map(files.map((spec) => [spec, key(spec)]));
    const sorted = [...files].sort((a, b) => {
      const x = keys.get(a);
      const y = keys.get(b);
      if (!x || !y) return 0;
      return x.project - y.project || y.seconds - x.seconds || y.size - x.size || x.path.localeCompare(y.path);
    });
    return Promise.resolve(sorted);
  }
}
