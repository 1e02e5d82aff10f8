-- Every session that starts, ends or changes level announces its user on `member_changed` (the
-- member id is the auth user id; '*' when the table is truncated): the member cache of every
-- instance forgets that member, and its next load reads the live sessions again, so a session
-- ended anywhere (sign-out, password reset, ban, erasure, removed factor) is refused everywhere
-- at once (decision 100). The hosted project gets the same triggers on auth.sessions
-- (bff/auth/hosted-migrations). Refreshes, which only touch refreshed_at, announce nothing.
CREATE OR REPLACE FUNCTION embedded_auth.notify_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('member_changed', CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id::text ELSE NEW.user_id::text END);
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION embedded_auth.notify_sessions_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('member_changed', '*');
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS sessions_changed ON embedded_auth.sessions;
CREATE TRIGGER sessions_changed AFTER INSERT OR DELETE ON embedded_auth.sessions
  FOR EACH ROW EXECUTE FUNCTION embedded_auth.notify_session_changed();
DROP TRIGGER IF EXISTS sessions_level_changed ON embedded_auth.sessions;
CREATE TRIGGER sessions_level_changed AFTER UPDATE OF aal ON embedded_auth.sessions
  FOR EACH ROW EXECUTE FUNCTION embedded_auth.notify_session_changed();
DROP TRIGGER IF EXISTS sessions_truncated ON embedded_auth.sessions;
CREATE TRIGGER sessions_truncated AFTER TRUNCATE ON embedded_auth.sessions
  FOR EACH STATEMENT EXECUTE FUNCTION embedded_auth.notify_sessions_truncated();
