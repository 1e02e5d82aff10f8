import { useId, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextAreaField } from '#src/components/ui/text-area-field.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { type SubmitOutcome, useForm } from '#src/components/ui/use-form.ts';
import { createTemplate, deleteTemplate, type MessageTemplate, updateTemplate } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { textOf } from '#src/lib/form.ts';
import { notify } from '#src/lib/notifications.ts';
import { placeholderLabels, placeholders, templateKindLabels, templateKinds } from '#machines/messages/messages.ts';

interface Props {
  templates: MessageTemplate[];
  onChanged: () => Promise<void>;
}

/** « Modèles de message »: staff write, edit and delete the reusable messages (decision 121). */
export function MessageTemplatesPanel({ templates, onChanged }: Props) {
  const kindId = useId();
  const [editing, setEditing] = useState<MessageTemplate | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  const onSubmit = handleSubmit(async (data): Promise<SubmitOutcome | undefined> => {
    const draft = {
      title: textOf(data, 'title').trim(),
      subject: textOf(data, 'subject').trim(),
      body: textOf(data, 'body').trim(),
      kind: textOf(data, 'kind') === 'prospect' ? ('prospect' as const) : ('membre' as const),
    };
    const result = editing ? await updateTemplate(editing.id, draft) : await createTemplate(draft);
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    formRef.current?.reset();
    setEditing(null);
    notify({ title: editing ? 'Modèle enregistré.' : 'Modèle créé.', variant: 'success' });
    await onChanged();
    return undefined;
  });

  async function remove(template: MessageTemplate) {
    const result = await deleteTemplate(template.id);
    setConfirming(null);
    if (!result.ok) {
      notify({ title: 'Le modèle n’a pas été supprimé.', description: result.error.message, variant: 'error' });
      return;
    }
    if (editing?.id === template.id) setEditing(null);
    notify({ title: `Modèle « ${template.title} » supprimé.`, variant: 'success' });
    await onChanged();
  }

  return (
    <section className={styles.card} aria-labelledby="templates-title">
      <h2 id="templates-title" className={styles.cardTitle}>
        Modèles de message
      </h2>
      {templates.length === 0 ? (
        <p className={styles.muted}>Aucun modèle pour l’instant.</p>
      ) : (
        <ul className={styles.messages} aria-label="Modèles enregistrés">
          {templates.map((t) => (
            <li key={t.id} className={styles.message}>
              <p>
                <strong>{t.title}</strong> <span className={styles.badge.neutral}>Pour les {templateKindLabels[t.kind].toLowerCase()}</span>
              </p>
              {t.subject ? <p className={styles.muted}>Objet : {t.subject}</p> : null}
              <p className={styles.pre}>{t.body}</p>
              <div className={styles.actions}>
                <Button type="button" variant="secondary" onClick={() => setEditing(t)}>
                  Modifier
                </Button>
                {confirming === t.id ? (
                  <>
                    <Button type="button" variant="danger" onClick={() => void remove(t)}>
                      Supprimer définitivement « {t.title} »
                    </Button>
                    <Button type="button" variant="secondary" onClick={() => setConfirming(null)}>
                      Garder
                    </Button>
                  </>
                ) : (
                  <Button type="button" variant="dangerOutline" onClick={() => setConfirming(t.id)}>
                    Supprimer
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <form
        key={editing?.id ?? 'new'}
        ref={formRef}
        className={styles.form}
        onSubmit={onSubmit}
        noValidate
        aria-labelledby="template-form-title"
        aria-describedby="template-alert"
      >
        <h3 id="template-form-title" className={styles.cardTitle}>
          {editing ? `Modifier « ${editing.title} »` : 'Nouveau modèle'}
        </h3>
        <FormAlert tone="error" id="template-alert">
          {formError}
        </FormAlert>
        <p className={styles.muted}>
          Champs remplis à l’insertion : {placeholders.map((p) => `{${p}} (${placeholderLabels[p]})`).join(', ')}.
        </p>
        <label className={styles.control} htmlFor={kindId}>
          Pour
          <select id={kindId} name="kind" className={styles.input} defaultValue={editing?.kind ?? 'membre'}>
            {templateKinds.map((kind) => (
              <option key={kind} value={kind}>
                {templateKindLabels[kind]}
              </option>
            ))}
          </select>
        </label>
        {templateFields.map(({ name, label, maxLength, required, ...field }) => {
          const Field = 'multiline' in field ? TextAreaField : TextField;
          return (
            <Field
              key={name}
              name={name}
              label={label}
              maxLength={maxLength}
              required={required}
              defaultValue={editing?.[name] ?? ''}
              error={fieldErrors[name]}
            />
          );
        })}
        <div className={styles.actions}>
          <Button type="submit" loading={submitting} loadingText="Enregistrement…">
            {editing ? 'Enregistrer le modèle' : 'Créer le modèle'}
          </Button>
          {editing ? (
            <Button type="button" variant="secondary" onClick={() => setEditing(null)}>
              Annuler la modification
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

/** The template's fields, in the form's order. */
const templateFields = [
  { name: 'title', label: 'Titre du modèle', maxLength: 80, required: true },
  { name: 'subject', label: 'Objet (facultatif)', maxLength: 150, required: false },
  { name: 'body', label: 'Texte du modèle', maxLength: 5000, required: true, multiline: true },
] as const;
