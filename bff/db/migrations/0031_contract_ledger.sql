-- One ledger per contract (docs/decisions/175-one-ledger-per-contract.md).
-- A contract is one signature of a member (the record's `subscriptionDate`): a renewal signs a new
-- one. Every payment (checkout session), instalment, refund, invoice and credit note names the
-- contract it belongs to; refunds come only from that contract's received money, and the database
-- refuses a refund beyond what its charge (and its contract) received.
CREATE TABLE contracts (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL,
  signed_at timestamptz NOT NULL,
  plan_id text,
  -- The term (signature + the plan's 6 or 12 months), when the plan is known.
  ends_at timestamptz,
  -- Stopped before its term: a renunciation, a withdrawal, an accepted termination; or 'term'.
  stopped_at timestamptz,
  stop_reason text CHECK (stop_reason IS NULL OR stop_reason IN ('renunciation', 'withdrawal', 'termination', 'term')),
  -- When the monthly plan's subscription was cancelled at the provider (Stripe, or the stand-in).
  subscription_cancelled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (member_id, signed_at),
  CHECK ((stopped_at IS NULL) = (stop_reason IS NULL))
);

-- Existing contracts: every signature in the event log, and each member's current one.
INSERT INTO contracts (member_id, signed_at)
SELECT member_id, (payload ->> 'subDate')::timestamptz FROM onboarding_events
WHERE context = 'sub_date' AND payload ->> 'subDate' IS NOT NULL
ON CONFLICT DO NOTHING;
INSERT INTO contracts (member_id, signed_at, plan_id)
SELECT id, (onboarding ->> 'subscriptionDate')::timestamptz, onboarding ->> 'selectedPlanId' FROM members
WHERE onboarding ->> 'subscriptionDate' IS NOT NULL
ON CONFLICT (member_id, signed_at) DO UPDATE SET plan_id = excluded.plan_id;

ALTER TABLE checkout_sessions ADD COLUMN contract_id bigint REFERENCES contracts (id);
ALTER TABLE instalments ADD COLUMN contract_id bigint REFERENCES contracts (id);
ALTER TABLE refunds ADD COLUMN contract_id bigint REFERENCES contracts (id);
ALTER TABLE invoices ADD COLUMN contract_id bigint REFERENCES contracts (id);
ALTER TABLE credit_notes ADD COLUMN contract_id bigint REFERENCES contracts (id);

-- Rows written before: the member's latest contract signed at or before the row.
UPDATE checkout_sessions s SET contract_id = (
  SELECT c.id FROM contracts c WHERE c.member_id = s.member_id AND c.signed_at <= s.created_at ORDER BY c.signed_at DESC LIMIT 1)
WHERE s.member_id IS NOT NULL;
UPDATE instalments i SET contract_id = coalesce(
  (SELECT s.contract_id FROM checkout_sessions s WHERE s.subscription_id = i.subscription_id AND s.contract_id IS NOT NULL
   ORDER BY s.created_at LIMIT 1),
  (SELECT c.id FROM contracts c WHERE c.member_id = i.member_id AND c.signed_at <= i.created_at ORDER BY c.signed_at DESC LIMIT 1));
UPDATE invoices v SET contract_id = coalesce(
  (SELECT s.contract_id FROM checkout_sessions s WHERE s.id = v.checkout_session_id),
  (SELECT i.contract_id FROM instalments i WHERE i.provider_invoice_id = v.checkout_session_id));
UPDATE refunds r SET contract_id = coalesce(
  (SELECT s.contract_id FROM checkout_sessions s WHERE s.id = r.checkout_session_id),
  (SELECT i.contract_id FROM instalments i WHERE i.provider_invoice_id = r.checkout_session_id));
UPDATE credit_notes n SET contract_id = (SELECT r.contract_id FROM refunds r WHERE r.id = n.refund_id);

CREATE INDEX contracts_member_idx ON contracts (member_id, signed_at DESC);
CREATE INDEX checkout_sessions_contract_idx ON checkout_sessions (contract_id) WHERE contract_id IS NOT NULL;
CREATE INDEX instalments_contract_idx ON instalments (contract_id);
CREATE INDEX refunds_contract_idx ON refunds (contract_id);
CREATE INDEX refunds_charge_idx ON refunds (checkout_session_id);
CREATE INDEX invoices_contract_idx ON invoices (contract_id);

-- A charge that arrives for a stopped contract is refunded automatically (never invoiced, so no credit note).
ALTER TABLE refunds DROP CONSTRAINT refunds_reason_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_reason_check CHECK (reason IN ('withdrawal', 'termination', 'outside_contract'));

-- Refunded ≤ received, per charge and per contract, checked where the refund is written: the
-- charge's row (a checkout session, or an instalment by its Stripe invoice `in_…`) and the
-- contract's row are locked until the transaction ends, so two refunds of the same money
-- written at once are checked one after the other. A refund names its charge's contract (filled
-- in when not given) and its member; a failed refund returned nothing and counts for nothing.
CREATE FUNCTION refunds_within_received() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  charge_contract bigint;
  charge_member uuid;
  received bigint;
  refunded bigint;
BEGIN
  SELECT contract_id, member_id, CASE WHEN payment_status = 'paid' THEN coalesce(amount_total, 0) ELSE 0 END
    INTO charge_contract, charge_member, received
    FROM checkout_sessions WHERE id = NEW.checkout_session_id FOR UPDATE;
  IF NOT FOUND THEN
    SELECT contract_id, member_id, CASE WHEN status = 'paid' THEN amount_cents ELSE 0 END
      INTO charge_contract, charge_member, received
      FROM instalments WHERE provider_invoice_id = NEW.checkout_session_id FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'refund of an unknown charge %: nothing was received to be refunded', NEW.checkout_session_id
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  IF charge_member IS DISTINCT FROM NEW.member_id THEN
    RAISE EXCEPTION 'refund for member % of a charge of member %', NEW.member_id, charge_member USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.contract_id IS NULL THEN
    NEW.contract_id := charge_contract;
  ELSIF NEW.contract_id IS DISTINCT FROM charge_contract THEN
    RAISE EXCEPTION 'refund for contract % of a charge of contract %', NEW.contract_id, charge_contract USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.status = 'failed' THEN
    RETURN NEW;
  END IF;
  SELECT coalesce(sum(amount_cents), 0) INTO refunded FROM refunds
    WHERE checkout_session_id = NEW.checkout_session_id AND status <> 'failed' AND id <> NEW.id;
  IF refunded + NEW.amount_cents > received THEN
    RAISE EXCEPTION 'refunded (% cents) would exceed received (% cents) for charge %', refunded + NEW.amount_cents, received,
      NEW.checkout_session_id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.contract_id IS NOT NULL THEN
    PERFORM 1 FROM contracts WHERE id = NEW.contract_id FOR UPDATE;
    SELECT coalesce((SELECT sum(amount_total) FROM checkout_sessions
                     WHERE contract_id = NEW.contract_id AND payment_status = 'paid' AND amount_total > 0), 0)
         + coalesce((SELECT sum(amount_cents) FROM instalments WHERE contract_id = NEW.contract_id AND status = 'paid'), 0)
      INTO received;
    SELECT coalesce(sum(amount_cents), 0) INTO refunded FROM refunds
      WHERE contract_id = NEW.contract_id AND status <> 'failed' AND id <> NEW.id;
    IF refunded + NEW.amount_cents > received THEN
      RAISE EXCEPTION 'refunded (% cents) would exceed received (% cents) for contract %', refunded + NEW.amount_cents, received,
        NEW.contract_id USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER refunds_within_received BEFORE INSERT OR UPDATE OF amount_cents, status, checkout_session_id, contract_id, member_id
  ON refunds FOR EACH ROW EXECUTE FUNCTION refunds_within_received();

-- A credit note names its refund's contract.
CREATE FUNCTION credit_notes_contract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT contract_id INTO NEW.contract_id FROM refunds WHERE id = NEW.refund_id;
  RETURN NEW;
END;
$$;
CREATE TRIGGER credit_notes_contract BEFORE INSERT ON credit_notes FOR EACH ROW EXECUTE FUNCTION credit_notes_contract();
