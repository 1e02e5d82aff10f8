/* The member list's bulk actions: a counsellor, a tag or a templated message for the chosen members (issue 63, decision 210). */
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { count, plural } from '#machines/french/plural.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { type BulkAction, bulkAction, templatesQuery } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { tagsQuery } from '#src/features/dashboard/member-list-filters.tsx';
import * as listStyles from '#src/features/dashboard/member-list.css.ts';
import { staffOptions } from '#src/features/dashboard/select-field.tsx';

/** What the chosen members can be given at once; each asks for a confirmation in a dialog. */
export function BulkBar({
  selected,
  isAdministration,
  onDone,
}: {
  selected: string[];
  isAdministration: boolean;
  onDone: (message: string) => Promise<void>;
}) {
  const ids = { counsellor: useId(), tag: useId(), template: useId() };
  const staff = (useQuery(tagsQuery).data?.staff ?? []).filter((s) => !s.disabled);
  const templates = useQuery(templatesQuery).data?.templates ?? [];
  const n = selected.length;
  const them = count(n, 'membre', 'membres');
  const run = async (action: BulkAction, done: (changed: number, unchanged: number) => string) => {
    const result = await bulkAction(action);
    if (!result.ok) return result.error.message;
    await onDone(done(result.data.changed, result.data.unchanged));
    return null;
  };
  const field = (data: FormData, name: string) => String(data.get(name) ?? '');
  return (
    <fieldset className={listStyles.bulkBar}>
      <legend className={listStyles.visuallyHidden}>Actions sur la sélection</legend>
      <strong data-testid="selection-count">
        {them} {plural(n, 'sélectionné', 'sélectionnés')}
      </strong>
      {isAdministration ? (
        <ActionDialog
          trigger={<Button variant="secondary">Confier à…</Button>}
          title="Confier les membres choisis"
          description={`Les ${them} choisis seront suivis par la personne que vous indiquez ; chaque changement est inscrit dans leur historique.`}
          submitLabel="Confier"
          busyLabel="Enregistrement…"
          onSubmit={(data) => {
            const value = field(data, 'counsellorId');
            const counsellorId = value === 'aucun' ? null : value;
            const name = staff.find((s) => s.id === counsellorId)?.name;
            return run(
              { action: 'conseiller', ids: selected, counsellorId },
              (changed, unchanged) =>
                `${name ? `${count(changed, 'membre confié', 'membres confiés')} à ${name}` : `${count(changed, 'membre', 'membres')} sans conseiller désormais`}${unchanged > 0 ? ` (${unchanged} l’étai${unchanged > 1 ? 'en' : ''}t déjà)` : ''}.`,
            );
          }}
        >
          <label className={styles.control} htmlFor={ids.counsellor}>
            Conseiller·ère
            <select id={ids.counsellor} name="counsellorId" className={styles.input}>
              {[...staffOptions(staff), { value: 'aucun', label: 'Sans conseiller (retirer)' }].map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        </ActionDialog>
      ) : null}
      <ActionDialog
        trigger={<Button variant="secondary">Ajouter une étiquette</Button>}
        title="Ajouter une étiquette"
        description={`L’étiquette sera ajoutée aux ${them} choisis (ceux qui l’ont déjà la gardent telle quelle).`}
        submitLabel="Ajouter"
        busyLabel="Enregistrement…"
        onSubmit={(data) => {
          const tag = field(data, 'tag').trim();
          if (!tag) return Promise.resolve({ fieldErrors: { tag: 'Écrivez l’étiquette' } });
          return run(
            { action: 'etiquette', ids: selected, tag },
            (changed) => `Étiquette « ${tag} » ajoutée à ${count(changed, 'membre', 'membres')}.`,
          );
        }}
      >
        {(errors) => (
          <label className={styles.control} htmlFor={ids.tag}>
            Étiquette
            <input
              id={ids.tag}
              name="tag"
              className={styles.input}
              maxLength={40}
              autoComplete="off"
              aria-invalid={errors.tag ? true : undefined}
            />
            {errors.tag ? <span className={listStyles.fieldError}>{errors.tag}</span> : null}
          </label>
        )}
      </ActionDialog>
      <ActionDialog
        trigger={
          <Button variant="secondary" disabled={templates.length === 0}>
            Envoyer un message
          </Button>
        }
        title="Envoyer un message à partir d’un modèle"
        description={`Chacun des ${them} choisis recevra son propre message, rempli avec son prénom, dans son espace ; un courriel l’en avertit sans en reproduire le contenu.`}
        submitLabel={`Envoyer ${plural(n, 'le message', `les ${n} messages`)}`}
        busyLabel="Envoi…"
        onSubmit={(data) => {
          const templateId = Number(field(data, 'templateId'));
          return run(
            { action: 'message', ids: selected, templateId },
            (changed) => `${count(changed, 'message envoyé', 'messages envoyés')}.`,
          );
        }}
      >
        <label className={styles.control} htmlFor={ids.template}>
          Modèle
          <select id={ids.template} name="templateId" className={styles.input}>
            {templates.map((t) => (
              <option key={t.id} value={String(t.id)}>
                {t.title}
              </option>
            ))}
          </select>
        </label>
      </ActionDialog>
    </fieldset>
  );
}
