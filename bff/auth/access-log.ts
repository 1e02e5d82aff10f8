import type { Caller } from '#bff/auth/caller.ts';
import { accessLogRowsForMember, accessLogRowsForStaff, insertAccessLogEntry } from '#bff/auth/store/access-log.ts';
import type { AccessResource } from '#bff/db/access-log-schema.ts';
import type { Db } from '#bff/db/database.ts';

/**
 * The staff access log (GDPR art. 5(2), art. 9 data; decision 107): every staff read of a
 * member's file is recorded, in the same request and before the answer leaves. When the entry
 * cannot be written the read fails (the error goes to `onApiError`): no read goes unrecorded.
 */

/** What was read, in French, as the member and staff see it. */
export const ACCESS_RESOURCE_LABELS: Record<AccessResource, string> = {
  member_file: 'Dossier du membre (profil, questionnaire, paiements, rendez-vous, historique)',
  signed_contract: 'Contrat signé (PDF)',
  member_photo: 'Une photo du membre',
  member_presentation: 'La présentation du membre (à côté des candidats)',
  termination_proof: 'Le justificatif d’une demande de résiliation',
  member_billing: 'Les paiements et l’échéancier du membre',
  member_invoice: 'Les factures et avoirs du membre',
  member_follow_up: 'Le suivi du membre (notes, conseiller·ère, étiquettes)',
  member_messages: 'Les messages échangés avec le membre',
  member_candidates: 'Les candidats proposables au membre',
  member_change_requests: 'Les demandes de modification du membre',
  member_lists: 'La sélection et les exclusions du membre',
  member_introductions: 'Une mise en relation du membre',
  member_list: 'La liste des membres',
  member_search: 'Une recherche de membres',
  member_export: 'Export de la liste des membres',
  agency_billing: 'La facturation de l’agence',
  agency_messages: 'La messagerie de l’agence',
  agency_introductions: 'La liste des mises en relation',
  agency_agenda: 'L’agenda des rendez-vous',
  agency_leads: 'Les contacts reçus',
  access_journal: 'Le journal des accès de l’agence',
};

/** How the member's export names whoever read their file: the role, never a person (decision 107). */
export const STAFF_ROLE_LABEL = 'un membre de l’équipe Union Sincère';

/** The name given to a staff account at `staff:create` (kept in its onboarding column), if any. */
function staffNameOf(staff: Caller): string | null {
  const name = (staff.member.onboarding as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim().slice(0, 200) : null;
}

/** Records one staff read of one member's file. Throws when it cannot: the read must not go on. */
export async function recordStaffAccess(
  db: Db,
  input: {
    staff: Caller;
    /** Null for an agency-wide read (decision 206). */
    memberId: string | null;
    resource: AccessResource;
    requestId: string | undefined;
    now: Date;
    /** What an agency-wide read asked (its filters). */
    detail?: string | null;
  },
): Promise<void> {
  await insertAccessLogEntry(db, {
    memberId: input.memberId,
    staffId: input.staff.id,
    staffName: staffNameOf(input.staff),
    resource: input.resource,
    detail: input.detail?.slice(0, 500) ?? null,
    requestId: input.requestId?.slice(0, 64) ?? null,
    createdAt: input.now,
  });
}

/** A member's access log for staff: newest first, who by name (else address), what, when. */
export async function accessLogForStaff(db: Db, memberId: string, limit = 500) {
  const rows = await accessLogRowsForStaff(db, memberId, limit);
  return rows.map((r) => ({
    at: r.at.toISOString(),
    staff: { id: r.staffId, name: r.staffName ?? r.staffEmail ?? 'Compte supprimé' },
    resource: r.resource,
    label: ACCESS_RESOURCE_LABELS[r.resource],
  }));
}

/** The same log in the member's export: who by role only, what, when (oldest first). */
export async function accessLogForMember(db: Db, memberId: string) {
  const rows = await accessLogRowsForMember(db, memberId);
  return rows.map((r) => ({ at: r.at.toISOString(), by: STAFF_ROLE_LABEL, what: ACCESS_RESOURCE_LABELS[r.resource] }));
}
