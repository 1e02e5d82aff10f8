-- The member's rights over the contract (docs/decisions/118-contract-rights-and-term.md).
-- A refund owed after a withdrawal (L221-18, L221-24: within 14 days; pro rata when the member
-- asked the services to start early, L221-25). One row per paid checkout session and reason:
-- the unique key makes a retried withdrawal record nothing twice. The row is written in the
-- withdrawal's own transaction (status 'pending'), then carried out through Stripe's refund API
-- (STRIPE_SECRET_KEY) or the local stand-in, with the row id as idempotency key.
CREATE TABLE refunds (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL,
  checkout_session_id text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('withdrawal')),
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'eur',
  -- What the session paid and what the member keeps owing for an early start (pro rata).
  paid_cents integer NOT NULL CHECK (paid_cents >= 0),
  kept_cents integer NOT NULL DEFAULT 0 CHECK (kept_cents >= 0),
  requested_at timestamptz NOT NULL,
  due_by timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  provider text CHECK (provider IS NULL OR provider IN ('stripe', 'stand-in')),
  provider_refund_id text,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  completed_at timestamptz,
  CONSTRAINT refunds_session_reason_unique UNIQUE (checkout_session_id, reason)
);
CREATE INDEX refunds_member_idx ON refunds (member_id);
CREATE INDEX refunds_pending_idx ON refunds (status) WHERE status = 'pending';
