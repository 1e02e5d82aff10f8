import type { SupabaseClient } from '@supabase/supabase-js';
import type { Config } from '#bff/config.ts';
import type { Db } from '#bff/db/database.ts';
import { avatarPng } from '#bff/demo/avatar.ts';
import { applyIntroductionEvent, type IntroductionActor, proposeIntroduction } from '#bff/introductions/introductions.ts';
import { invoiceRecordedPayment } from '#bff/invoices/invoices.ts';
import { recordInstalmentEvent } from '#bff/payments/instalments.ts';
import { addPhoto, processPhoto } from '#bff/photos/member-photos.ts';
import { DAY_MS, toIsoInstant } from '#machines/onboarding/instant.ts';
import { expectedAmountCents, type PlanId, planById } from '#machines/onboarding/plans.ts';
import type { OnboardingRecord } from '#machines/onboarding/record.ts';
import { type CastMember, HOUR_MS } from '#bff/demo/cast.ts';
import { insertCheckoutSession, insertContactMessage, insertDirectMessages, insertLeadFollowUp } from '#bff/demo/store/agency-life.ts';

/**
 * The demo agency's life beyond each member's own file (decision 207), seeded by `agency.ts`
 * through the product's own functions: payments and instalments, pictures, introductions in each
 * state, leads and messages.
 */

export interface Seeding {
  admin: SupabaseClient;
  db: Db;
  config: Config;
  now: number;
  staffId: string;
}

/** The file fee and the plan's first payment (checkout sessions, each with its invoice), then the instalments due since. */
export async function seedPayments(
  s: Seeding,
  member: CastMember,
  id: string,
  record: OnboardingRecord,
  contractId: number | null,
  paidAt: number,
): Promise<void> {
  const { db, config, now } = s;
  const planId = record.selectedPlanId as PlanId;
  const plan = planById(planId);
  const subscriptionId = plan.type === 'monthly' ? `sub_demo_${id.replaceAll('-', '')}` : null;
  const sessions = [
    { offerId: 'file_fee', context: 'app', at: paidAt, subscriptionId: null },
    { offerId: planId, context: 'sub', at: paidAt + 5 * 60_000, subscriptionId },
  ] as const;
  for (const session of sessions) {
    const sessionId = `cs_demo_${session.context}_${id.replaceAll('-', '')}`;
    await db.transaction(async (tx) => {
      await insertCheckoutSession(tx, {
        id: sessionId,
        memberId: id,
        offerId: session.offerId,
        amountTotal: expectedAmountCents(session.offerId, record),
        currency: 'eur',
        status: 'complete',
        paymentStatus: 'paid',
        customerEmail: record.email,
        livemode: false,
        consumedAt: new Date(session.at),
        consumedByContext: session.context,
        subscriptionId: session.subscriptionId,
        contractId,
        createdAt: new Date(session.at),
        updatedAt: new Date(session.at),
      });
      await invoiceRecordedPayment(tx, config, sessionId, new Date(session.at));
    });
  }
  if (subscriptionId === null) return;
  // Instalments 2…: one a month after the first, as long as they fall before now and inside the contract.
  const stopped = record.terminationRequestedAt ?? record.contractWithdrawnAt ?? null;
  const until = stopped ? Math.min(now, Date.parse(stopped)) : now;
  for (let number = 2; number <= plan.installments; number++) {
    const at = paidAt + (number - 1) * 30 * DAY_MS;
    if (at >= until) break;
    const failed = member.failedInstalment === true && at + 30 * DAY_MS >= until;
    const invoiceId = `in_demo_${number}_${id.replaceAll('-', '')}`;
    await recordInstalmentEvent(
      db,
      config,
      { id: `evt_demo_${number}_${id.replaceAll('-', '')}`, type: failed ? 'invoice.payment_failed' : 'invoice.paid', livemode: false },
      {
        id: invoiceId,
        object: 'invoice',
        billing_reason: 'subscription_cycle',
        amount_paid: failed ? 0 : plan.priceCents,
        amount_due: plan.priceCents,
        currency: 'eur',
        livemode: false,
        customer_email: record.email,
        parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } },
      },
      new Date(at),
    );
  }
}

export async function addAvatar(db: Db, member: CastMember, index: number, id: string, now: number): Promise<void> {
  const png = await avatarPng(member.firstName, index);
  await addPhoto(db, id, await processPhoto(png), new Date(now - 20 * DAY_MS));
}

/** One introduction in each state of the chart, between active members, each walked through its events. */
export async function seedIntroductions(s: Seeding, byName: Map<string, string>): Promise<void> {
  const { db, now, staffId } = s;
  const staff: IntroductionActor = { id: staffId, role: 'staff' };
  const id = (name: string) => byName.get(name) as string;
  const member = (name: string): IntroductionActor => ({ id: id(name), role: 'member' });
  type Step = [number, unknown, IntroductionActor];
  const walk = async (a: string, b: string, proposedDaysAgo: number, steps: (at: (days: number) => Date) => Step[]) => {
    const at = (days: number) => new Date(now - days * DAY_MS);
    const row = await proposeIntroduction(db, {
      staffId,
      a: id(a),
      b: id(b),
      noteA: `${b} partage votre attachement à la famille et habite non loin de chez vous.`,
      noteB: `${a} cherche, comme vous, une relation sérieuse et simple.`,
      now: at(proposedDaysAgo),
    });
    for (const [days, body, actor] of steps(at)) {
      await applyIntroductionEvent(db, { introductionId: row.id, body, actor, now: at(days) });
    }
  };
  const accept = (side: 'a' | 'b') => ({ type: 'ACCEPT', side });
  const meetingIn = (days: number) => toIsoInstant(now + days * DAY_MS);
  const place = 'Salon de thé Les Jardins, 12 rue de la Roquette, Paris';

  // Older ones first: the open introductions of a member never go beyond the limit.
  await walk('Salma', 'Karim', 40, () => [
    [39, accept('a'), member('Salma')],
    [38, accept('b'), member('Karim')],
    [36, { type: 'PLAN_MEETING', meetingAt: meetingIn(-30), place, accompaniedBy: 'La conseillère de l’agence' }, staff],
    [29, { type: 'RECORD_MEETING_HELD' }, staff],
    [27, { type: 'FEEDBACK', side: 'a', outcome: 'continuer' }, member('Salma')],
    [26, { type: 'FEEDBACK', side: 'b', outcome: 'continuer' }, member('Karim')],
  ]);
  await walk('Yasmine', 'Ilyes', 60, () => [
    [59, accept('a'), member('Yasmine')],
    [58, accept('b'), member('Ilyes')],
    [55, { type: 'PLAN_MEETING', meetingAt: meetingIn(-50), place: 'Agence, salon du rez-de-chaussée' }, staff],
    [49, { type: 'RECORD_MEETING_HELD' }, staff],
    [45, { type: 'FEEDBACK', side: 'a', outcome: 'fiances' }, member('Yasmine')],
    [44, { type: 'FEEDBACK', side: 'b', outcome: 'fiances' }, member('Ilyes')],
  ]);
  await walk('Nadia', 'Samir', 30, () => [[27, { type: 'CLOSE', note: 'Nadia a demandé une pause de quelques semaines.' }, staff]]);
  await walk('Sarah', 'Bilal', 25, () => [
    [24, { type: 'DECLINE', side: 'b', reason: 'region', comment: 'Trop loin pour moi en ce moment.' }, member('Bilal')],
  ]);
  await walk('Myriam', 'Adam', 20, () => [[11, { type: 'EXPIRE' }, staff]]);
  await walk('Amira', 'Mehdi', 16, () => [
    [15, accept('a'), member('Amira')],
    [14, accept('b'), member('Mehdi')],
    [12, { type: 'PLAN_MEETING', meetingAt: meetingIn(-4), place }, staff],
    [3, { type: 'RECORD_MEETING_HELD' }, staff],
  ]);
  await walk('Leïla', 'Nassim', 9, () => [
    [8, accept('a'), member('Leïla')],
    [7, accept('b'), member('Nassim')],
    [3, { type: 'PLAN_MEETING', meetingAt: meetingIn(2), place, accompaniedBy: 'Le frère de Leïla' }, staff],
  ]);
  await walk('Inès', 'Rayan', 6, () => [
    [5, accept('a'), member('Inès')],
    [4, accept('b'), member('Rayan')],
  ]);
  await walk('Salma', 'Adam', 2, () => [[1, accept('a'), member('Salma')]]);
  await walk('Sarah', 'Karim', 1, () => []);
}

/** Contact messages, some followed up, one to call back today. */
export async function seedLeads(db: Db, now: number): Promise<void> {
  const leads = [
    {
      name: 'Hind Ait Ali',
      email: 'hind.aitali@exemple.fr',
      subject: 'Renseignements sur les formules',
      message: 'Bonjour, je voudrais savoir si un entretien est possible un samedi. Merci.',
      daysAgo: 1,
      status: 'nouveau',
      followUpIn: null,
    },
    {
      name: 'Mourad Saidi',
      email: 'mourad.saidi@exemple.fr',
      subject: 'Inscription pour mon frère',
      message: 'Salam, mon frère aimerait s’inscrire mais n’est pas à l’aise avec internet. Pouvez-vous l’appeler ?',
      daysAgo: 4,
      status: 'contacte',
      followUpIn: 0,
    },
    {
      name: 'Kenza Brahimi',
      email: 'kenza.brahimi@exemple.fr',
      subject: 'Question sur la confidentialité',
      message: 'Qui voit mes photos ? Je ne souhaite pas qu’elles soient visibles par tous.',
      daysAgo: 6,
      status: 'contacte',
      followUpIn: 2,
    },
    {
      name: 'Yacine Meziane',
      email: 'yacine.meziane@exemple.fr',
      subject: 'Tarifs pour la région lyonnaise',
      message: 'Les tarifs sont-ils les mêmes à Lyon ? Je suis intéressé par la formule annuelle.',
      daysAgo: 12,
      status: 'sans_suite',
      followUpIn: null,
    },
  ];
  for (const lead of leads) {
    const createdAt = new Date(now - lead.daysAgo * DAY_MS - 3 * HOUR_MS);
    const leadId = await insertContactMessage(db, {
      name: lead.name,
      email: lead.email,
      subject: lead.subject,
      message: lead.message,
      createdAt,
    });
    if (leadId === undefined || (lead.status === 'nouveau' && lead.followUpIn === null)) continue;
    const followUpOn = lead.followUpIn === null ? null : toIsoInstant(now + lead.followUpIn * DAY_MS).slice(0, 10);
    await insertLeadFollowUp(db, { leadId, kind: 'contact', status: lead.status, followUpOn, updatedAt: createdAt });
  }
}

/** A few conversations between members and the agency, some unread by the staff. */
export async function seedMessages(db: Db, now: number, staffId: string, byName: Map<string, string>): Promise<void> {
  const at = (days: number) => new Date(now - days * DAY_MS);
  const rows = [
    {
      memberId: byName.get('Salma') as string,
      authorId: staffId,
      direction: 'to_member' as const,
      subject: 'Votre rencontre avec Karim',
      body: 'Bonjour Salma, comment s’est passée votre rencontre ? Nous restons disponibles si vous souhaitez en parler.',
      createdAt: at(27),
      memberReadAt: at(27),
      staffReadAt: at(27),
    },
    {
      memberId: byName.get('Salma') as string,
      authorId: byName.get('Salma') as string,
      direction: 'to_agency' as const,
      subject: 'Re : Votre rencontre avec Karim',
      body: 'Très bien, merci ! Nous souhaitons continuer à nous connaître.',
      createdAt: at(26),
      memberReadAt: at(26),
      staffReadAt: at(26),
    },
    {
      memberId: byName.get('Naïma') as string,
      authorId: byName.get('Naïma') as string,
      direction: 'to_agency' as const,
      subject: 'Question sur le contrat',
      body: 'Bonjour, puis-je payer la formule annuelle en deux fois ?',
      createdAt: at(1),
      memberReadAt: at(1),
      staffReadAt: null,
    },
    {
      memberId: byName.get('Khadija') as string,
      authorId: byName.get('Khadija') as string,
      direction: 'to_agency' as const,
      subject: 'Ma demande de résiliation',
      body: 'Bonjour, je vous ai envoyé le justificatif de mon déménagement à l’étranger. Merci de me confirmer.',
      createdAt: at(2),
      memberReadAt: at(2),
      staffReadAt: null,
    },
    {
      memberId: byName.get('Karim') as string,
      authorId: staffId,
      direction: 'to_member' as const,
      subject: 'Une nouvelle proposition',
      body: 'Bonjour Karim, une nouvelle proposition vous attend dans votre espace. Prenez le temps de la lire.',
      createdAt: at(1),
      memberReadAt: null,
      staffReadAt: at(1),
    },
  ];
  await insertDirectMessages(db, rows);
}
