import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { contactViaLabels, guardianReceivesLabels, guardianRelationLabels } from '#machines/introductions/guardian-labels.ts';
import { formatPhone } from '#machines/onboarding/phone-format.ts';
import { Button } from '#src/components/ui/button.tsx';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import * as styles from '#src/features/account/account.css.ts';
import { memberKeys } from '#src/features/account/account-queries.ts';
import {
  type Guardian,
  type GuardianForm,
  getGuardian,
  removeGuardian,
  saveGuardian,
} from '#src/features/introductions/accompaniment-api.ts';
import type { FieldErrors } from '#src/lib/api-result.ts';
import { ApiError, errorMessage, unwrap } from '#src/lib/query-client.ts';
import { notify } from '#src/lib/notifications.ts';

const relationOptions = Object.entries(guardianRelationLabels).map(([value, label]) => ({ value, label }));
const receivesOptions = Object.entries(guardianReceivesLabels).map(([value, label]) => ({ value, label }));
const contactViaOptions = Object.entries(contactViaLabels).map(([value, label]) => ({ value, label }));

/**
 * « Mon proche associé » in Mon profil (issue 22, decision 117): the member's guardian (wali) or
 * a close relative, optional — who, how to reach them, and what they receive. The server checks
 * everything and answers in French per field.
 */
export function GuardianSection() {
  const query = useQuery(guardianQuery);
  if (query.isPending) return null;
  // A failed read shows the form as for no guardian, as before (the server re-checks every write).
  return <GuardianPanel guardian={query.data ?? null} />;
}

/** The section's query: the member's guardian, or null. */
export const guardianQuery = {
  queryKey: memberKeys.guardian,
  queryFn: async () => (await unwrap(getGuardian())).guardian,
};

/** Saving the guardian: the server answers with the stored one, which the section then shows. */
export function saveGuardianMutation(client: QueryClient) {
  return {
    mutationFn: (form: GuardianForm) => unwrap(saveGuardian(form)),
    onSuccess: (data: { guardian: Guardian }) => client.setQueryData(memberKeys.guardian, data.guardian),
  };
}

/** Removing the guardian: the section then shows none. */
export function removeGuardianMutation(client: QueryClient) {
  return {
    mutationFn: () => unwrap(removeGuardian()),
    onSuccess: () => client.setQueryData(memberKeys.guardian, null),
  };
}

/** The section for a loaded guardian (or none). Exported for the component test. */
export function GuardianPanel({ guardian }: { guardian: Guardian | null }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const client = useQueryClient();
  const saving = useMutation(saveGuardianMutation(client));
  const removing = useMutation(removeGuardianMutation(client));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const field = (name: string) => String(data.get(name) ?? '');
    setFailure(null);
    const result = await saving
      .mutateAsync({
        name: field('name'),
        relation: field('relation'),
        email: field('email'),
        phone: field('phone'),
        receives: field('receives'),
        contactVia: field('contactVia') || 'moi',
        informed: data.get('informed') === 'true',
      })
      .catch((error: unknown) => error);
    if (result instanceof ApiError) {
      setErrors(result.failure.fieldErrors);
      setFailure(result.message === 'Données invalides' ? 'Vérifiez les champs signalés.' : result.message);
    } else if (result instanceof Error) setFailure(errorMessage(result));
    else {
      setErrors({});
      notify({ title: 'Votre proche associé est enregistré.', variant: 'success' });
    }
  }

  async function remove() {
    const failed = await removing.mutateAsync().then(
      () => null,
      (error: unknown) => errorMessage(error),
    );
    if (failed) setFailure(failed);
    else notify({ title: 'Votre proche n’est plus associé.', variant: 'success' });
  }

  return (
    <section className={styles.panel} aria-labelledby="my-guardian" data-testid="my-guardian">
      <h2 id="my-guardian">Mon proche associé (walī)</h2>
      <p className={styles.text}>
        Facultatif. Votre walī ou un proche peut être associé à vos propositions : il peut recevoir une copie de chaque proposition (un
        résumé anonyme, sans nom ni coordonnées), ou bien les coordonnées à l’acceptation mutuelle — ses coordonnées sont alors aussi
        transmises à la personne présentée. Vous pouvez le modifier ou le retirer à tout moment.
      </p>
      {guardian ? (
        <p className={styles.text}>
          Actuellement : <strong>{guardian.name}</strong> ({guardian.relationLabel.toLowerCase()}) — reçoit :{' '}
          {guardian.receivesLabel.toLowerCase()}. À l’acceptation mutuelle : {guardian.contactViaLabel.toLowerCase()}.
        </p>
      ) : null}
      {guardian && !guardian.email ? (
        <p className={styles.text} data-testid="guardian-no-email">
          Votre walī n’a pas d’adresse e-mail : il ne recevra ni copie des propositions ni les détails des rencontres par e-mail. Votre
          conseillère l’appellera si besoin.
        </p>
      ) : (
        <p className={styles.text}>Aucun proche associé pour le moment.</p>
      )}
      <form className={styles.form} onSubmit={submit} noValidate key={guardian?.updatedAt ?? 'none'}>
        <TextField name="name" label="Nom" autoComplete="off" required defaultValue={guardian?.name ?? ''} error={errors.name} />
        <RadioGroup
          name="relation"
          legend="Lien avec vous"
          options={relationOptions}
          defaultValue={guardian?.relation}
          error={errors.relation}
        />
        <TextField
          name="email"
          type="email"
          label="E-mail (facultatif)"
          autoComplete="off"
          defaultValue={guardian?.email ?? ''}
          error={errors.email}
          hint="Nécessaire pour recevoir une copie des propositions."
        />
        <TextField
          name="phone"
          type="tel"
          label="Téléphone (facultatif)"
          autoComplete="off"
          defaultValue={guardian?.phone ? formatPhone(guardian.phone) : ''}
          error={errors.phone}
        />
        <RadioGroup
          name="receives"
          legend="Ce qu’il reçoit"
          options={receivesOptions}
          defaultValue={guardian?.receives}
          error={errors.receives}
        />
        <RadioGroup
          name="contactVia"
          legend="Comment la personne présentée vous contacte, à l’acceptation mutuelle"
          options={contactViaOptions}
          defaultValue={guardian?.contactVia ?? 'moi'}
          error={errors.contactVia}
          hint="« Uniquement par mon walī » : seuls son nom et son téléphone sont transmis, jamais vos propres coordonnées. Vous pouvez choisir autrement pour chaque proposition."
        />
        <CheckboxField
          name="informed"
          label="Mon proche est informé et d’accord pour être contacté par l’agence."
          error={errors.informed}
          required
        />
        <FormAlert tone="error">{failure}</FormAlert>
        <div>
          <Button type="submit" loading={saving.isPending} loadingText="Enregistrement…">
            {guardian ? 'Mettre à jour' : 'Associer ce proche'}
          </Button>{' '}
          {guardian ? (
            <Button type="button" variant="ghost" onClick={remove} loading={removing.isPending} loadingText="Retrait…">
              Retirer ce proche
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
