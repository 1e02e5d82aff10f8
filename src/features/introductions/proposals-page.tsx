import * as accountStyles from '#src/features/account/account.css.ts';
import { sendMemberEvent } from '#src/features/introductions/introductions-api.ts';
import * as styles from '#src/features/introductions/introductions.css.ts';
import { sortProposals } from '#src/features/introductions/introductions-view.ts';
import { notify } from '#src/lib/notifications.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { introductionKeys, myIntroductionsQuery } from '#src/features/introductions/introduction-queries.ts';
import { useSession } from '#src/lib/use-session.ts';
import { isContractEndState } from '#machines/onboarding/steps.ts';
import { ProposalCard } from '#src/features/introductions/proposal-card.tsx';
import type { Send } from '#src/features/introductions/proposal-parts.tsx';

/**
 * `/mon-compte/propositions` ("Mes propositions", issue 22): each proposal of the agency as a card
 * — an anonymised summary, why it fits the member's criteria one by one, the deadline, accept or
 * decline (with a reason); once both accepted, the contact details and the first meeting; after
 * the meeting, the member's feedback.
 */
/**
 * Whether the member's contract has ended (renounced, withdrawn, terminated, at its term): the agency
 * then makes no proposal and plans no meeting, and the page says so instead of promising one.
 */
export const accompanimentEnded = isContractEndState;

/** The page's opening words: what the agency does for the member now. */
export function proposalsIntro(ended: boolean, count: number): string[] {
  if (!ended) return [];
  return [
    count === 0
      ? 'Votre accompagnement a pris fin\u00a0: l’agence ne vous fait plus de proposition et aucune rencontre ne sera organisée. Aucune proposition ne vous a été faite pendant ce contrat.'
      : 'Votre accompagnement a pris fin\u00a0: l’agence ne vous fait plus de proposition et aucune rencontre ne sera organisée. Les propositions ci-dessous restent pour mémoire.',
  ];
}

export function ProposalsPage() {
  const { data, error } = useQuery(myIntroductionsQuery);
  const failed = error ?? null;
  const client = useQueryClient();
  // After the member's answer or contact choice (or a refused one): the list is asked again.
  const load = () => client.invalidateQueries({ queryKey: introductionKeys.mine });
  const { user } = useSession();
  const ended = accompanimentEnded(user?.state);
  const items = data?.introductions ?? null;

  const send: Send = async (id, body, success) => {
    const result = await sendMemberEvent(id, body);
    if (!result.ok) {
      await load();
      return result.error.message;
    }
    notify({ title: success, variant: 'success' });
    await load();
    return null;
  };

  const now = Date.now();
  return (
    <>
      <h1 className={accountStyles.title}>Mes propositions</h1>
      <p className={accountStyles.text}>
        Les personnes que l’agence vous présente, choisies d’après vos critères. Rien de vous n’est montré à l’autre personne au-delà d’un
        résumé anonyme ; vos coordonnées ne sont transmises que si vous acceptez tous les deux.
      </p>
      <div aria-live="polite" aria-busy={items === null && failed === null}>
        {failed && items === null ? (
          <p className={accountStyles.text}>Vos propositions n’ont pas pu être chargées. Réessayez dans un instant.</p>
        ) : null}
        {items
          ? proposalsIntro(ended, items.length).map((line) => (
              <p key={line} className={accountStyles.text} data-testid="accompaniment-ended">
                {line}
              </p>
            ))
          : null}
        {items?.length === 0 && !ended ? (
          <p className={accountStyles.text}>
            Vous n’avez pas encore de proposition. Votre conseillère vous écrira dès qu’une personne correspondant à vos critères aura été
            trouvée.
          </p>
        ) : null}
        {items && items.length > 0 ? (
          <ol className={styles.list}>
            {sortProposals(items, now).map((item) => (
              <li key={item.id}>
                <ProposalCard proposal={item} now={now} send={send} onChanged={load} ended={ended} />
              </li>
            ))}
          </ol>
        ) : null}
      </div>
    </>
  );
}
