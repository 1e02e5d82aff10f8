import * as v from 'valibot';
import type { Db } from '#bff/db/database.ts';
import type { GuardianRow } from '#bff/db/guardian-schema.ts';
import { validationError } from '#bff/http/errors.ts';
import { deleteGuardianRow, guardianRow, upsertGuardian } from '#bff/introductions/store/guardians.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { guardianContactMail, guardianProposalCopyMail, type SummaryLines } from '#bff/mail/guardian-mails.ts';
import { enqueueMailOnce, type Executor } from '#bff/mail/outbox.ts';
import {
  type ContactVia,
  contactViaFor,
  contactViaLabels,
  type Guardian,
  GuardianBody,
  type GuardianContact,
  guardianContactOf,
  type GuardianReceives,
  type GuardianRelation,
  guardianReceivesLabels,
  guardianRelationLabels,
  waliOnlyContactOf,
} from '#machines/introductions/guardian.ts';
import type { Side } from '#machines/introductions/labels.ts';

/**
 * The member's guardian (issue 22, decision 117): one optional row per member in
 * `member_guardians`, read and written by the member only (`/user/guardian`), and the two mails
 * it may receive, queued in the transaction of the introduction event that causes them.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isRelation(value: string): value is GuardianRelation {
  return Object.hasOwn(guardianRelationLabels, value);
}
function isContactVia(value: string): value is ContactVia {
  return Object.hasOwn(contactViaLabels, value);
}
function isReceives(value: string): value is GuardianReceives {
  return Object.hasOwn(guardianReceivesLabels, value);
}

function guardianOfRow(row: GuardianRow): Guardian | null {
  if (!isRelation(row.relation) || !isReceives(row.receives)) return null;
  return {
    name: row.name,
    relation: row.relation,
    relationLabel: guardianRelationLabels[row.relation],
    email: row.email,
    phone: row.phone,
    receives: row.receives,
    receivesLabel: guardianReceivesLabels[row.receives],
    contactVia: isContactVia(row.contactVia) ? row.contactVia : 'moi',
    contactViaLabel: contactViaLabels[isContactVia(row.contactVia) ? row.contactVia : 'moi'],
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function guardianOf(executor: Executor, memberId: string): Promise<Guardian | null> {
  if (!UUID.test(memberId)) return null;
  const row = await guardianRow(executor, memberId);
  return row ? guardianOfRow(row) : null;
}

/** The guardian's contact as the other side of a mutually accepted introduction sees it, when the member chose so. */
export async function guardianContactFor(executor: Executor, memberId: string): Promise<GuardianContact | null> {
  return guardianContactOf(await guardianOf(executor, memberId));
}

/**
 * How the other member reaches `memberId` in an introduction (decision 196): the choice that holds
 * (`contactViaFor`: the introduction's own, else the settings'), and, when it is « par mon walī »,
 * what of the walī is released (name and phone only; null when the walī has no phone any more).
 */
export async function contactChoiceOf(
  executor: Executor,
  memberId: string,
  introductionChoice: string | null,
): Promise<{ via: ContactVia; fromSettings: boolean; wali: GuardianContact | null; guardian: Guardian | null }> {
  const guardian = await guardianOf(executor, memberId);
  const via = contactViaFor(introductionChoice, guardian);
  return {
    via,
    fromSettings: introductionChoice !== 'moi' && introductionChoice !== 'wali',
    wali: via === 'wali' ? waliOnlyContactOf(guardian) : null,
    guardian,
  };
}

/** Sets (creates or replaces) the member's guardian from an unvalidated body: a French 400 when invalid. */
export async function putGuardian(db: Db, memberId: string, body: unknown, now: Date): Promise<Guardian> {
  const parsed = v.safeParse(GuardianBody, body);
  if (!parsed.success) throw validationError(parsed.issues);
  const g = parsed.output;
  const values = {
    name: g.name,
    relation: g.relation,
    email: g.email ?? null,
    phone: g.phone ?? null,
    receives: g.receives,
    contactVia: g.contactVia,
    informedAt: now,
    updatedAt: now,
  };
  const row = await upsertGuardian(db, memberId, values, now);
  const guardian = row ? guardianOfRow(row) : null;
  if (!guardian) throw new Error('member_guardians upsert returned nothing');
  return guardian;
}

/** Removes the member's guardian; true when there was one. */
export async function deleteGuardian(db: Db, memberId: string): Promise<boolean> {
  return deleteGuardianRow(db, memberId);
}

// ---------------------------------------------------------------------------
// Mails to guardians, from an introduction's events

/** What the guardian's mails say of a member (the caller reads it from `members` and `match_profiles`). */
export interface DescribedMember {
  firstName: string | null;
  email: string;
  phone: string | null;
  summary: SummaryLines | null;
}

export interface GuardianMailInput {
  introductionId: string;
  round: number;
  members: Record<Side, string>;
  deadline: Date;
  describe: (memberId: string) => Promise<DescribedMember | null>;
  /** Each member's choice for this introduction (decision 196): « par mon walī » releases the walī only. */
  contactVia?: Partial<Record<string, ContactVia>>;
}

/** The dedupe key of a guardian's mail: once per introduction, round and member (erasure finds them by the introduction). */
function guardianMailKey(kind: 'copy' | 'contact', introductionId: string, round: number, memberId: string): string {
  return `guardian-${kind}:${introductionId}:${round}:${memberId}`;
}

/**
 * On a proposal (`proposed`): a copy to each member's guardian who asked for copies. On mutual
 * acceptance (`accepted`): the other's contact (and the other's guardian's, if chosen) to each
 * member's guardian who asked for contact details. Nothing otherwise; never twice.
 */
export async function queueGuardianMails(
  executor: Executor,
  site: AgencyMailSite,
  moment: 'proposed' | 'accepted',
  input: GuardianMailInput,
): Promise<number> {
  let queued = 0;
  for (const side of ['a', 'b'] as const) {
    const memberId = input.members[side];
    const otherId = input.members[side === 'a' ? 'b' : 'a'];
    const guardian = await guardianOf(executor, memberId);
    if (!guardian?.email) continue;
    const wanted = moment === 'proposed' ? 'copie-propositions' : 'coordonnees';
    if (guardian.receives !== wanted) continue;
    const member = await input.describe(memberId);
    const other = await input.describe(otherId);
    if (!member || !other) continue;
    const recipient = { to: guardian.email, name: guardian.name };
    const mail =
      moment === 'proposed'
        ? guardianProposalCopyMail(site, recipient, {
            memberFirstName: member.firstName,
            relation: guardian.relationLabel,
            summary: other.summary,
            deadline: input.deadline,
          })
        : guardianContactMail(site, recipient, {
            memberFirstName: member.firstName,
            relation: guardian.relationLabel,
            ...(input.contactVia?.[otherId] === 'wali'
              ? {
                  other: { firstName: other.firstName, email: null, phone: null },
                  otherGuardian: waliOnlyContactOf(await guardianOf(executor, otherId)),
                }
              : {
                  other: { firstName: other.firstName, email: other.email, phone: other.phone },
                  otherGuardian: await guardianContactFor(executor, otherId),
                }),
          });
    const key = guardianMailKey(moment === 'proposed' ? 'copy' : 'contact', input.introductionId, input.round, memberId);
    if ((await enqueueMailOnce(executor, mail, key)) !== null) queued += 1;
  }
  return queued;
}

/** Guardians' mails about any introduction of a member, for erasure (a condition on `outbox`'s dedupe keys). */
