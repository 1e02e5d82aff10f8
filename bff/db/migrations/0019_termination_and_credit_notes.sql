-- Termination for a legitimate reason (R224-2) and credit notes (docs/decisions/119-termination-and-credit-notes.md).

-- The member's request: the reason (code of the label table), the explanation and an optional
-- description or reference of the proof, then the staff's decision (accepted, or refused with a
-- written reason). The explanation may reveal health data (art. 9 GDPR): it lives here, never in
-- the event log (whose payload keeps only the reason's code).
CREATE TABLE contract_terminations (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL,
  requested_at timestamptz NOT NULL,
  reason text NOT NULL CHECK (reason IN ('demenagement', 'changement-situation-matrimoniale', 'maladie-invalidite', 'autre-motif-grave')),
  explanation text NOT NULL,
  proof text,
  -- Staff decide (and the refund is due) within two months of the request.
  due_by timestamptz NOT NULL,
  decision text CHECK (decision IS NULL OR decision IN ('accepted', 'refused')),
  decided_at timestamptz,
  decided_by uuid,
  refusal_reason text,
  CHECK ((decision IS NULL) = (decided_at IS NULL)),
  CHECK (decision IS DISTINCT FROM 'refused' OR refusal_reason IS NOT NULL),
  UNIQUE (member_id, requested_at)
);
CREATE INDEX contract_terminations_member_idx ON contract_terminations (member_id, requested_at);

-- A refund may now follow a termination too.
ALTER TABLE refunds DROP CONSTRAINT refunds_reason_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_reason_check CHECK (reason IN ('withdrawal', 'termination'));

-- Credit notes (avoirs): one per refund row, issued in the transaction that records the refund as
-- owed, numbered per calendar year (Paris) without gaps from their own counter, as invoices are
-- (decision 110): the year's row is locked by the upsert until the transaction ends.
CREATE TABLE credit_note_counters (
  year integer PRIMARY KEY,
  last_number integer NOT NULL CHECK (last_number > 0)
);

CREATE TABLE credit_notes (
  -- "AV-2026-00001".
  number text PRIMARY KEY CHECK (number ~ '^AV-[0-9]{4}-[0-9]{5}$'),
  year integer NOT NULL,
  rank integer NOT NULL,
  member_id uuid NOT NULL,
  refund_id bigint NOT NULL UNIQUE REFERENCES refunds (id),
  -- The invoice it corrects (null only for a payment recorded before invoices existed).
  invoice_number text REFERENCES invoices (number),
  reason text NOT NULL CHECK (reason IN ('withdrawal', 'termination')),
  customer_name text NOT NULL,
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'eur',
  issued_at timestamptz NOT NULL,
  -- The exact PDF mailed and downloaded.
  pdf bytea NOT NULL,
  UNIQUE (year, rank)
);
CREATE INDEX credit_notes_member_idx ON credit_notes (member_id, issued_at);
