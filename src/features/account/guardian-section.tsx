import { type FormEvent, useEffect, useState } from 'react';
import { contactViaLabels, guardianReceivesLabels, guardianRelationLabels } from '#machines/introductions/guardian-labels.ts';
import { formatPhone } from '#machines/onboarding/phone-format.ts';
import { Button } from '#src/components/ui/button.tsx';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import * as styles from '#src/features/account/account.css.ts';
import { type Guardian, getGuardian, removeGuardian, saveGuardian } from '#src/features/introductions/accompaniment-api.ts';
import type { FieldErrors } from '#src/lib/api-result.ts';
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
  const [guardian, setGuardian] = useState<Guardian | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void getGuardian().then((result) => {
      if (live) setGuardian(result.ok ? result.data.guardian : null);
    });
    return () => {
      live = false;
    };
  }, []);
  if (guardian === undefined) return null;
  return <GuardianPanel guardian={guardian} onChange={setGuardian} />;
}

/** The section for a loaded guardian (or none). Exported for the component test. */
export function GuardianPanel({ guardian, onChange }: { guardian: Guardian | null; onChange: (g: Guardian | null) => void }) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const field = (name: string) => String(data.get(name) ?? '');
    setSaving(true);
    setFailure(null);
    const result = await saveGuardian({
      name: field('name'),
      relation: field('relation'),
      email: field('email'),
      phone: field('phone'),
      receives: field('receives'),
      contactVia: field('contactVia') || 'moi',
      informed: data.get('informed') === 'true',
    });
    setSaving(false);
    if (result.ok) {
      setErrors({});
      onChange(result.data.guardian);
      notify({ title: 'Votre proche associé est enregistré.', variant: 'success' });
    } else {
      setErrors(result.error.fieldErrors);
      setFailure(result.error.message === 'Données invalides' ? 'Vérifiez les champs signalés.' : result.error.message);
    }
  }

  async function remove() {
    setRemoving(true);
    const result = await removeGuardian();
    setRemoving(false);
    if (result.ok) {
      onChange(null);
      notify({ title: 'Votre proche n’est plus associé.', variant: 'success' });
    } else setFailure(result.error.message);
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
          <Button type="submit" loading={saving} loadingText="Enregistrement…">
            {guardian ? 'Mettre à jour' : 'Associer ce proche'}
          </Button>{' '}
          {guardian ? (
            <Button type="button" variant="ghost" onClick={remove} loading={removing} loadingText="Retrait…">
              Retirer ce proche
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
