-- Booking (Calendly): every invitee the scheduling service told us about through a signed webhook.
-- One row per invitee (its URI), created active by `invitee.created` and marked canceled by
-- `invitee.canceled`, whatever the order they arrive in. The member's onboarding record follows
-- the latest active booking (bff/booking/sync-booking.ts).
CREATE TABLE bookings (
  invitee_uri text PRIMARY KEY,
  member_id uuid REFERENCES members (id) ON DELETE CASCADE,
  event_uri text NOT NULL,
  start_time timestamptz NOT NULL,
  end_time timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'canceled')),
  invitee_email text,
  invitee_name text,
  cancel_url text,
  reschedule_url text,
  rescheduled boolean NOT NULL DEFAULT false,
  -- When the invitee booked, as the scheduling service says (payload.created_at).
  booked_at timestamptz,
  canceled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bookings_member_idx ON bookings (member_id, status);
