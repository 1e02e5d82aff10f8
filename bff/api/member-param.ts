import * as v from 'valibot';
import { ApiError, validationError } from '#bff/http/errors.ts';
import { memberRoleById } from '#bff/members/member-rows.ts';

type Db = Parameters<typeof memberRoleById>[0];

const MemberIdSchema = v.pipe(v.string('Identifiant invalide'), v.uuid('Identifiant invalide'));

/**
 * The `:id` of a staff route that names a member: 400 in the error shape when it is not a UUID
 * (it must never reach a uuid column: that would be a 500), 404 « Membre introuvable. » when no
 * member has it (a staff account's id included). Answers the id.
 */
export async function existingMemberId(db: Db, id: string): Promise<string> {
  const parsed = v.safeParse(MemberIdSchema, id);
  if (!parsed.success) throw validationError(parsed.issues, 'Paramètres invalides');
  const row = await memberRoleById(db, parsed.output);
  if (row?.role !== 'member') throw new ApiError(404, 'MEMBER_NOT_FOUND', 'Membre introuvable.');
  return parsed.output;
}
