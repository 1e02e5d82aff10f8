-- The billing view's totals kept by the writes (issue 64, decision 225): for each Paris day, kind of
-- stored line (payments, instalments, refunds), offer (payments: their kind is read from it) and
-- status, how many lines and their amount — the lines whose owner is a member, exactly those the view
-- (bff/payments/agency-billing.ts `lineBranches`) lists. The totals of any period, kind and status
-- are then a sum over days (hundreds of rows) instead of every line (116 000 at 100 000 members).
-- The expected lines (`expected_instalments`) stay read: their status depends on the time.
--
-- Kept by triggers, in the statement that writes a line or changes a member's role, whatever writes
-- it (webhooks, the stand-ins, jobs, staff, restores, scripts): the old line's contribution taken
-- off, the new one's added. tests/integration/billing-day-totals.test.ts compares them with the
-- lines read whole after every kind of write.
CREATE TABLE billing_day_totals (
  day date NOT NULL,
  -- 0 payments, 1 instalments, 3 refunds (the view's `source`).
  source smallint NOT NULL,
  -- A payment's offer ('' without one); '' for the other kinds.
  offer_id text NOT NULL,
  status text NOT NULL,
  lines bigint NOT NULL,
  amount bigint NOT NULL,
  PRIMARY KEY (day, source, offer_id, status)
);

-- Each table's line as the view reads it (its instant, offer, status and signed amount), or no row.
CREATE FUNCTION billing_payment_line(s checkout_sessions)
  RETURNS TABLE (day date, offer_id text, status text, amount bigint) LANGUAGE sql STABLE AS $$
  SELECT (s.created_at AT TIME ZONE 'Europe/Paris')::date, coalesce(s.offer_id, ''), 'payee', coalesce(s.amount_total, 0)::bigint
  WHERE s.member_id IS NOT NULL
    AND (s.consumed_at IS NOT NULL OR (s.status = 'complete' AND s.payment_status = 'paid' AND s.amount_total > 0))
$$;
CREATE FUNCTION billing_instalment_line(r instalments)
  RETURNS TABLE (day date, offer_id text, status text, amount bigint) LANGUAGE sql STABLE AS $$
  SELECT (coalesce(CASE WHEN r.status = 'paid' THEN r.paid_at ELSE r.failed_at END, r.updated_at) AT TIME ZONE 'Europe/Paris')::date,
    '', CASE WHEN r.status = 'paid' THEN 'payee' ELSE 'echouee' END, r.amount_cents::bigint
$$;
CREATE FUNCTION billing_refund_line(f refunds)
  RETURNS TABLE (day date, offer_id text, status text, amount bigint) LANGUAGE sql STABLE AS $$
  SELECT (coalesce(f.completed_at, f.requested_at) AT TIME ZONE 'Europe/Paris')::date, '',
    CASE f.status WHEN 'succeeded' THEN 'rembourse' WHEN 'failed' THEN 'remboursement-echoue' ELSE 'remboursement-en-cours' END,
    -f.amount_cents::bigint
$$;

-- A day's row moved by `p_lines` lines and `p_amount`; a row left without lines is removed (the
-- table holds the days that have lines, as a rebuild from the lines would).
CREATE FUNCTION billing_day_totals_add(p_day date, p_source smallint, p_offer text, p_status text, p_lines bigint, p_amount bigint)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO billing_day_totals AS t (day, source, offer_id, status, lines, amount)
  VALUES (p_day, p_source, p_offer, p_status, p_lines, p_amount)
  ON CONFLICT (day, source, offer_id, status)
  DO UPDATE SET lines = t.lines + excluded.lines, amount = t.amount + excluded.amount;
  IF p_lines < 0 THEN
    DELETE FROM billing_day_totals t
      WHERE t.day = p_day AND t.source = p_source AND t.offer_id = p_offer AND t.status = p_status AND t.lines = 0;
  END IF;
END $$;

CREATE FUNCTION billing_owner_is_member(member uuid) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM members m WHERE m.id = member AND m.role = 'member')
$$;

-- A line written: its former contribution off (if its owner is a member), its new one on. An update
-- that changes nothing the totals read writes nothing.
CREATE FUNCTION billing_day_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  src smallint := CASE TG_TABLE_NAME WHEN 'checkout_sessions' THEN 0 WHEN 'instalments' THEN 1 ELSE 3 END;
  o_day date; o_offer text; o_status text; o_amount bigint;
  n_day date; n_offer text; n_status text; n_amount bigint;
BEGIN
  IF TG_OP <> 'INSERT' AND billing_owner_is_member(OLD.member_id) THEN
    IF src = 0 THEN SELECT * INTO o_day, o_offer, o_status, o_amount FROM billing_payment_line(OLD);
    ELSIF src = 1 THEN SELECT * INTO o_day, o_offer, o_status, o_amount FROM billing_instalment_line(OLD);
    ELSE SELECT * INTO o_day, o_offer, o_status, o_amount FROM billing_refund_line(OLD);
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' AND billing_owner_is_member(NEW.member_id) THEN
    IF src = 0 THEN SELECT * INTO n_day, n_offer, n_status, n_amount FROM billing_payment_line(NEW);
    ELSIF src = 1 THEN SELECT * INTO n_day, n_offer, n_status, n_amount FROM billing_instalment_line(NEW);
    ELSE SELECT * INTO n_day, n_offer, n_status, n_amount FROM billing_refund_line(NEW);
    END IF;
  END IF;
  IF (o_day, o_offer, o_status, o_amount) IS NOT DISTINCT FROM (n_day, n_offer, n_status, n_amount) THEN RETURN NULL; END IF;
  -- Two rows moved in the order of their keys, whatever the direction of the move: two writers
  -- moving lines between the same two rows lock them in the same order (no deadlock between them).
  IF n_day IS NOT NULL AND (o_day IS NULL OR (n_day, n_offer, n_status) < (o_day, o_offer, o_status)) THEN
    PERFORM billing_day_totals_add(n_day, src, n_offer, n_status, 1, n_amount);
    n_day := NULL;
  END IF;
  IF o_day IS NOT NULL THEN PERFORM billing_day_totals_add(o_day, src, o_offer, o_status, -1, -o_amount); END IF;
  IF n_day IS NOT NULL THEN PERFORM billing_day_totals_add(n_day, src, n_offer, n_status, 1, n_amount); END IF;
  RETURN NULL;
END $$;

-- Every line of one owner, added (`sign` 1) or taken off (-1): a member who becomes one, or stops being one.
CREATE FUNCTION billing_day_totals_of_member(member uuid, sign int) RETURNS void LANGUAGE sql AS $$
  INSERT INTO billing_day_totals AS t (day, source, offer_id, status, lines, amount)
  SELECT l.day, l.source, l.offer_id, l.status, sign * count(*), sign * sum(l.amount)
  FROM (
    SELECT p.*, 0::smallint AS source FROM checkout_sessions s, billing_payment_line(s) p WHERE s.member_id = member
    UNION ALL SELECT i.*, 1::smallint FROM instalments r, billing_instalment_line(r) i WHERE r.member_id = member
    UNION ALL SELECT f2.*, 3::smallint FROM refunds f, billing_refund_line(f) f2 WHERE f.member_id = member
  ) l
  GROUP BY l.day, l.source, l.offer_id, l.status
  ON CONFLICT (day, source, offer_id, status)
  DO UPDATE SET lines = t.lines + excluded.lines, amount = t.amount + excluded.amount;
  DELETE FROM billing_day_totals WHERE lines = 0 AND sign < 0
$$;

CREATE FUNCTION billing_day_totals_follow_member() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was boolean := TG_OP <> 'INSERT' AND OLD.role = 'member';
  now_member boolean := TG_OP <> 'DELETE' AND NEW.role = 'member';
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.id IS DISTINCT FROM NEW.id THEN
    IF was THEN PERFORM billing_day_totals_of_member(OLD.id, -1); END IF;
    IF now_member THEN PERFORM billing_day_totals_of_member(NEW.id, 1); END IF;
  ELSIF was AND NOT now_member THEN
    PERFORM billing_day_totals_of_member(OLD.id, -1);
  ELSIF now_member AND NOT was THEN
    PERFORM billing_day_totals_of_member(NEW.id, 1);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION billing_day_totals_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'members' THEN DELETE FROM billing_day_totals;
  ELSE DELETE FROM billing_day_totals
    WHERE source = CASE TG_TABLE_NAME WHEN 'checkout_sessions' THEN 0 WHEN 'instalments' THEN 1 ELSE 3 END;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER billing_day_totals_follow AFTER INSERT OR DELETE OR UPDATE ON checkout_sessions
  FOR EACH ROW EXECUTE FUNCTION billing_day_totals_follow();
CREATE TRIGGER billing_day_totals_follow AFTER INSERT OR DELETE OR UPDATE ON instalments
  FOR EACH ROW EXECUTE FUNCTION billing_day_totals_follow();
CREATE TRIGGER billing_day_totals_follow AFTER INSERT OR DELETE OR UPDATE ON refunds
  FOR EACH ROW EXECUTE FUNCTION billing_day_totals_follow();
CREATE TRIGGER billing_day_totals_follow_member AFTER INSERT OR DELETE OR UPDATE OF id, role ON members
  FOR EACH ROW EXECUTE FUNCTION billing_day_totals_follow_member();
CREATE TRIGGER billing_day_totals_truncated AFTER TRUNCATE ON checkout_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION billing_day_totals_truncated();
CREATE TRIGGER billing_day_totals_truncated AFTER TRUNCATE ON instalments
  FOR EACH STATEMENT EXECUTE FUNCTION billing_day_totals_truncated();
CREATE TRIGGER billing_day_totals_truncated AFTER TRUNCATE ON refunds
  FOR EACH STATEMENT EXECUTE FUNCTION billing_day_totals_truncated();
CREATE TRIGGER billing_day_totals_truncated AFTER TRUNCATE ON members
  FOR EACH STATEMENT EXECUTE FUNCTION billing_day_totals_truncated();

-- The lines already written.
INSERT INTO billing_day_totals (day, source, offer_id, status, lines, amount)
SELECT l.day, l.source, l.offer_id, l.status, count(*), sum(l.amount)
FROM (
  SELECT p.*, 0::smallint AS source FROM checkout_sessions s, billing_payment_line(s) p WHERE billing_owner_is_member(s.member_id)
  UNION ALL SELECT i.*, 1::smallint FROM instalments r, billing_instalment_line(r) i WHERE billing_owner_is_member(r.member_id)
  UNION ALL SELECT f2.*, 3::smallint FROM refunds f, billing_refund_line(f) f2 WHERE billing_owner_is_member(f.member_id)
) l
GROUP BY l.day, l.source, l.offer_id, l.status;

-- The few rows of members that are not members (staff): the expected lines' owner condition reads
-- them as one hashed list (bff/payments/agency-billing.ts EXPECTED_OWNER).
CREATE INDEX members_not_member ON members (id) WHERE role IS DISTINCT FROM 'member';
