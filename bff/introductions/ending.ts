import type { Db } from '#bff/db/database.ts';
import type { IntroductionRow } from '#bff/db/introductions-schema.ts';
import { introductionById } from '#bff/introductions/store/introductions.ts';
import { meetingRecipients } from '#bff/introductions/meeting-mails.ts';
import type { AgencyMailSite } from '#bff/mail/agency-mails.ts';
import { introductionEndedMail, introductionEndedWaliMail } from '#bff/mail/introduction-mails.ts';
import { enqueueMailOnce, type Executor } from '#bff/mail/outbox.ts';
import { type IntroductionContext, otherSide } from '#machines/introductions/context.ts';
import type { Side } from '#machines/introductions/labels.ts';
import { endReasonFor, type SharingEnd } from '#machines/introductions/sharing.ts';

/**
 * The end of an introduction told to the member who did not ask for it (issue 62 point 5, decision
 * 205): staff's close carries a message (chosen from the templates, edited) for the other member,
 * or for both when the agency decided; a member's stop gives the other side a plain sentence. By
 * mail (the shared layout) and on the member's screen, instead of a bare « Close ».
 */

export interface EndedView {
  at: string | null;
  /** Why, in the member's words (their own cause, the agency's close, the other's choice), or null. */
  why: string | null;
  wasShared: boolean;
  /** The counsellor's message to this member when staff closed it (decision 205), else null. */
  message: string | null;
}

/** Who hears of the close, and with what message (null: the plain sentence of a member's stop). */
function endingRecipients(context: IntroductionContext): { sides: Side[]; message: string | null } {
  if (context.ended !== null) return { sides: [], message: null };
  if (context.closeMessage) {
    const asked = context.closeMessage.askedBy;
    return { sides: asked === null ? ['a', 'b'] : [otherSide(asked)], message: context.closeMessage.text };
  }
  // A member's stop after the meeting (their feedback, or staff's record of it heard by phone).
  const stopper = (['a', 'b'] as const).find((s) => context.feedback[s]?.outcome === 'arreter');
  if (context.closeNote === null && stopper) return { sides: [otherSide(stopper)], message: null };
  return { sides: [], message: null };
}

export function endedViewOf(end: SharingEnd, context: IntroductionContext, side: Side, wasShared: boolean): EndedView {
  const base = { at: end.at, wasShared };
  if (end.kind === 'arret' && end.by !== 'equipe' && end.by !== side) {
    return { ...base, why: 'l’autre personne a choisi de ne pas poursuivre', message: null };
  }
  if (end.kind === 'arret' && end.by === 'equipe' && context.closeMessage) {
    const asked = context.closeMessage.askedBy;
    if (asked === side) return { ...base, why: 'vous avez demandé à arrêter', message: null };
    return {
      ...base,
      why: asked === null ? 'votre conseillère l’a close' : 'l’autre personne a souhaité ne pas poursuivre',
      message: context.closeMessage.text,
    };
  }
  return { ...base, why: endReasonFor(end, side), message: null };
}

/**
 * Queues the end's mail to each member who hears of it, once per round and side, and a short word to
 * the walī of either member who receives the member's news (the first meeting's rule, decision 197).
 */
export async function queueEndingMails(
  executor: Executor,
  site: AgencyMailSite,
  row: Pick<IntroductionRow, 'id' | 'memberA' | 'memberB' | 'contactViaA' | 'contactViaB'>,
  round: number,
  context: IntroductionContext,
  personOf: (memberId: string) => Promise<{ email: string; firstName: string | null } | null>,
): Promise<number> {
  const { sides, message } = endingRecipients(context);
  let queued = 0;
  for (const side of sides) {
    const person = await personOf(side === 'a' ? row.memberA : row.memberB);
    if (!person) continue;
    const mail = introductionEndedMail(site, { to: person.email, firstName: person.firstName }, { message });
    if ((await enqueueMailOnce(executor, mail, `introduction-ended:${row.id}:${round}:${side}`)) !== null) queued += 1;
  }
  if (sides.length === 0) return queued;
  for (const r of await meetingRecipients(executor, row, personOf)) {
    if (!r.who.startsWith('wali-')) continue;
    const mail = introductionEndedWaliMail(site, { to: r.to, firstName: r.firstName }, { waliOf: r.waliOf ?? null });
    if ((await enqueueMailOnce(executor, mail, `introduction-ended:${row.id}:${round}:${r.who}`)) !== null) queued += 1;
  }
  return queued;
}

const WALI_ENDED_KEY = /^introduction-ended:([0-9a-f-]{36}):(\d+):wali-(a|b)$/i;

/**
 * Asked by the dispatcher when it sends the walī's word of the end (decision 191's check): dropped
 * when the introduction is gone (erased) or no longer closed, or when the member's walī no longer
 * has this address or no longer receives the member's news. Null: send it.
 */
export async function waliEndedDropReason(db: Db, dedupeKey: string | null, to: string): Promise<string | null> {
  const key = WALI_ENDED_KEY.exec(dedupeKey ?? '');
  if (!key) return 'message au walī sans mise en relation';
  const row = await introductionById(db, key[1] as string);
  if (!row) return 'mise en relation introuvable';
  if (row.state !== 'close') return `ne s’applique plus à l’état ${row.state}`;
  const recipients = await meetingRecipients(db, row, async () => ({ email: '', firstName: null }));
  const wali = recipients.find((r) => r.who === `wali-${key[3]}`);
  if (!wali) return 'le walī ne reçoit plus les nouvelles du membre';
  if (wali.to !== to) return 'l’adresse du walī a changé';
  return null;
}
