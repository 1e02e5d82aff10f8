import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import type { IntroductionRow } from '#bff/db/introductions-schema.ts';
import { standingRows } from '#bff/members/store/standing.ts';
import type { Side } from '#machines/introductions/labels.ts';
import { type Standing, standingOf } from '#machines/introductions/sharing.ts';
import { onboardingRecordSchema } from '#machines/onboarding/record.ts';

/**
 * Where members stand at the agency's `now`, as `sharingOf` reads it (decision 194): their account
 * (erased, disabled), their sensitive-data consent, and the contract their record holds with its
 * end by `now` (`contractEnd`: renounced, withdrawn, terminated, or at its term). One query for
 * any number of members.
 */

/** Nobody to read (a row gone): as a member without a contract, nothing of an introduction is shared. */
const NOBODY: Standing = { erasedAt: null, disabled: true, consentWithdrawnAt: null, contract: null };

export async function standingsOf(executor: Pick<Db, 'select'>, memberIds: readonly string[], now: Date): Promise<Map<string, Standing>> {
  const ids = [...new Set(memberIds.map((id) => id.toLowerCase()))];
  const out = new Map<string, Standing>();
  if (ids.length === 0) return out;
  const rows = await standingRows(executor, ids);
  for (const row of rows) {
    // A record the chart cannot read has no contract to share under.
    const parsed = v.safeParse(onboardingRecordSchema, row.onboarding);
    const record = parsed.success ? parsed.output : null;
    out.set(
      row.id.toLowerCase(),
      standingOf(
        {
          erasedAt: row.erasedAt?.getTime() ?? null,
          disabled: row.disabled,
          matchmakingPausedAt: row.pausedAt?.getTime() ?? null,
          record,
        },
        now.getTime(),
      ),
    );
  }
  return out;
}

/** Both members of an introduction, by side. */
export function standingPair(
  standings: ReadonlyMap<string, Standing>,
  row: Pick<IntroductionRow, 'memberA' | 'memberB'>,
): Record<Side, Standing> {
  return {
    a: standings.get(row.memberA.toLowerCase()) ?? NOBODY,
    b: standings.get(row.memberB.toLowerCase()) ?? NOBODY,
  };
}
