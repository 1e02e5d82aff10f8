import type { OutgoingMail } from '#bff/mail/outbox.ts';
import type { AgencyIdentity } from '#machines/public-site/agency-identity.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';
import { civilDayText } from '#machines/onboarding/deadline-texts.ts';
import { MEETINGS } from '#machines/glossary.ts';

/**
 * The agency's own mails (decision 111): one function per mail, one layout. Each mail carries
 * at most the member's first name as personal data (never the address in the body, never the
 * answers); every value is escaped in the HTML; links are built from `PUBLIC_SITE_URL`; the footer
 * names the agency from its configured identity (decision 106).
 */

/** What every agency mail needs to know about the agency and the site. */
export interface AgencyMailSite {
  /** `config.publicSiteUrl`, without a trailing slash. */
  siteUrl: string;
  agency: AgencyIdentity;
}

/** The kinds of agency mail, stored in `mail_outbox.kind` (and in their de-duplication keys). */
export const agencyMailKinds = [
  'agency-welcome',
  'agency-payment-received',
  'agency-meeting-booked',
  'agency-meeting-reminder',
  'agency-meeting-missed',
  'agency-contract-ready',
  'agency-renunciation-period-over',
  'agency-withdrawal-period-over',
  'agency-active-member',
  'agency-term-ending',
  'agency-term-ended',
  'agency-renunciation-confirmed',
  'agency-withdrawal-confirmed',
  'agency-termination-requested',
  'agency-termination-confirmed',
  'agency-termination-refused',
  'agency-credit-note',
] as const;

export interface Recipient {
  to: string;
  /** The member's first name when the profile holds one; the greeting is plain without it. */
  firstName?: string | null | undefined;
}

/** One paragraph of a mail: plain text, or a link shown as a button. */
export type Block = { text: string } | { link: string; label: string };

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

const parisDateTime = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'full', timeStyle: 'short' });
const parisDate = frenchDateFormat({ timeZone: 'Europe/Paris', dateStyle: 'long' });

/** « jeudi 26 novembre 2026 à 15:00 », Paris time. */
export function dateTimeFr(at: Date): string {
  return parisDateTime.format(at);
}

/** « 26 novembre 2026 », Paris time. */
export function dateFr(at: Date): string {
  return parisDate.format(at);
}

/** An absolute link on the public site (`PUBLIC_SITE_URL` + path). */
export function siteLink(site: AgencyMailSite, path: string): string {
  return `${site.siteUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

function greeting(recipient: Recipient): string {
  const name = recipient.firstName?.trim();
  return name ? `Bonjour ${name},` : 'Bonjour,';
}

function footerLines(site: AgencyMailSite): string[] {
  const a = site.agency;
  return [
    `${a.legalName}, ${a.legalForm}`,
    a.address,
    `${a.rcs} · SIRET ${a.siret}`,
    `${a.phone} · ${a.email}`,
    `Médiateur de la consommation : ${a.mediatorName} (${a.mediatorUrl})`,
  ];
}

/**
 * The shared layout of every mail the agency writes (these, introductions', the guardian's):
 * greeting, blocks, signature and the agency's identity, in text and HTML.
 */
export function layout<Kind extends string>(
  site: AgencyMailSite,
  recipient: Recipient,
  kind: Kind,
  subject: string,
  blocks: readonly Block[],
): OutgoingMail & { kind: Kind } {
  const signature = `L’équipe ${site.agency.legalName}`;
  const footer = footerLines(site);
  const text = [
    greeting(recipient),
    '',
    ...blocks.flatMap((b) => ('text' in b ? [b.text, ''] : [`${b.label} : ${b.link}`, ''])),
    signature,
    '',
    '--',
    ...footer,
  ].join('\n');
  const body = blocks
    .map((b) =>
      'text' in b
        ? `<p style="margin:0 0 16px">${escapeHtml(b.text)}</p>`
        : `<p style="margin:0 0 16px"><a href="${escapeHtml(b.link)}" style="display:inline-block;padding:10px 18px;background:#166534;color:#ffffff;border-radius:6px;text-decoration:none">${escapeHtml(b.label)}</a></p>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#1f2937;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#ffffff;padding:24px;border-radius:8px">
<p style="margin:0 0 16px">${escapeHtml(greeting(recipient))}</p>
${body}
<p style="margin:0">${escapeHtml(signature)}</p>
</div>
<footer style="max-width:560px;margin:16px auto 0;font-size:12px;color:#6b7280">
${footer.map((line) => `<p style="margin:0">${escapeHtml(line)}</p>`).join('\n')}
</footer>
</body></html>`;
  return { to: recipient.to, subject, text, html, kind };
}

const ACCOUNT_PATH = '/mon-compte';

/** Account created. */
export function welcomeMail(site: AgencyMailSite, recipient: Recipient): OutgoingMail {
  return layout(site, recipient, 'agency-welcome', 'Bienvenue : votre compte est créé', [
    { text: `Votre compte ${site.agency.legalName} est créé. Merci de votre confiance.` },
    {
      text: 'Votre inscription se fait étape par étape : votre profil, le questionnaire, le choix d’une formule, puis un entretien personnalisé avec une conseillère. Aucun paiement ne vous est demandé avant la signature du contrat et l’expiration d’un délai de 7 jours.',
    },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Poursuivre mon inscription' },
  ]);
}

/** A payment the server verified: the file fee or the subscription. */
export function paymentReceivedMail(
  site: AgencyMailSite,
  recipient: Recipient,
  input: { amountCents: number; what: string; invoiceNumber: string; invoicePdf: Uint8Array; invoiceFileName: string },
): OutgoingMail {
  const mail = layout(site, recipient, 'agency-payment-received', `Paiement reçu — facture ${input.invoiceNumber}`, [
    { text: `Nous avons bien reçu votre paiement de ${formatEuros(input.amountCents)} (${input.what}).` },
    {
      text: `Votre facture n° ${input.invoiceNumber} est jointe à ce message ; vous la retrouvez aussi dans votre espace, rubrique « Mes factures ».`,
    },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
  return {
    ...mail,
    attachments: [
      { filename: input.invoiceFileName, contentType: 'application/pdf', contentBase64: Buffer.from(input.invoicePdf).toString('base64') },
    ],
  };
}

/** The onboarding meeting is booked. */
export function meetingBookedMail(site: AgencyMailSite, recipient: Recipient, input: { at: Date }): OutgoingMail {
  return layout(site, recipient, 'agency-meeting-booked', 'Votre entretien personnalisé est réservé', [
    { text: `Votre entretien personnalisé avec une conseillère est réservé le ${dateTimeFr(input.at)} (heure de Paris).` },
    {
      text: `Vous recevrez un rappel la veille. Pour déplacer ou annuler ce rendez-vous, écrivez-nous à ${site.agency.email} ou appelez-nous au ${site.agency.phone}.`,
    },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
}

/** The day before the onboarding meeting. */
export function meetingReminderMail(site: AgencyMailSite, recipient: Recipient, input: { at: Date }): OutgoingMail {
  return layout(site, recipient, 'agency-meeting-reminder', 'Rappel : votre entretien personnalisé a lieu demain', [
    { text: `Nous vous rappelons votre entretien personnalisé avec une conseillère, le ${dateTimeFr(input.at)} (heure de Paris).` },
    {
      text: `En cas d’empêchement, prévenez-nous pour déplacer le rendez-vous : écrivez-nous à ${site.agency.email} ou appelez-nous au ${site.agency.phone}.`,
    },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
}

/** Staff noted the onboarding meeting as missed (issue 63): its slot is freed, a new one is to be booked. */
export function meetingMissedMail(site: AgencyMailSite, recipient: Recipient, input: { at: Date }): OutgoingMail {
  return layout(site, recipient, 'agency-meeting-missed', 'Votre entretien personnalisé n’a pas pu avoir lieu', [
    {
      text: `Nous vous attendions le ${dateTimeFr(input.at)} (heure de Paris) pour votre entretien personnalisé, qui n’a pas pu avoir lieu. Ce créneau est libéré.`,
    },
    {
      text: `Pour poursuivre votre inscription, choisissez un nouveau créneau depuis votre espace membre. Une question ? Écrivez-nous à ${site.agency.email} ou appelez-nous au ${site.agency.phone}.`,
    },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Choisir un nouveau créneau' },
  ]);
}

/** The onboarding meeting was recorded as held: the contract can be read and signed. */
export function contractReadyMail(site: AgencyMailSite, recipient: Recipient): OutgoingMail {
  return layout(site, recipient, 'agency-contract-ready', 'Votre contrat est prêt à être lu et signé', [
    { text: 'Merci pour votre entretien. Votre contrat est prêt : vous pouvez le lire, compléter le formulaire et le signer en ligne.' },
    {
      text: 'Prenez le temps de le lire. Aucun paiement ne vous sera demandé avant l’expiration d’un délai de 7 jours pleins après la signature.',
    },
    { link: siteLink(site, '/mon-compte/inscription/attente-contrat'), label: 'Lire et signer mon contrat' },
  ]);
}

/** The renunciation period is over (24:00 Paris on its `lastDay`, civil days: decision 165) and the payment is open. */
export function renunciationPeriodOverMail(site: AgencyMailSite, recipient: Recipient, input: { lastDay: string }): OutgoingMail {
  return layout(site, recipient, 'agency-renunciation-period-over', 'Votre délai de 7 jours est écoulé : le paiement est ouvert', [
    {
      text: `Le délai de 7 jours qui suit la signature de votre contrat a pris fin le ${civilDayText(input.lastDay)} à 24 heures. Vous pouvez désormais régler les frais de dossier et votre abonnement.`,
    },
    { link: siteLink(site, '/mon-compte/inscription/frais-de-dossier'), label: 'Régler mon inscription' },
  ]);
}

/** The withdrawal period is over (24:00 Paris on its `lastDay`, civil days: decision 165). */
export function withdrawalPeriodOverMail(site: AgencyMailSite, recipient: Recipient, input: { lastDay: string }): OutgoingMail {
  return layout(site, recipient, 'agency-withdrawal-period-over', 'Votre délai de rétractation de 14 jours est écoulé', [
    {
      text: `Le délai de rétractation de 14 jours qui suit la signature de votre contrat a pris fin le ${civilDayText(input.lastDay)} à 24 heures.`,
    },
    { text: `La prochaine étape est votre ${MEETINGS.matchmaking} avec votre conseillère.` },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
}

/** The member is active. */
export function activeMemberMail(site: AgencyMailSite, recipient: Recipient, input: { endsAt: Date | null }): OutgoingMail {
  return layout(site, recipient, 'agency-active-member', 'Vous êtes désormais membre', [
    {
      text: 'Votre inscription est terminée : vous êtes désormais membre. Votre conseillère vous contactera pour les premières présentations.',
    },
    ...(input.endsAt ? [{ text: `Votre contrat court jusqu’au ${dateFr(input.endsAt)}, sans reconduction tacite.` }] : []),
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
}

/** 30 and 7 days before the end of the term. */
export function termEndingMail(site: AgencyMailSite, recipient: Recipient, input: { endsAt: Date; daysBefore: 30 | 7 }): OutgoingMail {
  return layout(site, recipient, 'agency-term-ending', `Votre contrat prend fin dans ${input.daysBefore} jours`, [
    {
      text: `Votre contrat prend fin le ${dateFr(input.endsAt)}. Il n’est pas reconduit tacitement : sans démarche de votre part, il s’arrêtera à cette date.`,
    },
    { text: 'Si vous souhaitez poursuivre l’accompagnement, votre conseillère se tient à votre disposition.' },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
}

/** The term is over (L224-90: no tacit renewal); a new contract starts with a plan. */
export function termEndedMail(site: AgencyMailSite, recipient: Recipient, input: { lastDay: Date }): OutgoingMail {
  return layout(site, recipient, 'agency-term-ended', 'Votre accompagnement est terminé', [
    {
      text: `Votre contrat a pris fin le ${dateFr(input.lastDay)}, à son terme. Il n’est pas reconduit tacitement et plus rien ne vous sera prélevé.`,
    },
    {
      text: 'Pour poursuivre l’accompagnement, vous pouvez choisir une nouvelle formule depuis votre espace membre : vos informations sont conservées.',
    },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
}

/** Confirmation that the member renounced the contract within the 7 days (decision 118). */
export function renunciationConfirmedMail(site: AgencyMailSite, recipient: Recipient, input: { at: Date }): OutgoingMail {
  return layout(site, recipient, 'agency-renunciation-confirmed', 'Confirmation de votre renonciation', [
    {
      text: `Nous confirmons avoir reçu, le ${dateFr(input.at)}, votre renonciation au contrat dans le délai de 7 jours qui suit sa signature.`,
    },
    { text: 'Le contrat est sans effet : vous ne nous devez rien, et rien ne vous sera prélevé.' },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
}

/**
 * Confirmation that the member withdrew within the 14 days (decision 118), with the amount refunded
 * and its deadline; `keptCents` is what the early start requested cost (L221-25).
 */
export function withdrawalConfirmedMail(
  site: AgencyMailSite,
  recipient: Recipient,
  input: { at: Date; refundCents?: number; keptCents?: number; refundBy?: Date },
): OutgoingMail {
  const refund = input.refundCents ?? null;
  return layout(site, recipient, 'agency-withdrawal-confirmed', 'Confirmation de votre rétractation', [
    { text: `Nous confirmons avoir reçu, le ${dateFr(input.at)}, l’exercice de votre droit de rétractation. Le contrat prend fin.` },
    ...(refund === null
      ? [{ text: 'Les sommes versées vous seront remboursées dans un délai de 14 jours au plus, par le moyen de paiement utilisé.' }]
      : refund === 0
        ? [{ text: 'Aucune somme n’a été versée : il n’y a rien à rembourser, et rien ne vous sera prélevé.' }]
        : [
            {
              text: `Nous vous remboursons ${formatEuros(refund)}${input.refundBy ? ` au plus tard le ${dateFr(input.refundBy)}` : ' dans un délai de 14 jours au plus'}, par le moyen de paiement utilisé.`,
            },
          ]),
    ...(input.keptCents
      ? [
          {
            text: `Vous aviez demandé que l’accompagnement commence avant la fin du délai de rétractation : ${formatEuros(input.keptCents)} correspondant aux jours écoulés restent dus (article L221‑25 du Code de la consommation).`,
          },
        ]
      : []),
  ]);
}

/** The member's termination request for a legitimate reason is received (R224-2, decision 119). */
export function terminationRequestedMail(
  site: AgencyMailSite,
  recipient: Recipient,
  input: { at: Date; reasonLabel: string; dueBy: Date; byLetter?: boolean },
): OutgoingMail {
  return layout(site, recipient, 'agency-termination-requested', 'Votre demande de résiliation a bien été reçue', [
    {
      text: input.byLetter
        ? `Nous avons bien reçu par courrier, le ${dateFr(input.at)}, votre demande de résiliation de votre contrat pour motif légitime (${input.reasonLabel}). Elle est enregistrée dans votre dossier à cette date.`
        : `Nous avons bien reçu, le ${dateFr(input.at)}, votre demande de résiliation de votre contrat pour motif légitime (${input.reasonLabel}).`,
    },
    {
      text: `Notre équipe l’examine et vous répond au plus tard le ${dateFr(input.dueBy)}. Si elle est acceptée, le prix est réduit à proportion de la durée écoulée jusqu’à votre demande, et le trop-perçu vous est remboursé dans ce même délai de deux mois (article R224‑2 du Code de la consommation).`,
    },
    { text: 'D’ici là, votre profil n’est proposé à personne.' },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
}

/** Staff accepted the termination: the contract ends, the amount refunded and its deadline (decision 119). */
export function terminationConfirmedMail(
  site: AgencyMailSite,
  recipient: Recipient,
  input: { at: Date; requestedAt: Date; refundCents: number; keptCents: number; refundBy: Date },
): OutgoingMail {
  return layout(site, recipient, 'agency-termination-confirmed', 'Votre contrat est résilié', [
    {
      text: `Nous acceptons votre demande de résiliation pour motif légitime du ${dateFr(input.requestedAt)}. Votre contrat est résilié à compter du ${dateFr(input.at)}.`,
    },
    input.refundCents > 0
      ? {
          text: `Le prix est réduit à proportion de la durée écoulée jusqu’à votre demande (${formatEuros(input.keptCents)} restent dus). Nous vous remboursons ${formatEuros(input.refundCents)} au plus tard le ${dateFr(input.refundBy)}, par le moyen de paiement utilisé ; l’avoir correspondant vous est envoyé séparément.`,
        }
      : {
          text: 'Les sommes versées ne dépassent pas le prix de la durée écoulée jusqu’à votre demande : il n’y a rien à rembourser, et rien de plus ne vous sera demandé.',
        },
  ]);
}

/** Staff refused the termination, with their written reason (decision 119). */
export function terminationRefusedMail(
  site: AgencyMailSite,
  recipient: Recipient,
  input: { requestedAt: Date; reason: string },
): OutgoingMail {
  return layout(site, recipient, 'agency-termination-refused', 'Votre demande de résiliation n’a pas été acceptée', [
    {
      text: `Nous ne pouvons pas accepter votre demande de résiliation pour motif légitime du ${dateFr(input.requestedAt)}, pour la raison suivante :`,
    },
    { text: input.reason },
    {
      text: 'Votre contrat continue jusqu’à son terme. Vous pouvez présenter une nouvelle demande avec d’autres justificatifs depuis « Mes droits », ou saisir le médiateur de la consommation.',
    },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
}

/** A credit note (avoir) issued for a refund, attached (decision 119). */
export function creditNoteMail(
  site: AgencyMailSite,
  recipient: Recipient,
  input: { number: string; amountCents: number; invoiceNumber: string | null; pdf: Uint8Array; fileName: string },
): OutgoingMail {
  const mail = layout(site, recipient, 'agency-credit-note', `Avoir ${input.number}`, [
    {
      text: `Vous trouverez ci-joint l’avoir n° ${input.number} de ${formatEuros(input.amountCents)}${input.invoiceNumber ? `, sur la facture n° ${input.invoiceNumber}` : ''}, correspondant au remboursement qui vous est dû.`,
    },
    { text: 'Vous le retrouvez aussi dans votre espace, rubrique « Mes factures ».' },
    { link: siteLink(site, ACCOUNT_PATH), label: 'Mon espace membre' },
  ]);
  return {
    ...mail,
    attachments: [{ filename: input.fileName, contentType: 'application/pdf', contentBase64: Buffer.from(input.pdf).toString('base64') }],
  };
}
