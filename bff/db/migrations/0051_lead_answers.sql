-- Answering a lead by mail (issue 63 point 3, decision 211): the answers kept in the lead's
-- history, templates of a « prospect » kind, a Reply-To on outgoing mails, and the indexes of the
-- leads inbox answered in SQL (issue 64 point 2).

-- A template is for members (the message form) or for prospects (the answer to a lead).
ALTER TABLE message_templates ADD COLUMN kind text NOT NULL DEFAULT 'membre' CHECK (kind IN ('membre', 'prospect'));

-- Where the recipient's answer goes (the agency's address), when it is not the sender.
ALTER TABLE mail_outbox ADD COLUMN reply_to text;

-- Each answer sent to a lead: what was sent, by whom, when, and its mail in the outbox (whose
-- status says whether it left). Erased with the lead (decision 157), dropped with it by retention.
CREATE TABLE lead_answers (
  id bigserial PRIMARY KEY,
  lead_id uuid NOT NULL,
  author_id uuid REFERENCES members (id) ON DELETE SET NULL,
  template_id bigint REFERENCES message_templates (id) ON DELETE SET NULL,
  to_address text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  mail_id bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX lead_answers_lead ON lead_answers (lead_id, id);

-- The history names an answer as one of its lines.
ALTER TABLE lead_events DROP CONSTRAINT lead_events_field_check;
ALTER TABLE lead_events ADD CONSTRAINT lead_events_field_check CHECK (field IN ('status', 'assignee', 'follow_up', 'note', 'answer'));

-- The inbox: newest first over both kinds of lead, filtered by status, assignee and subject.
CREATE INDEX pre_subscriptions_created_at ON pre_subscriptions (created_at DESC, id);
CREATE INDEX pre_subscriptions_email ON pre_subscriptions (lower(email));
CREATE INDEX contact_messages_subject ON contact_messages (subject, created_at DESC);
CREATE INDEX lead_follow_ups_status ON lead_follow_ups (status, assignee_id);
CREATE INDEX lead_follow_ups_assignee ON lead_follow_ups (assignee_id) WHERE assignee_id IS NOT NULL;

-- Three answers the agency can start from (the administration edits them with the other templates).
INSERT INTO message_templates (title, subject, body, kind) VALUES
  ('Prospect — premier contact',
   'Votre message à {agence}',
   E'Bonjour {prenom},\n\nMerci pour votre message. Nous serions heureux d’échanger avec vous de vive voix pour vous présenter notre accompagnement et répondre à vos questions.\n\nPouvez-vous nous indiquer deux ou trois créneaux où vous êtes disponible cette semaine, et le numéro auquel vous joindre ?\n\nBien cordialement,\n{agence}',
   'prospect'),
  ('Prospect — formules et prix',
   'Nos formules d’accompagnement',
   E'Bonjour {prenom},\n\nMerci de votre intérêt pour {agence}. Nos formules et leurs prix sont détaillés sur la page « Nos offres » du site ; l’inscription commence par un entretien personnalisé, sans engagement.\n\nNous restons à votre disposition pour toute question.\n\nBien cordialement,\n{agence}',
   'prospect'),
  ('Prospect — suite de la pré-inscription',
   'Votre pré-inscription chez {agence}',
   E'Bonjour {prenom},\n\nNous avons bien reçu votre pré-inscription, merci. Pour la compléter, suivez le lien reçu par e-mail après votre pré-inscription : il vous permet de créer votre espace et de réserver votre entretien personnalisé.\n\nSi vous ne le retrouvez pas, répondez simplement à ce message.\n\nBien cordialement,\n{agence}',
   'prospect')
ON CONFLICT DO NOTHING;
