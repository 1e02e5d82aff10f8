import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextAreaField } from '#src/components/ui/text-area-field.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { type SubmitOutcome, useForm } from '#src/components/ui/use-form.ts';
import * as styles from '#src/features/account/account.css.ts';
import * as chat from '#src/features/messages/messages.css.ts';
import { memberKeys } from '#src/features/account/account-queries.ts';
import { messagesChanged } from '#src/features/messages/unread.ts';
import { api, send } from '#src/lib/api-client.ts';
import { textOf } from '#src/lib/form.ts';
import { notify } from '#src/lib/notifications.ts';
import { unwrap } from '#src/lib/query-client.ts';
import { frenchDateFormat } from '#machines/french/dates.ts';

interface Message {
  id: number;
  direction: 'to_member' | 'to_agency';
  subject: string;
  body: string;
  createdAt: string;
  memberReadAt: string | null;
}

const dateFormat = frenchDateFormat({ dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });

/**
 * `/mon-compte/messages`: the conversation with the agency (decision 121). Opening the page marks
 * the agency's messages read; the member replies or writes below. Mails only announce a message.
 */
export function MessagesPage() {
  const [fresh, setFresh] = useState<Set<number>>(new Set());
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  const client = useQueryClient();
  // Asked at each visit, even when a list is in the cache: the « Nouveau » marks are of this visit.
  const query = useQuery({
    queryKey: memberKeys.messages,
    queryFn: async () => (await unwrap(send(api.user.messages.$get()))).messages as Message[],
    refetchOnMount: 'always',
  });
  const messages = query.data ?? null;
  const load = () => client.invalidateQueries({ queryKey: memberKeys.messages });

  // What was unread when the page opened keeps a « Nouveau » mark for this visit; then it is marked read.
  const marked = useRef(false);
  const firstAnswer = query.isFetchedAfterMount && !query.isFetching ? query.data : undefined;
  useEffect(() => {
    if (!firstAnswer || marked.current) return;
    marked.current = true;
    const unread = firstAnswer.filter((m) => m.direction === 'to_member' && m.memberReadAt === null).map((m) => m.id);
    setFresh(new Set(unread));
    if (unread.length > 0) {
      void send(api.user.messages.read.$post()).then((read) => {
        if (read.ok) messagesChanged();
      });
    }
  }, [firstAnswer]);

  const onSubmit = handleSubmit(async (data): Promise<SubmitOutcome | undefined> => {
    const body = textOf(data, 'body').trim();
    if (!body) return { fieldErrors: { body: 'Message requis' } };
    const result = await send(api.user.messages.$post({ json: { subject: textOf(data, 'subject').trim(), body } }));
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    formRef.current?.reset();
    notify({ title: 'Message envoyé à l’agence.', description: 'Votre conseillère vous répondra ici.', variant: 'success' });
    await load();
    return undefined;
  });

  return (
    <>
      <h1 className={styles.title}>Messages de l’agence</h1>
      <p className={styles.text}>
        Votre conversation avec votre conseillère. Un e-mail vous prévient d’un nouveau message, sans en reproduire le contenu.
      </p>
      <section className={styles.panel} aria-labelledby="write-title">
        <h2 id="write-title" className={styles.messageSubject}>
          Écrire à l’agence
        </h2>
        <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-describedby="reply-alert">
          <FormAlert tone="error" id="reply-alert">
            {formError}
          </FormAlert>
          <TextField name="subject" label="Objet (facultatif)" maxLength={150} autoComplete="off" error={fieldErrors.subject} />
          <TextAreaField name="body" label="Votre message" rows={6} maxLength={5000} required error={fieldErrors.body} />
          <div>
            <Button type="submit" loading={submitting} loadingText="Envoi…">
              Envoyer
            </Button>
          </div>
        </form>
      </section>
      <div className={styles.conversationBlock} aria-live="polite" aria-busy={query.isPending}>
        {query.isError && <p className={styles.text}>Vos messages n’ont pas pu être chargés. Réessayez dans un instant.</p>}
        {messages?.length === 0 && <p className={styles.text}>Vous n’avez pas encore de message.</p>}
        {messages && messages.length > 0 && (
          <ol className={chat.conversation} aria-label="Conversation, du plus récent au plus ancien">
            {messages.map((message) => {
              const mine = message.direction === 'to_agency';
              return (
                <li key={message.id} className={mine ? chat.fromMember : chat.fromAgency}>
                  <article aria-labelledby={`message-${message.id}`}>
                    <p className={chat.meta}>
                      {mine ? 'Vous' : 'L’agence'} ·{' '}
                      <time dateTime={message.createdAt}>{dateFormat.format(new Date(message.createdAt))}</time>
                      {fresh.has(message.id) ? <span className={chat.newTag}>Nouveau</span> : null}
                    </p>
                    <h2 id={`message-${message.id}`} className={chat.subject}>
                      {message.subject}
                    </h2>
                    <p className={chat.body}>{message.body}</p>
                  </article>
                </li>
              );
            })}
          </ol>
        )}
      </div>
    </>
  );
}
