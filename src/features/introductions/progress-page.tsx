import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import * as accountStyles from '#src/features/account/account.css.ts';
import type { MemberProgress } from '#src/features/introductions/accompaniment-api.ts';
import { myProgressQuery } from '#src/features/introductions/introduction-queries.ts';
import * as styles from '#src/features/introductions/introductions.css.ts';
import { countsText, fitText, proposalTitle, termText } from '#src/features/introductions/progress-view.ts';

/**
 * `/mon-compte/progression` (« Mon accompagnement », issue 22, decision 117): the introductions
 * made over the term, the outcome of each, how each fitted the member's criteria, and the end of
 * the term — what members miss most when "the matchmaker vanishes after payment".
 */
export function ProgressPage() {
  const query = useQuery(myProgressQuery);
  const progress: MemberProgress | null = query.data ?? null;
  const failed = query.isError && !progress;
  return (
    <>
      <h1 className={accountStyles.title}>Mon accompagnement</h1>
      <div aria-live="polite" aria-busy={progress === null && !failed}>
        {failed ? <p className={accountStyles.text}>Votre accompagnement n’a pas pu être chargé. Réessayez dans un instant.</p> : null}
        {progress ? <ProgressView progress={progress} /> : null}
      </div>
      <p className={accountStyles.text}>
        Le détail de chaque proposition est dans <Link to="/mon-compte/propositions">Mes propositions</Link>.
      </p>
    </>
  );
}

/** The page's content. Exported for the component test (rendered without a server). */
export function ProgressView({ progress }: { progress: MemberProgress }) {
  return (
    <>
      <p className={accountStyles.text}>{termText(progress.term)}</p>
      <ul className={accountStyles.text} aria-label="En chiffres">
        {countsText(progress.counts).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {progress.introductions.length === 0 ? (
        <p className={accountStyles.text}>
          {progress.term.ended
            ? 'Aucune proposition ne vous a été faite pendant ce contrat.'
            : 'Pas encore de proposition. Votre conseillère vous écrira dès qu’une personne correspondant à vos critères aura été trouvée.'}
        </p>
      ) : (
        <ol className={styles.list} aria-label="Vos propositions, de la plus ancienne à la plus récente">
          {progress.introductions.map((item) => (
            <li key={item.id} className={styles.card}>
              <h2 className={styles.cardTitle}>{proposalTitle(item)}</h2>
              <dl className={styles.facts}>
                <dt className={styles.factLabel}>Issue</dt>
                <dd className={styles.factValue}>{item.outcome}</dd>
                <dt className={styles.factLabel}>Vos critères</dt>
                <dd className={styles.factValue}>{fitText(item)}</dd>
              </dl>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
