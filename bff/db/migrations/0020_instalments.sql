-- Monthly instalments (docs/decisions/120-instalments-and-billing.md).
-- The Stripe subscription a monthly plan's checkout session opened: later instalments arrive as
-- `invoice.paid` / `invoice.payment_failed` events naming it, and are traced to the member by it.
ALTER TABLE checkout_sessions ADD COLUMN IF NOT EXISTS subscription_id text;
CREATE INDEX IF NOT EXISTS checkout_sessions_subscription_idx ON checkout_sessions (subscription_id) WHERE subscription_id IS NOT NULL;

-- Instalments 2…N of a subscription, one row per Stripe invoice (`in_…`): a failed attempt and the
-- retry that pays it are the same row. Instalment 1 is the checkout session itself.
CREATE TABLE instalments (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL,
  subscription_id text NOT NULL,
  provider_invoice_id text NOT NULL UNIQUE,
  offer_id text NOT NULL,
  number integer NOT NULL CHECK (number >= 2),
  amount_cents integer NOT NULL CHECK (amount_cents >= 0),
  currency text NOT NULL DEFAULT 'eur',
  status text NOT NULL CHECK (status IN ('paid', 'failed')),
  paid_at timestamptz,
  failed_at timestamptz,
  failures integer NOT NULL DEFAULT 0,
  -- Arrived after the plan's last instalment, a withdrawal/renunciation or the term's end: never
  -- invoiced nor mailed as a payment, flagged to staff (to refund).
  outside_contract boolean NOT NULL DEFAULT false,
  -- The numbered invoice of a paid instalment within the contract.
  invoice_number text,
  livemode boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (subscription_id, number)
);
CREATE INDEX instalments_member_idx ON instalments (member_id);
