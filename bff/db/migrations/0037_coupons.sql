-- Coupons a regulator would accept (decision 195, issue 59 point 5): a code the member types on the
-- payment step, created by staff with a discount (the file fee waived, or an amount off it), a
-- validity window in Paris civil days, a use limit and an on/off switch. The server redeems a code
-- inside the transaction of the member's event, with a conditional UPDATE of `uses` (so two
-- redemptions at the limit cannot both pass), and keeps one row per redemption.
CREATE TABLE coupons (
  id bigserial PRIMARY KEY,
  -- Stored in capitals (the member may type it in any case); letters and digits only, as Stripe's promotion codes.
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{3,40}$'),
  -- 'waiver': the file fee is not charged at all; 'amount': `amount_cents` off the file fee.
  discount_kind text NOT NULL CHECK (discount_kind IN ('waiver', 'amount')),
  amount_cents integer,
  -- The first and last civil days (Europe/Paris) the code is accepted, both included.
  valid_from date NOT NULL,
  valid_until date NOT NULL,
  max_uses integer NOT NULL CHECK (max_uses > 0),
  uses integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true,
  created_by uuid,
  created_at timestamptz NOT NULL,
  CHECK ((discount_kind = 'waiver' AND amount_cents IS NULL) OR (discount_kind = 'amount' AND amount_cents > 0)),
  CHECK (valid_from <= valid_until),
  CHECK (uses >= 0 AND uses <= max_uses)
);

CREATE TABLE coupon_redemptions (
  id bigserial PRIMARY KEY,
  coupon_id bigint NOT NULL REFERENCES coupons (id),
  member_id uuid NOT NULL,
  -- What the code took off the file fee for this member (cents).
  discount_cents integer NOT NULL CHECK (discount_cents > 0),
  redeemed_at timestamptz NOT NULL
);
CREATE INDEX coupon_redemptions_member_idx ON coupon_redemptions (member_id, redeemed_at DESC);
