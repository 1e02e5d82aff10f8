-- Staff reads of a member's file (GDPR art. 5(2) and art. 9; docs/decisions/107-logs-access-log-readiness.md):
-- who read (the staff account's id, and the name it had then: the member's export names them
-- by it, never by their address), whose file, what, when, and the request id of the read. Written
-- in the same request as the read, before the answer leaves; never updated; deleted only by the
-- retention job after 12 months (bff/retention/retention-job.ts).
CREATE TABLE access_log (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  staff_id uuid NOT NULL,
  staff_name text CHECK (staff_name IS NULL OR length(staff_name) BETWEEN 1 AND 200),
  resource text NOT NULL CHECK (resource IN ('member_file', 'signed_contract')),
  request_id text CHECK (request_id IS NULL OR length(request_id) <= 64),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX access_log_member_idx ON access_log (member_id, created_at DESC);
CREATE INDEX access_log_created_idx ON access_log (created_at);

CREATE FUNCTION access_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'access_log is append-only';
END;
$$;
CREATE TRIGGER access_log_no_update BEFORE UPDATE ON access_log
  FOR EACH ROW EXECUTE FUNCTION access_log_append_only();
