import type * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import { ApiError } from '#bff/http/errors.ts';
import { endIntroductionsOf } from '#bff/introductions/introductions.ts';
import { recordOf } from '#bff/members/members.ts';
import { stageColumns } from '#bff/members/stage.ts';
import { memberById, updateMemberRow } from '#bff/members/store/members.ts';
import { insertOnboardingEvent } from '#bff/members/store/onboarding-events.ts';
import { stateFromRecord } from '#machines/onboarding/restore.ts';
import { stateKey } from '#machines/onboarding/steps.ts';
import { applyBan, type banPayloadSchema } from '#machines/onboarding/update-contexts.ts';

/**
 * A member's account disabled or re-enabled by staff (`POST /auth/ban`): the chart's record, the
 * flag, the stage columns and the event-log row in one transaction; a disabled account ends its
 * introductions at once (decision 194), lifting the ban brings none back. 404 when the id is no
 * member's. The auth user's ban is the route's (after the commit).
 */
export async function banMember(db: Db, payload: v.InferOutput<typeof banPayloadSchema>, staffId: string, now: Date) {
  return db.transaction(async (tx) => {
    const row = await memberById(tx, payload.uid);
    if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
    const record = recordOf(row);
    const fromState = stateKey(stateFromRecord(record, now.getTime()));
    const next = applyBan(record, payload);
    const version = row.version + 1;
    const updated = await updateMemberRow(tx, row.id, {
      onboarding: next,
      disabled: payload.disable,
      version,
      updatedAt: now,
      ...stageColumns(next, version),
    });
    if (payload.disable) await endIntroductionsOf(tx, row.id, 'compte-desactive', now);
    await insertOnboardingEvent(tx, {
      memberId: row.id,
      context: 'ban',
      event: payload.disable ? 'DISABLE' : 'ENABLE',
      payload,
      fromState,
      toState: stateKey(stateFromRecord(next, now.getTime())),
      actorId: staffId,
      actorRole: 'staff',
      version,
      createdAt: now,
    });
    return updated;
  });
}
