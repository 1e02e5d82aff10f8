import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextAreaField } from '#src/components/ui/text-area-field.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { type SubmitOutcome, useForm } from '#src/components/ui/use-form.ts';
import {
  type DirectMessage,
  fillTemplate,
  listMessages,
  listTemplates,
  markMemberMessagesRead,
  searchMembers,
  sendMessage,
} from '#src/features/dashboard/dashboard-api.ts';
import { formatDateTime as formatDate } from '#src/features/dashboard/format-fr.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { MemberCombobox, type MemberOption } from '#src/features/dashboard/member-combobox.tsx';
import { SelectField } from '#src/features/dashboard/select-field.tsx';
import { MessageTemplatesPanel } from '#src/features/dashboard/message-templates-panel.tsx';
import * as chat from '#src/features/messages/messages.css.ts';
import { getStaffUnread, messagesChanged, unreadKeys, unreadLabel } from '#src/features/messages/unread.ts';
import { notify } from '#src/lib/notifications.ts';
import { unwrap } from '#src/lib/query-client.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';

const route = getRouteApi('/dashboard/_staff/message-direct');

const search = async (q: string): Promise<MemberOption[] | null> => {
  const result = await searchMembers(q);
  return result.ok ? result.data.items : null;
};

/**
 * `/dashboard/message-direct`: the members' unread messages, a conversation with one member
 * (opened = marked read on the staff side) and the reply form with the recipient combobox and
 * the templates (decision 121). Only a notice without the content is mailed to the member.
 */
export function DirectMessagePage() {
  const { memberId } = route.useSearch();
  const navigate = route.useNavigate();
  const templateSelectId = useId();
  const [member, setMember] = useState<MemberOption | null>(null);
  const [templateId, setTemplateId] = useState('');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();
  const client = useQueryClient();

  const templates = useQuery({ queryKey: staffKeys.templates, queryFn: () => unwrap(listTemplates()) }).data?.templates ?? [];
  const loadTemplates = () => client.invalidateQueries({ queryKey: staffKeys.templates });
  // The message form offers the templates written for members; the panel below edits them all.
  const memberTemplates = templates.filter((t) => t.kind === 'membre');

  // Opening a conversation marks what the member wrote as read (server side); the conversation and
  // the counts are asked once it is done, so that they show it read.
  const [readFor, setReadFor] = useState<string | undefined | null>(memberId ? null : undefined);
  useEffect(() => {
    let live = true;
    if (!memberId) {
      setMember(null);
      setReadFor(undefined);
      return;
    }
    setReadFor(null);
    void markMemberMessagesRead(memberId).then((marked) => {
      if (!live) return;
      if (marked.ok && marked.data.marked > 0) {
        messagesChanged();
        void client.invalidateQueries({ queryKey: memberFileKeys.memberMessages(memberId) });
      }
      setReadFor(memberId);
    });
    return () => {
      live = false;
    };
  }, [memberId, client]);
  const ready = readFor === memberId;
  const historyQuery = useQuery({
    queryKey: memberFileKeys.memberMessages(memberId),
    queryFn: () => unwrap(listMessages(memberId)),
    enabled: ready,
  });
  const history: DirectMessage[] = historyQuery.data?.messages ?? [];
  const historyMember = historyQuery.data?.member;
  useEffect(() => {
    if (memberId && historyMember) setMember(historyMember);
  }, [memberId, historyMember]);
  // The members with unread messages (asked again with the unread counts: a read or sent conversation).
  const unread =
    useQuery({ queryKey: unreadKeys.staffRows, queryFn: async () => (await unwrap(getStaffUnread())).members, enabled: ready }).data ??
    null;

  const choose = (m: MemberOption) => {
    setMember(m);
    void navigate({ search: { memberId: m.id }, replace: true });
  };

  async function insertTemplate() {
    if (!memberId) {
      notify({
        title: 'Choisissez d’abord le destinataire.',
        description: 'Le modèle est rempli avec ses informations.',
        variant: 'error',
      });
      return;
    }
    const result = await fillTemplate(Number(templateId), memberId);
    if (!result.ok) {
      notify({ title: 'Le modèle n’a pas pu être inséré.', description: result.error.message, variant: 'error' });
      return;
    }
    setSubject(result.data.subject);
    setBody(result.data.body);
  }

  const onSubmit = handleSubmit(async (): Promise<SubmitOutcome | undefined> => {
    if (!memberId) return { fieldErrors: { member: 'Choisissez un membre' } };
    if (!body.trim()) return { fieldErrors: { body: 'Message requis' } };
    const result = await sendMessage(memberId, { subject: subject.trim(), body: body.trim() });
    if (!result.ok) return { fieldErrors: result.error.fieldErrors, formError: result.error.message };
    setSubject('');
    setBody('');
    setTemplateId('');
    notify({
      title: 'Message envoyé.',
      description: 'Il est visible dans l’espace du membre, qui reçoit un e-mail sans son contenu.',
      variant: 'success',
    });
    await client.invalidateQueries({ queryKey: memberFileKeys.messages });
    return undefined;
  });

  const who = member ? (member.name ?? member.email) : null;

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>Messages</h1>
      <div className={styles.grid}>
        <section className={styles.card} aria-labelledby="write-title">
          <h2 id="write-title" className={styles.cardTitle}>
            Écrire à un membre
          </h2>
          <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-describedby="message-alert">
            <FormAlert tone="error" id="message-alert">
              {formError}
            </FormAlert>
            <MemberCombobox selected={member} onSelect={choose} search={search} error={fieldErrors.member} />
            {memberTemplates.length > 0 ? (
              <div className={styles.filters}>
                <SelectField
                  id={templateSelectId}
                  label="Modèle"
                  value={templateId}
                  onChange={setTemplateId}
                  options={[
                    { value: '', label: 'Choisir un modèle…' },
                    ...memberTemplates.map((t) => ({ value: String(t.id), label: t.title })),
                  ]}
                />
                <Button type="button" variant="secondary" disabled={!templateId} onClick={() => void insertTemplate()}>
                  Insérer le modèle
                </Button>
              </div>
            ) : null}
            <TextField
              name="subject"
              label="Objet (facultatif)"
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
            <div>
              <Button type="submit" loading={submitting} loadingText="Envoi…">
                Envoyer
              </Button>
            </div>
          </form>
        </section>
        {memberId ? (
          <section className={styles.card} aria-labelledby="history-title">
            <h2 id="history-title" className={styles.cardTitle}>
              {who ? `Conversation avec ${who}` : 'Conversation'}
            </h2>
            <p>
              <Link to="/dashboard/member/$memberId" params={{ memberId }}>
                Voir la fiche du membre
              </Link>
              {' · '}
              <Link to="/dashboard/message-direct" search={{}}>
                Tous les messages
              </Link>
            </p>
            <Conversation messages={history} />
          </section>
        ) : (
          <div className={styles.page}>
            <section className={styles.card} aria-labelledby="unread-title">
              <h2 id="unread-title" className={styles.cardTitle}>
                Messages non lus
              </h2>
              {unread === null ? null : unread.length === 0 ? (
                <p className={styles.muted}>Aucun message de membre en attente de lecture.</p>
              ) : (
                <ul className={styles.messages} aria-label="Membres ayant écrit">
                  {unread.map((row) => (
                    <li key={row.memberId} className={`${styles.message} ${chat.wrap}`}>
                      <Link to="/dashboard/message-direct" search={{ memberId: row.memberId }}>
                        {row.name ?? row.email}
                      </Link>{' '}
                      — {unreadLabel(row.unread)}
                      {row.lastAt ? (
                        <span className={styles.muted}>
                          {' '}
                          · dernier le <time dateTime={row.lastAt}>{formatDate(row.lastAt)}</time>
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section className={styles.card} aria-labelledby="history-title">
              <h2 id="history-title" className={styles.cardTitle}>
                Derniers messages
              </h2>
              <Conversation messages={history} showMember />
            </section>
          </div>
        )}
      </div>
      <MessageTemplatesPanel templates={templates} onChanged={loadTemplates} />
    </div>
  );
}

function Conversation({ messages, showMember = false }: { messages: DirectMessage[]; showMember?: boolean }) {
  if (messages.length === 0) return <p className={styles.muted}>Aucun message.</p>;
  return (
    <ol className={chat.conversation} aria-label="Messages, du plus récent au plus ancien">
      {messages.map((m) => {
        const fromMember = m.direction === 'to_agency';
        return (
          <li key={m.id} className={fromMember ? chat.fromMember : chat.fromAgency}>
            <p className={chat.meta}>
              {fromMember ? `Message du membre${showMember ? ` (${m.memberEmail})` : ''}` : `L’agence, par ${m.authorEmail ?? 'l’équipe'}`}
              {!fromMember && showMember ? ` à ${m.memberEmail}` : ''} · <time dateTime={m.createdAt}>{formatDate(m.createdAt)}</time>
              {fromMember ? (m.staffReadAt ? '' : ' · non lu') : m.memberReadAt ? ' · lu par le membre' : ' · pas encore lu par le membre'}
            </p>
            <p className={chat.subject}>{m.subject}</p>
            <p className={chat.body}>{m.body}</p>
          </li>
        );
      })}
    </ol>
  );
}
