import { Link } from '@tanstack/react-router';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { formatDateTime } from '#src/features/dashboard/format-fr.ts';
import { type ApiResult, send } from '#src/lib/api-client.ts';
import { notify } from '#src/lib/notifications.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { count } from '#machines/french/plural.ts';

interface WaitingPresentation {
  memberId: string;
  name: string | null;
  text: string;
  updatedAt: string;
  approvedText: string | null;
}

function json(method: string, url: string, body?: unknown) {
  return fetch(url, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
const getWaiting = () =>
  send(json('GET', '/api/v1/dashboard/presentations')) as Promise<ApiResult<{ presentations: WaitingPresentation[] }>>;
const review = (memberId: string, body: { decision: 'approuver' | 'refuser'; updatedAt: string; message?: string }) =>
  send(json('POST', `/api/v1/dashboard/members/${encodeURIComponent(memberId)}/presentation/review`, body)) as Promise<ApiResult<unknown>>;

/** The presentations waiting for the staff's review, oldest first. */
export const waitingPresentationsQuery = { queryKey: staffKeys.presentations, queryFn: () => unwrap(getWaiting()) };

interface Review {
  item: Pick<WaitingPresentation, 'memberId' | 'updatedAt'>;
  decision: 'approuver' | 'refuser';
  message: string;
}

/** Approving or refusing one presentation; the list is asked again once the server agreed. */
export function reviewMutation(client: QueryClient) {
  return {
    mutationFn: ({ item, decision, message }: Review) =>
      unwrap(
        review(
          item.memberId,
          decision === 'approuver' ? { decision, updatedAt: item.updatedAt } : { decision, updatedAt: item.updatedAt, message },
        ),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: staffKeys.presentations }),
  };
}

/** One presentation to examine: the text, what others read meanwhile, approve or refuse with a message. */
function Waiting({ item }: { item: WaitingPresentation }) {
  const messageId = useId();
  const [message, setMessage] = useState('');
  const [refusing, setRefusing] = useState(false);
  const client = useQueryClient();
  const decision = useMutation({
    ...reviewMutation(client),
    onSuccess: async (_data, { decision }) => {
      notify({
        title: decision === 'approuver' ? 'Présentation validée.' : 'Présentation refusée\u00a0: le membre lit votre message.',
        variant: 'success',
      });
      await reviewMutation(client).onSuccess();
    },
  });
  const busy = decision.isPending ? decision.variables.decision : null;
  const failure = errorMessage(decision.error);
  const decide = (choice: 'approuver' | 'refuser') => decision.mutate({ item, decision: choice, message });
  const name = item.name ?? 'Membre sans nom';
  return (
    <li className={styles.part} data-testid="presentation-waiting">
      <p>
        <Link to="/dashboard/member/$memberId" params={{ memberId: item.memberId }}>
          {name}
        </Link>{' '}
        <span className={styles.muted}>— écrite le {formatDateTime(item.updatedAt)}</span>
      </p>
      <blockquote>{item.text}</blockquote>
      <p className={styles.muted}>
        {item.approvedText
          ? 'En attendant, les autres membres lisent la version validée précédemment.'
          : 'En attendant, personne d’autre ne la lit.'}
      </p>
      {refusing ? (
        <>
          <label htmlFor={messageId}>Message au membre (ce qui doit changer)</label>
          <textarea id={messageId} value={message} maxLength={1000} rows={2} onChange={(e) => setMessage(e.target.value)} />
        </>
      ) : null}
      <FormAlert tone="error">{failure}</FormAlert>
      <div className={styles.actions}>
        <Button type="button" loading={busy === 'approuver'} loadingText="Validation…" onClick={() => decide('approuver')}>
          Valider
        </Button>
        {refusing ? (
          <Button type="button" variant="secondary" loading={busy === 'refuser'} loadingText="Refus…" onClick={() => decide('refuser')}>
            Refuser avec ce message
          </Button>
        ) : (
          <Button type="button" variant="secondary" onClick={() => setRefusing(true)}>
            Refuser…
          </Button>
        )}
      </div>
    </li>
  );
}

/** « Présentations à valider » on the dashboard's home (issue 62 point 6, decision 200). */
export function PresentationReviewCard() {
  const { data, error: failed } = useQuery(waitingPresentationsQuery);
  const error = errorMessage(failed);
  const items = data?.presentations ?? [];
  return (
    <section className={styles.card} aria-labelledby="presentations-title" data-testid="presentation-review">
      <h2 id="presentations-title" className={styles.cardTitle}>
        Présentations à valider {data ? <span className={styles.muted}>({count(items.length, 'en attente', 'en attente')})</span> : null}
      </h2>
      <FormAlert tone="error">{error}</FormAlert>
      {data && items.length === 0 ? <p className={styles.muted}>Aucune présentation en attente.</p> : null}
      <ul>
        {items.map((item) => (
          <Waiting key={`${item.memberId}-${item.updatedAt}`} item={item} />
        ))}
      </ul>
    </section>
  );
}
