-- Payments: checkout sessions as the server learnt them from signed Stripe webhooks, and every
-- webhook event received (de-duplicated on the provider's event id).
CREATE TABLE checkout_sessions (
  id text PRIMARY KEY,
  member_id uuid,
  offer_id text,
  payment_link text,
  amount_total integer,
  currency text,
  status text NOT NULL,
  payment_status text NOT NULL,
  customer_email text,
  livemode boolean NOT NULL DEFAULT false,
  -- Set when an `app`/`sub` update used this session: one payment confirms one step, once.
  consumed_at timestamptz,
  consumed_by_context text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX checkout_sessions_member_idx ON checkout_sessions (member_id);

CREATE TABLE webhook_events (
  provider text NOT NULL,
  id text NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, id)
);
