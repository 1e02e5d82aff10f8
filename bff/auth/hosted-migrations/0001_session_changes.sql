-- With a hosted Supabase project (config.supabase), DATABASE_URL is the project's own database
-- and its sessions live in auth.sessions (decision 100). The same triggers as the embedded
-- service's (bff/stand-ins/auth-service/migrations/0002_session_changes.sql): each session that starts, ends
-- or changes level announces its user on `member_changed`, so that every instance's member cache
-- reloads that member's live sessions. Idempotent: GoTrue owns the table and may be migrated
-- under us; the functions live in the app's own schema.
CREATE OR REPLACE FUNCTION notify_auth_session_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('member_changed', CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id::text ELSE NEW.user_id::text END);
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION notify_auth_sessions_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('member_changed', '*');
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS union_sincere_sessions_changed ON auth.sessions;
CREATE TRIGGER union_sincere_sessions_changed AFTER INSERT OR DELETE ON auth.sessions
  FOR EACH ROW EXECUTE FUNCTION notify_auth_session_changed();
DROP TRIGGER IF EXISTS union_sincere_sessions_level_changed ON auth.sessions;
CREATE TRIGGER union_sincere_sessions_level_changed AFTER UPDATE OF aal ON auth.sessions
  FOR EACH ROW EXECUTE FUNCTION notify_auth_session_changed();
DROP TRIGGER IF EXISTS union_sincere_sessions_truncated ON auth.sessions;
CREATE TRIGGER union_sincere_sessions_truncated AFTER TRUNCATE ON auth.sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_sessions_truncated();
