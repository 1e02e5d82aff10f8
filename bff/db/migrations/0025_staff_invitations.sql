-- Invitations of colleagues to the staff dashboard (issue 21, decision 126). The invited address
-- gets an auth user at once (the auth service's admin `generate_link` of type `invite`: an
-- unconfirmed user with `invited_at`), but no `members` row: nothing signs in until the colleague
-- accepts. The mail's link carries a random secret whose SHA-256 is kept here (never the secret
-- itself); « Renvoyer » replaces it, « Révoquer » ends it. Who invited, resent or revoked is also
-- logged in the event log (`onboarding_events`, context `staff_invitation`).
CREATE TABLE staff_invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  name text NOT NULL,
  auth_user_id uuid NOT NULL,
  token_digest text NOT NULL UNIQUE,
  invited_by uuid REFERENCES members (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid REFERENCES members (id) ON DELETE SET NULL,
  CHECK (accepted_at IS NULL OR revoked_at IS NULL)
);
-- At most one pending invitation per address.
CREATE UNIQUE INDEX staff_invitations_pending_email ON staff_invitations (lower(email))
  WHERE accepted_at IS NULL AND revoked_at IS NULL;
