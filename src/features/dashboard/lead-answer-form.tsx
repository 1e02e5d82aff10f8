import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { placeholderLabels } from '#machines/messages/messages.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextAreaField } from '#src/components/ui/text-area-field.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import {
  type Lead,
  type LeadAnswerDraft,
  listTemplates,
  previewLeadAnswer,
  sendLeadAnswer,
} from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { SelectField } from '#src/features/dashboard/select-field.tsx';
import { notify } from '#src/lib/notifications.ts';
import { unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';

type Preview = { to: string; from: string; replyTo: string; subject: string; text: string };
type FieldErrors = Partial<Record<'subject' | 'body' | 'templateId', string>>;

/**
 * « Répondre par e-mail » (decision 211): staff pick a template written for prospects or write
 * freely, see exactly what leaves (the server composes the preview as it composes the mail), then
 * send. The mail goes from the agency with Reply-To the agency; the answer joins the history.
 */
export function LeadAnswerForm({ lead, onSent }: { lead: Lead; onSent: () => Promise<void> }) {
  const ids = { template: useId(), title: useId() };
  const templates = useQuery({ queryKey: staffKeys.templates, queryFn: () => unwrap(listTemplates()) });
  const forProspects = (templates.data?.templates ?? []).filter((t) => t.kind === 'prospect');
  const [templateId, setTemplateId] = useState('');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState<'preview' | 'send' | null>(null);

  function chooseTemplate(value: string) {
    setTemplateId(value);
    setPreview(null);
    const template = forProspects.find((t) => String(t.id) === value);
    if (template) {
      setSubject(template.subject);
      setBody(template.body);
    }
  }

  const draft = (): LeadAnswerDraft => ({ subject, body, templateId: templateId ? Number(templateId) : null });

  function failed(result: { error: { message: string; fieldErrors?: Record<string, string> } }) {
    setError(result.error.message);
    setFieldErrors((result.error.fieldErrors ?? {}) as FieldErrors);
  }

  async function showPreview(event: FormEvent) {
    event.preventDefault();
    setBusy('preview');
    setError(null);
    setFieldErrors({});
    const result = await previewLeadAnswer(lead.id, draft());
    setBusy(null);
    if (!result.ok) return failed(result);
    setPreview(result.data);
  }

  async function send() {
    setBusy('send');
    setError(null);
    const result = await sendLeadAnswer(lead.id, draft());
    setBusy(null);
    if (!result.ok) return failed(result);
    notify({ title: `Réponse envoyée à ${lead.email}.`, variant: 'success' });
    setPreview(null);
    setTemplateId('');
    setSubject('');
    setBody('');
    await onSent();
  }

  return (
    <section aria-labelledby={ids.title}>
      <h3 id={ids.title} className={styles.cardTitle}>
        Répondre par e-mail
      </h3>
      <FormAlert tone="error">{error}</FormAlert>
      {preview ? (
        <section className={styles.message} aria-label="Aperçu de la réponse">
          <p className={styles.muted}>
            De : {preview.from}
            <br />
            À : {preview.to}
            <br />
            Réponse à : {preview.replyTo}
          </p>
          <p>
            <strong>Objet :</strong> {preview.subject}
          </p>
          <p className={styles.pre}>{preview.text}</p>
          <div className={styles.actions}>
            <Button type="button" loading={busy === 'send'} loadingText="Envoi…" onClick={() => void send()}>
              Envoyer la réponse
            </Button>
            <Button type="button" variant="secondary" onClick={() => setPreview(null)}>
              Modifier
            </Button>
          </div>
        </section>
      ) : (
        <form className={styles.form} onSubmit={showPreview} noValidate aria-label="Réponse par e-mail">
          <SelectField
            id={ids.template}
            label="Modèle"
            value={templateId}
            onChange={chooseTemplate}
            options={[{ value: '', label: 'Message libre' }, ...forProspects.map((t) => ({ value: String(t.id), label: t.title }))]}
          />
          <p className={styles.muted}>
            {`{prenom}`} devient le nom donné par la personne, {`{agence}`} {placeholderLabels.agence}.
          </p>
          <TextField
            name="subject"
            label="Objet"
            required
            maxLength={150}
            value={subject}
            onChange={(e) => setSubject(e.target.value)}
            error={fieldErrors.subject}
          />
          <TextAreaField
            name="body"
            label="Message"
            required
            maxLength={5000}
            rows={8}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            error={fieldErrors.body}
          />
          <div className={styles.actions}>
            <Button
              type="submit"
              loading={busy === 'preview'}
              loadingText="Préparation…"
              disabled={body.trim() === '' || subject.trim() === ''}
            >
              Voir l’aperçu
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
