import { useEffect, useState } from 'react';
import * as styles from '#src/features/account/account.css.ts';
import { api, send } from '#src/lib/api-client.ts';

interface Message {
  id: number;
  subject: string;
  body: string;
  createdAt: string;
}

const dateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Paris' });

/** `/mon-compte/messages`: the messages the agency's staff sent the member (also e-mailed). */
export function MessagesPage() {
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let alive = true;
    send(api.user.messages.$get()).then((result) => {
      if (!alive) return;
      if (result.ok) setMessages(result.data.messages as Message[]);
      else setFailed(true);
    });
    return () => {
      alive = false;
    };
  }, []);

  return (
    <>
      <h1 className={styles.title}>Messages de l’agence</h1>
      <p className={styles.text}>Les messages de votre conseillère, également envoyés par e-mail.</p>
      <div aria-live="polite" aria-busy={messages === null && !failed}>
        {failed && <p className={styles.text}>Vos messages n’ont pas pu être chargés. Réessayez dans un instant.</p>}
        {messages?.length === 0 && <p className={styles.text}>Vous n’avez pas encore de message.</p>}
        {messages && messages.length > 0 && (
          <ol className={styles.messageList}>
            {messages.map((message) => (
              <li key={message.id} className={styles.panel}>
                <article aria-labelledby={`message-${message.id}`}>
                  <h2 id={`message-${message.id}`} className={styles.messageSubject}>
                    {message.subject}
                  </h2>
                  <p className={styles.messageDate}>
                    <time dateTime={message.createdAt}>{dateFormat.format(new Date(message.createdAt))}</time>
                  </p>
                  <p className={styles.messageBody}>{message.body}</p>
                </article>
              </li>
            ))}
          </ol>
        )}
      </div>
    </>
  );
}
