-- The agency's own mails (docs/decisions/111-agency-mails.md): each is queued at most once per
-- (member, kind, occurrence), e.g. `agency-meeting-reminder:<member id>:<meeting instant>`. The key
-- is unique; mails without one (password, contact…) keep NULL, and NULLs never collide. Queued with
-- INSERT … ON CONFLICT (dedupe_key) DO NOTHING, so a replayed event or a second job pass adds nothing.
ALTER TABLE mail_outbox ADD COLUMN dedupe_key text CHECK (dedupe_key IS NULL OR length(dedupe_key) BETWEEN 1 AND 200);
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_dedupe_key_unique UNIQUE (dedupe_key);
