-- The member's guardian (wali) or close relative, optional (issue 22, decision 117): at most one
-- per member, on its own table rather than in the `members` JSON of steps 1-2: it is a third
-- person's data (their name and contact), entered and changed at any time by the member, shown to
-- the other side of an introduction only per the member's choice, exported with the member and
-- deleted at their erasure (`eraseMemberData` deletes it: member rows are kept, anonymised, so
-- the cascade below only serves a deleted member row).
CREATE TABLE member_guardians (
  member_id uuid PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  relation text NOT NULL CHECK (relation IN ('pere', 'frere', 'oncle', 'imam', 'autre-proche')),
  email text CHECK (email IS NULL OR length(email) <= 254),
  phone text CHECK (phone IS NULL OR length(phone) <= 20),
  -- What the guardian receives: a copy of each proposal, the contact details at mutual acceptance, or nothing.
  receives text NOT NULL CHECK (receives IN ('copie-propositions', 'coordonnees', 'rien')),
  CHECK (email IS NOT NULL OR phone IS NOT NULL),
  CHECK (receives <> 'copie-propositions' OR email IS NOT NULL),
  -- When the member confirmed that the guardian is informed and agrees to be contacted.
  informed_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
