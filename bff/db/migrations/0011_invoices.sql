-- Invoices (decision 110): one per recorded payment (checkout session), numbered per year without
-- gaps. The number comes from `invoice_counters`, incremented by an upsert that locks the year's
-- row until the payment's transaction ends: a rolled-back payment gives its number back, two
-- payments never share one.
CREATE TABLE invoice_counters (
  year integer PRIMARY KEY,
  last_number integer NOT NULL CHECK (last_number > 0)
);

CREATE TABLE invoices (
  -- "2026-000123": the year and the rank within it.
  number text PRIMARY KEY CHECK (number ~ '^[0-9]{4}-[0-9]{6}$'),
  year integer NOT NULL,
  rank integer NOT NULL,
  member_id uuid NOT NULL,
  -- One invoice per payment: a replayed or second event for the same session adds none.
  checkout_session_id text NOT NULL UNIQUE,
  offer_id text NOT NULL,
  customer_name text NOT NULL,
  -- The lines as shown: [{ label, amountCents }], and the totals in cents (TTC).
  lines jsonb NOT NULL,
  subtotal_cents integer NOT NULL,
  discount_cents integer NOT NULL,
  total_cents integer NOT NULL CHECK (total_cents >= 0),
  currency text NOT NULL DEFAULT 'eur',
  payment_method text NOT NULL,
  paid_at timestamptz NOT NULL,
  -- The exact PDF sent and downloaded.
  pdf bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (year, rank)
);
CREATE INDEX invoices_member_idx ON invoices (member_id, created_at);
