import { formatPhone } from '#machines/onboarding/phone-format.ts';
import { type AgencyMailSite, dateTimeFr } from '#bff/mail/agency-mails.ts';
import { layout } from '#bff/mail/agency-mails.ts';
import type { OutgoingMail } from '#bff/mail/outbox.ts';

/**
 * The mails to a member's guardian (issue 22, decision 117), through the outbox, at most once per
 * introduction, round and member (`enqueueMailOnce`). The guardian has no account: what they
 * receive is in the mail itself, and only what the member chose — a copy of each proposal (the
 * anonymised summary, never a surname nor a contact), or the contact details once both accepted.
 */

/** The anonymised summary of the person proposed, as members read it. */
export interface SummaryLines {
  firstName: string | null;
  age: number | null;
  region: string;
  practice: string;
  profession: string;
  familySituation: string;
}

interface GuardianRecipient {
  to: string;
  name: string;
}

function summaryText(s: SummaryLines): string[] {
  return [
    `Prénom : ${s.firstName ?? 'non communiqué'}`,
    `Âge : ${s.age === null ? 'non communiqué' : `${s.age} ans`}`,
    `Région : ${s.region}`,
    `Pratique religieuse : ${s.practice}`,
    `Profession : ${s.profession}`,
    `Situation familiale : ${s.familySituation}`,
  ];
}

/** A copy of a proposal made to the member: the summary of the person proposed, and until when the member may answer. */
export function guardianProposalCopyMail(
  site: AgencyMailSite,
  recipient: GuardianRecipient,
  input: { memberFirstName: string | null; relation: string; summary: SummaryLines | null; deadline: Date },
): OutgoingMail {
  const who = input.memberFirstName ?? 'Le membre que vous accompagnez';
  return layout(
    site,
    { to: recipient.to, firstName: recipient.name },
    'guardian-proposal-copy',
    'Copie d’une proposition de mise en relation',
    [
      {
        text: `${who} vous a indiqué à l’agence comme proche (${input.relation.toLowerCase()}) et souhaite que vous receviez une copie de chaque proposition. L’agence vient de lui proposer une mise en relation.`,
      },
      ...(input.summary
        ? [{ text: 'Résumé anonymisé de la personne proposée :' }, ...summaryText(input.summary).map((line) => ({ text: line }))]
        : []),
      {
        text: `${input.memberFirstName ?? 'Le membre'} peut accepter ou décliner jusqu’au ${dateTimeFr(input.deadline)}. Aucune coordonnée n’est transmise sans l’accord des deux personnes.`,
      },
      { text: 'Ce message vous est envoyé à la demande du membre, qui peut le modifier à tout moment depuis son espace.' },
    ],
  );
}

/** Both accepted: the other person's contact details (and their own guardian's, if they chose it). */
export function guardianContactMail(
  site: AgencyMailSite,
  recipient: GuardianRecipient,
  input: {
    memberFirstName: string | null;
    relation: string;
    /** Null e-mail and phone: the other chose to be reached through their walī only (decision 196). */
    other: { firstName: string | null; email: string | null; phone: string | null };
    otherGuardian: { name: string; relation: string; email: string | null; phone: string | null } | null;
  },
): OutgoingMail {
  const who = input.memberFirstName ?? 'Le membre que vous accompagnez';
  const other = input.other.firstName ?? 'la personne proposée';
  const lines = [
    {
      text: `${who} vous a indiqué à l’agence comme proche (${input.relation.toLowerCase()}) et souhaite que vous receviez les coordonnées à l’acceptation mutuelle.`,
    },
  ];
  if (input.other.email === null) {
    const g = input.otherGuardian;
    lines.push({
      text: g
        ? `${who} et ${other} ont accepté tous les deux la mise en relation. ${other} souhaite être contacté(e) uniquement par son walī (${g.relation.toLowerCase()}) : ${g.name}${g.phone ? `, ${formatPhone(g.phone)}` : ''}.`
        : `${who} et ${other} ont accepté tous les deux la mise en relation. ${other} souhaite être contacté(e) uniquement par son walī : l’agence vous transmettra ses coordonnées.`,
    });
  } else {
    lines.push(
      { text: `${who} et ${other} ont accepté tous les deux la mise en relation. Coordonnées de ${other} :` },
      { text: `E-mail : ${input.other.email}` },
      { text: `Téléphone : ${input.other.phone ? formatPhone(input.other.phone) : 'non communiqué'}` },
    );
  }
  if (input.otherGuardian && input.other.email !== null) {
    const g = input.otherGuardian;
    lines.push({
      text: `${other} a souhaité associer un proche (${g.relation.toLowerCase()}) : ${g.name}${g.email ? `, ${g.email}` : ''}${g.phone ? `, ${formatPhone(g.phone)}` : ''}.`,
    });
  }
  lines.push({ text: 'L’agence organisera une première rencontre dans un cadre respectueux et reviendra vers eux.' });
  return layout(site, { to: recipient.to, firstName: recipient.name }, 'guardian-contact', 'Acceptation mutuelle : les coordonnées', lines);
}
