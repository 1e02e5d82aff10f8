import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { answerSectionLabels } from '#machines/onboarding/labels.ts';
import { type ChangeRequest, decideChangeRequest, getMemberChangeRequests } from '#src/features/account/answers-api.ts';
import { RequestItem } from '#src/features/account/change-request-item.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { notify } from '#src/lib/notifications.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';

/** One pending request: what changes, the member's note, and the two answers staff may give. */
function PendingRequest({ memberId, request, onDecided }: { memberId: string; request: ChangeRequest; onDecided: () => void }) {
  const noteId = useId();
  const [note, setNote] = useState('');
  const client = useQueryClient();
  const decision = useMutation({
    mutationFn: (decision: 'apply' | 'decline') => unwrap(decideChangeRequest(request.id, { decision, note })),
    onSuccess: async (_data, decision) => {
      notify({ title: decision === 'apply' ? 'Modification appliquée au dossier.' : 'Demande refusée.', variant: 'success' });
      await client.invalidateQueries({ queryKey: staffKeys.changeRequests(memberId) });
      onDecided();
    },
  });
  const busy = decision.isPending ? decision.variables : null;
  const decide = (choice: 'apply' | 'decline') => decision.mutate(choice);
  return (
    <div>
      <ul>
        <RequestItem request={request} now={Date.now()} />
      </ul>
      <label htmlFor={noteId}>Réponse au membre (facultatif)</label>
      <textarea id={noteId} value={note} maxLength={1000} rows={2} onChange={(e) => setNote(e.target.value)} />
      <FormAlert tone="error">{errorMessage(decision.error)}</FormAlert>
      <p className={styles.muted}>
        Appliquer remplace les réponses « {answerSectionLabels[request.section]} » du membre par celles demandées ; refuser les laisse
        inchangées. Le membre voit la réponse dans « Mon profil ».
      </p>
      <div>
        <Button type="button" loading={busy === 'apply'} loadingText="Application…" onClick={() => decide('apply')}>
          Appliquer la modification
        </Button>{' '}
        <Button type="button" variant="secondary" loading={busy === 'decline'} loadingText="Refus…" onClick={() => decide('decline')}>
          Refuser la demande
        </Button>
      </div>
    </div>
  );
}

/** « Demandes de modification » on the member page (issue 21, decision 123): pending first, then the decided ones. */
export function ChangeRequestsSection({ memberId, onChanged }: { memberId: string; onChanged?: () => void }) {
  const { data, error } = useQuery({
    queryKey: staffKeys.changeRequests(memberId),
    queryFn: () => unwrap(getMemberChangeRequests(memberId)),
  });
  // A failed load shows an empty list, not a message.
  const requests = error ? [] : (data?.requests ?? null);
  if (!requests) return null;
  const pending = requests.filter((r) => r.status === 'pending');
  const decided = requests.filter((r) => r.status !== 'pending');
  return (
    <section className={styles.card} aria-labelledby="change-requests-title" data-testid="change-requests">
      <h2 id="change-requests-title" className={styles.cardTitle}>
        Demandes de modification
      </h2>
      {requests.length === 0 ? <p className={styles.muted}>Aucune demande de modification.</p> : null}
      {pending.map((request) => (
        <PendingRequest key={request.id} memberId={memberId} request={request} onDecided={() => onChanged?.()} />
      ))}
      {decided.length > 0 ? (
        <ul>
          {decided.map((request) => (
            <RequestItem key={request.id} request={request} now={Date.now()} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
