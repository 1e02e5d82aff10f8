-- A member row's change is announced with the transaction that made it (decision 129): the
-- payload becomes `<member id> <transaction id>`. The instance that made the change keeps the row
-- its UPDATE returned in its member cache, and knows its own notification when it comes back (on
-- each listening connection) from any other change, which still evicts the row. Session changes
-- (the auth store's triggers) and truncation keep their payloads (`<member id>`, `*`).
CREATE OR REPLACE FUNCTION notify_member_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(
    'member_changed',
    (CASE WHEN TG_OP = 'DELETE' THEN OLD.id::text ELSE NEW.id::text END) || ' ' || pg_current_xact_id()::text
  );
  RETURN NULL;
END
$$;
