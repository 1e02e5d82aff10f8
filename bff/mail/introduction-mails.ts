import { type AgencyMailSite, dateTimeFr, layout, type Recipient, siteLink } from '#bff/mail/agency-mails.ts';
import type { OutgoingMail } from '#bff/mail/outbox.ts';
import { FEEDBACK_DEADLINE_DAYS } from '#machines/introductions/feedback-deadline.ts';

/**
 * The mails of introductions (issue 22), French, through the outbox. Like the agency's mails
 * (decision 111) they carry at most the recipient's own first name: never anything about the
 * other person (no name, no age, no town), who is only ever shown in the member's space.
 */

/** Where a member reads their proposals. */
const PROPOSALS_PATH = '/mon-compte/propositions';

/** A new proposal (or a re-opened one): nothing about the other person, only where to read it and until when. */
export function introductionProposedMail(site: AgencyMailSite, recipient: Recipient, input: { deadline: Date }): OutgoingMail {
  return layout(site, recipient, 'introduction-proposed', 'Une nouvelle proposition vous attend', [
    {
      text: 'L’agence vous propose une mise en relation, choisie d’après vos critères. Le résumé anonymisé du profil et les raisons de cette proposition vous attendent dans votre espace.',
    },
    {
      text: `Vous pouvez accepter ou décliner jusqu’au ${dateTimeFr(input.deadline)}. Rien de vos coordonnées n’est transmis sans l’accord des deux personnes.`,
    },
    { link: siteLink(site, PROPOSALS_PATH), label: 'Voir la proposition' },
  ]);
}

/** Both accepted: contact details are in the member's space (never in the mail). */
export function introductionAcceptedMail(site: AgencyMailSite, recipient: Recipient): OutgoingMail {
  return layout(site, recipient, 'introduction-accepted', 'Acceptation mutuelle : votre mise en relation', [
    { text: 'Bonne nouvelle : la proposition a été acceptée des deux côtés. Les coordonnées sont désormais visibles dans votre espace.' },
    { text: 'L’agence reviendra vers vous pour organiser une première rencontre dans un cadre respectueux.' },
    { link: siteLink(site, PROPOSALS_PATH), label: 'Voir mes propositions' },
  ]);
}

/** Day 5 of 7, to whoever has not answered yet. */
export function introductionReminderMail(site: AgencyMailSite, recipient: Recipient, input: { deadline: Date }): OutgoingMail {
  return layout(site, recipient, 'introduction-reminder', 'Rappel : une proposition attend votre réponse', [
    {
      text: `Une proposition attend toujours votre réponse. Il vous reste jusqu’au ${dateTimeFr(input.deadline)} pour accepter ou décliner.`,
    },
    { link: siteLink(site, PROPOSALS_PATH), label: 'Répondre à la proposition' },
  ]);
}

/** The 7 days passed without both answers. */
export function introductionExpiredMail(site: AgencyMailSite, recipient: Recipient): OutgoingMail {
  return layout(site, recipient, 'introduction-expired', 'Une proposition a expiré', [
    {
      text: 'Le délai de réponse de 7 jours d’une proposition est passé sans les deux réponses : elle a expiré et aucune coordonnée n’a été transmise.',
    },
    { text: 'L’agence continue de chercher pour vous ; n’hésitez pas à nous écrire si vos critères ont changé.' },
    { link: siteLink(site, PROPOSALS_PATH), label: 'Voir mes propositions' },
  ]);
}

/** What a meeting mail says (decision 197): when (French, Paris time), where, and who accompanies. */
export interface MeetingDetails {
  at: Date;
  place: string;
  accompaniedBy: string | null;
}

export type MeetingMoment = 'planned' | 'moved' | 'cancelled' | 'held' | 'reminder';

const meetingSubjects: Record<MeetingMoment, string> = {
  planned: 'Votre première rencontre est planifiée',
  moved: 'Votre première rencontre a été déplacée',
  cancelled: 'Votre première rencontre est annulée',
  held: 'Après votre première rencontre',
  reminder: 'Rappel : votre première rencontre, demain',
};

function meetingLines(m: MeetingDetails): { text: string }[] {
  return [
    { text: `Date : le ${dateTimeFr(m.at)} (heure de Paris)` },
    { text: `Lieu : ${m.place}` },
    { text: `Accompagnement : ${m.accompaniedBy ?? 'votre conseillère de l’agence'}` },
  ];
}

/**
 * A first meeting planned, moved, cancelled, held, or tomorrow (decision 197), to a member or to
 * the walī who receives it (`about`: the member's first name, for the walī's copy). Like the other
 * introduction mails, nothing about the other person.
 */
export function introductionMeetingMail(
  site: AgencyMailSite,
  recipient: Recipient,
  moment: MeetingMoment,
  meeting: MeetingDetails,
  about: { waliOf: string | null } | null = null,
): OutgoingMail {
  const intro =
    about === null
      ? []
      : [{ text: `Vous recevez ce message comme walī de ${about.waliOf ?? 'la personne que vous accompagnez'}, à sa demande.` }];
  const body: Record<MeetingMoment, { text: string }[]> = {
    planned: [{ text: 'L’agence a organisé la première rencontre, dans un cadre respectueux :' }, ...meetingLines(meeting)],
    moved: [{ text: 'La première rencontre a été déplacée. Nouvelle date :' }, ...meetingLines(meeting)],
    cancelled: [
      { text: `La première rencontre prévue le ${dateTimeFr(meeting.at)} (heure de Paris), ${meeting.place}, est annulée.` },
      { text: 'Votre conseillère reviendra vers vous pour en convenir d’une autre.' },
    ],
    held: [
      { text: `La première rencontre du ${dateTimeFr(meeting.at)} a eu lieu.` },
      {
        text: `Votre retour est attendu dans votre espace d’ici ${FEEDBACK_DAYS} jours : souhaitez-vous continuer à vous connaître ou arrêter ? Votre conseillère peut aussi le recueillir par téléphone.`,
      },
    ],
    reminder: [{ text: 'Pour mémoire, votre première rencontre a lieu demain :' }, ...meetingLines(meeting)],
  };
  return layout(site, recipient, `introduction-meeting-${moment === 'reminder' ? 'reminder' : moment}`, meetingSubjects[moment], [
    ...intro,
    ...body[moment],
    ...(about === null ? [{ link: siteLink(site, PROPOSALS_PATH), label: 'Voir dans mon espace' }] : []),
  ]);
}

/** Days after the meeting within which each member is asked for their feedback (decisions 197 and 205: the chart's rule). */
const FEEDBACK_DAYS = FEEDBACK_DEADLINE_DAYS;

/**
 * Decision 205: 2 days before the end of the period to give one's feedback after the first meeting,
 * to the member who has not given it (re-checked at sending: dropped once given or closed).
 */
export function introductionFeedbackReminderMail(site: AgencyMailSite, recipient: Recipient, input: { until: string }): OutgoingMail {
  return layout(site, recipient, 'introduction-feedback-reminder', 'Rappel : votre retour après la première rencontre', [
    {
      text: `Votre retour après la première rencontre est attendu dans votre espace ${input.until} : souhaitez-vous continuer à vous connaître, arrêter, ou annoncer vos fiançailles ?`,
    },
    { text: 'Passé ce délai, votre conseillère vous appellera pour le recueillir par téléphone.' },
    { link: siteLink(site, PROPOSALS_PATH), label: 'Donner mon retour' },
  ]);
}

/**
 * Decision 205: an introduction ended, to the member who did not ask for it: the counsellor's own
 * message when staff closed it (chosen from the templates, edited), else the plain sentence that the
 * other person chose not to go on. Nothing else about the other person.
 */
export function introductionEndedMail(site: AgencyMailSite, recipient: Recipient, input: { message: string | null }): OutgoingMail {
  return layout(site, recipient, 'introduction-ended', 'Votre mise en relation a pris fin', [
    ...(input.message === null
      ? [
          { text: 'L’autre personne a choisi de ne pas poursuivre la mise en relation après votre rencontre.' },
          {
            text: 'Ses coordonnées et ses photos ne vous sont plus accessibles. Votre conseillère reste à vos côtés et continue de chercher pour vous.',
          },
        ]
      : [
          { text: 'Votre conseillère a mis fin à votre mise en relation et vous écrit :' },
          ...input.message.split(/\n{2,}/).map((text) => ({ text })),
        ]),
    { link: siteLink(site, PROPOSALS_PATH), label: 'Voir mes propositions' },
  ]);
}

/**
 * Decision 205 (issue 62): the end told to the walī who receives the member's news (the same rule as
 * the first meeting's mails, decision 197): a short word, neither the counsellor's message to the
 * member nor anything about the other person. Re-checked at sending (`waliEndedDropReason`).
 */
export function introductionEndedWaliMail(site: AgencyMailSite, recipient: Recipient, input: { waliOf: string | null }): OutgoingMail {
  const who = input.waliOf ?? 'la personne que vous accompagnez';
  return layout(site, recipient, 'introduction-ended-wali', 'Une mise en relation a pris fin', [
    { text: `Vous recevez ce message comme walī de ${who}, à sa demande.` },
    { text: `La mise en relation proposée à ${who} a pris fin. Les coordonnées échangées ne sont plus communiquées.` },
    { text: 'Sa conseillère reste à votre disposition si vous souhaitez en parler.' },
  ]);
}
