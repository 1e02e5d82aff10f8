/**
 * « Aujourd’hui »'s groups (issue 63, decision 203), in the order the server answers them and the
 * dashboard draws them: the server computes one SQL statement per group, the dashboard draws the
 * same eight places before the answer comes, so that the page does not move when it arrives.
 */
export const TODAY_GROUP_IDS = [
  'meetings',
  'toValidate',
  'answers',
  'presentations',
  'leads',
  'messages',
  'terminations',
  'payments',
] as const;
export type TodayGroupId = (typeof TODAY_GROUP_IDS)[number];

/** Each group's title and what it says when empty. */
export const TODAY_GROUP_WORDS: Record<TodayGroupId, { title: string; empty: string }> = {
  meetings: { title: 'Rendez-vous d’aujourd’hui et de demain', empty: 'Aucun rendez-vous aujourd’hui ni demain.' },
  toValidate: { title: 'Entretiens et rencontres à noter', empty: 'Aucun entretien ni aucune rencontre passés à noter.' },
  answers: { title: 'Réponses et retours attendus', empty: 'Aucune réponse ni aucun retour attendu.' },
  presentations: { title: 'Présentations à relire', empty: 'Aucune présentation à relire.' },
  leads: { title: 'Prospects à relancer', empty: 'Aucun prospect à relancer aujourd’hui.' },
  messages: { title: 'Messages non lus', empty: 'Aucun message non lu.' },
  terminations: { title: 'Demandes de résiliation', empty: 'Aucune demande de résiliation en attente.' },
  payments: { title: 'Mensualités échouées et remboursements', empty: 'Aucune mensualité échouée ni aucun remboursement à faire.' },
};
