-- A scheduled mail is re-checked when it is sent (docs/decisions/191-contract-sequences-and-send-time-mails.md):
-- one that no longer applies to the member's state or contract is kept as 'dropped', with its
-- reason in last_error, and never sent.
ALTER TABLE mail_outbox DROP CONSTRAINT mail_outbox_status_check;
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_status_check CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'dropped'));
