-- Every change to a member row is announced on the `member_changed` channel (payload: the member
-- id; '*' when the table is truncated), at commit, to every listening session — the invalidation
-- feed of the in-memory member cache of each server instance (docs/decisions/090-member-cache.md).
-- Triggers rather than calls in the code: no write path can forget it (the authority, webhooks,
-- staff actions, erasure, retention, restores and hand-written SQL alike).
CREATE FUNCTION notify_member_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('member_changed', CASE WHEN TG_OP = 'DELETE' THEN OLD.id::text ELSE NEW.id::text END);
  RETURN NULL;
END
$$;

CREATE FUNCTION notify_members_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('member_changed', '*');
  RETURN NULL;
END
$$;

CREATE TRIGGER members_changed AFTER INSERT OR UPDATE OR DELETE ON members
  FOR EACH ROW EXECUTE FUNCTION notify_member_changed();
CREATE TRIGGER members_truncated AFTER TRUNCATE ON members
  FOR EACH STATEMENT EXECUTE FUNCTION notify_members_truncated();
