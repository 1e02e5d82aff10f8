import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import * as v from 'valibot';
import { PRESENTATION_MAX_LENGTH, PresentationText } from '#machines/matching/presentation.ts';
import * as styles from '#src/features/account/account.css.ts';
import { TextAreaField } from '#src/components/ui/text-area-field.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { type ApiResult, send } from '#src/lib/api-client.ts';
import { memberKeys } from '#src/features/account/account-queries.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { notify } from '#src/lib/notifications.ts';
import { count } from '#machines/french/plural.ts';

interface Presentation {
  text: string;
  updatedAt: string;
  status: 'en-attente' | 'approuvee' | 'refusee';
  approvedText: string | null;
  refusal: string | null;
}

/** Where the agency stands on the text, in the member's words (decision 200). */
function ReviewStatus({ presentation }: { presentation: Presentation }) {
  if (presentation.status === 'approuvee')
    return (
      <p className={styles.text} data-testid="presentation-status">
        Validée par l’équipe : la personne à qui l’agence vous propose la lit.
      </p>
    );
  const earlier = presentation.approvedText
    ? ' En attendant, la personne à qui l’agence vous propose lit la version validée précédemment.'
    : ' En attendant, personne d’autre ne la lit.';
  if (presentation.status === 'refusee')
    return (
      <div data-testid="presentation-status" role="status">
        <p className={styles.text}>
          <strong>Non validée par l’équipe.</strong>
          {earlier}
        </p>
        <p className={styles.text}>Message de l’équipe : « {presentation.refusal} »</p>
      </div>
    );
  return (
    <p className={styles.text} data-testid="presentation-status" role="status">
      <strong>En attente de validation</strong> par l’équipe.{earlier}
    </p>
  );
}

function json(method: 'GET' | 'PUT', body?: unknown) {
  return fetch('/api/v1/user/presentation', {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
const getPresentation = () => send(json('GET')) as Promise<ApiResult<{ presentation: Presentation | null }>>;
const putPresentation = (presentation: string) =>
  send(json('PUT', { presentation })) as Promise<ApiResult<{ presentation: Presentation | null }>>;

/**
 * « Ma présentation » on Mon profil (decision 128): a short optional text, part of the anonymised
 * summary a member proposed to you reads. Checked here with the BFF's own schema (length, no
 * e-mail address or phone number), then again by the BFF.
 */
export function MyPresentation() {
  const query = useQuery(presentationQuery);
  if (!query.isSuccess) return null;
  return <PresentationForm stored={query.data} />;
}

/** The section's query: the member's text and where the agency stands on it, or null. */
const presentationQuery = {
  queryKey: memberKeys.presentation,
  queryFn: async () => (await unwrap(getPresentation())).presentation,
};

/** Saving the text: the server answers with the stored presentation (and its review status), which the section then shows. */
function savePresentationMutation(client: QueryClient) {
  return {
    mutationFn: (text: string) => unwrap(putPresentation(text)),
    onSuccess: (data: { presentation: Presentation | null }) => client.setQueryData(memberKeys.presentation, data.presentation),
  };
}

function PresentationForm({ stored }: { stored: Presentation | null }) {
  const [text, setText] = useState(stored?.text ?? '');
  const saved = stored?.text ?? '';
  const current = stored;
  const [error, setError] = useState<string | null>(null);
  const client = useQueryClient();
  const saving = useMutation(savePresentationMutation(client));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = v.safeParse(PresentationText, text);
    if (!checked.success) {
      setError(checked.issues[0]?.message ?? 'Présentation invalide.');
      return;
    }
    setError(null);
    let result: { presentation: Presentation | null };
    try {
      result = await saving.mutateAsync(checked.output);
    } catch (failure) {
      setError(errorMessage(failure));
      return;
    }
    const now = result.presentation?.text ?? '';
    setText(now);
    notify({
      title:
        now === ''
          ? 'Présentation retirée.'
          : result.presentation?.status === 'approuvee'
            ? 'Présentation enregistrée.'
            : 'Présentation envoyée à l’équipe pour validation.',
      variant: 'success',
    });
  }

  const length = text.trim().length;
  return (
    <section className={styles.panel} aria-labelledby="my-presentation" data-testid="my-presentation">
      <h2 id="my-presentation">Ma présentation</h2>
      <p className={styles.text}>
        Quelques lignes sur vous, facultatives. Elles accompagnent le résumé anonymisé que lit la personne à qui l’agence vous propose, et
        l’équipe les lit sur votre dossier. N’y mettez ni adresse e-mail ni numéro de téléphone : l’agence transmet les coordonnées
        seulement quand vous avez accepté tous les deux. L’équipe relit chaque nouvelle version avant qu’un autre membre la lise.
      </p>
      {current ? <ReviewStatus presentation={current} /> : null}
      <form className={styles.form} onSubmit={submit} noValidate>
        <TextAreaField
          name="presentation"
          label="Votre présentation (facultative)"
          hint={`${count(length, 'caractère', 'caractères')} sur ${PRESENTATION_MAX_LENGTH}`}
          rows={6}
          value={text}
          error={error ?? undefined}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <div>
          <Button type="submit" loading={saving.isPending} loadingText="Enregistrement…" disabled={text.trim() === saved.trim()}>
            {text.trim() === '' && saved !== '' ? 'Retirer ma présentation' : 'Enregistrer ma présentation'}
          </Button>
        </div>
      </form>
    </section>
  );
}
