import { getRouteApi, Link } from '@tanstack/react-router';
import { useCallback, useEffect, useId, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { type SubmitOutcome, useForm } from '#src/components/ui/use-form.ts';
import { type DirectMessage, listMembers, listMessages, type MemberSummary, sendMessage } from '#src/features/dashboard/dashboard-api.ts';
import { formatDateTime as formatDate } from '#src/features/dashboard/format-fr.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { textOf } from '#src/lib/form.ts';
import { notify } from '#src/lib/notifications.ts';

const route = getRouteApi('/dashboard/_staff/message-direct');

/** `/dashboard/message-direct`: choose a member, write; the message is e-mailed and kept in their space. */
export function DirectMessagePage() {
  const { memberId } = route.useSearch();
  const navigate = route.useNavigate();
  const ids = { search: useId(), member: useId(), subject: useId(), body: useId() };
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<MemberSummary[] | null>(null);
  const [history, setHistory] = useState<DirectMessage[]>([]);
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  // Members matching the search (the selected one stays available).
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      void listMembers({ q: query.trim() || undefined, sort: 'email', dir: 'asc' }).then(
        (result) => live && result.ok && setOptions(result.data.items),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query]);

  const loadHistory = useCallback(async (id: string | undefined) => {
    const result = await listMessages(id);
    if (result.ok) setHistory(result.data.messages);
  }, []);
  useEffect(() => {
    void loadHistory(memberId);
  }, [memberId, loadHistory]);

  const onSubmit = handleSubmit(async (data): Promise<SubmitOutcome | undefined> => {
    if (!memberId) return { fieldErrors: { member: 'Choisissez un membre' } };
    const body = textOf(data, 'body').trim();
    if (!body) return { fieldErrors: { body: 'Message requis' } };
    const result = await sendMessage(memberId, { subject: textOf(data, 'subject').trim(), body });
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    formRef.current?.reset();
    notify({ title: 'Message envoyé.', description: 'Il est envoyé par e-mail et visible dans l’espace du membre.', variant: 'success' });
    await loadHistory(memberId);
    return undefined;
  });

  const selected = history[0]?.memberId === memberId ? history[0]?.memberEmail : options?.find((m) => m.id === memberId)?.email;

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>Message direct</h1>
      <div className={styles.grid}>
        <section className={styles.card} aria-labelledby="write-title">
          <h2 id="write-title" className={styles.cardTitle}>
            Écrire à un membre
          </h2>
          <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-describedby="message-alert">
            <FormAlert tone="error" id="message-alert">
              {formError}
            </FormAlert>
            <label className={styles.control} htmlFor={ids.search}>
              Rechercher un membre
              <input
                id={ids.search}
                type="search"
                className={styles.input}
                placeholder="Rechercher un membre…"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
              />
            </label>
            <label className={styles.control} htmlFor={ids.member}>
              Membre
              {options && options.length === 0 && !memberId ? (
                <span className={styles.muted} role="status">
                  Aucun membre ne correspond à cette recherche.
                </span>
              ) : (
                <select
                  id={ids.member}
                  className={styles.input}
                  value={memberId ?? ''}
                  aria-invalid={fieldErrors.member ? true : undefined}
                  onChange={(e) => void navigate({ search: { memberId: e.target.value || undefined }, replace: true })}
                >
                  <option value="">Choisir…</option>
                  {memberId && !options?.some((m) => m.id === memberId) ? <option value={memberId}>{selected ?? memberId}</option> : null}
                  {(options ?? []).map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name ? `${m.name} — ${m.email}` : m.email}
                    </option>
                  ))}
                </select>
              )}
              {fieldErrors.member ? <span className={styles.muted}>{fieldErrors.member}</span> : null}
            </label>
            <label className={styles.control} htmlFor={ids.subject}>
              Objet (facultatif)
              <input id={ids.subject} name="subject" className={styles.input} maxLength={150} />
            </label>
            <label className={styles.control} htmlFor={ids.body}>
              Message
              <textarea
                id={ids.body}
                name="body"
                className={styles.textarea}
                maxLength={5000}
                aria-invalid={fieldErrors.body ? true : undefined}
              />
              {fieldErrors.body ? <span className={styles.muted}>{fieldErrors.body}</span> : null}
            </label>
            <div>
              <Button type="submit" loading={submitting} loadingText="Envoi…">
                Envoyer
              </Button>
            </div>
          </form>
        </section>
        <section className={styles.card} aria-labelledby="history-title">
          <h2 id="history-title" className={styles.cardTitle}>
            {memberId ? `Historique${selected ? ` — ${selected}` : ''}` : 'Derniers messages'}
          </h2>
          {memberId ? (
            <Link to="/dashboard/member/$memberId" params={{ memberId }}>
              Voir la fiche du membre
            </Link>
          ) : null}
          {history.length === 0 ? (
            <p className={styles.muted}>Aucun message.</p>
          ) : (
            <ul className={styles.messages} aria-label="Messages envoyés">
              {history.map((m) => (
                <li key={m.id} className={styles.message}>
                  <p className={styles.muted}>
                    <time dateTime={m.createdAt}>{formatDate(m.createdAt)}</time> · à {m.memberEmail} · par {m.authorEmail ?? 'l’équipe'}
                  </p>
                  <p>
                    <strong>{m.subject}</strong>
                  </p>
                  <p className={styles.pre}>{m.body}</p>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
