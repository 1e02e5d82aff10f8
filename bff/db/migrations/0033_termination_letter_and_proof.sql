-- Termination said once: online or by letter, the proof a private file (docs/decisions/189-termination-letter-and-proof.md).

-- How the request reached the agency: online (the member's form) or by letter, registered or not,
-- recorded by staff at the day it was received (`requested_at` is then that day's first instant in
-- Paris, `recorded_by` the staff member who entered it).
ALTER TABLE contract_terminations
  ADD COLUMN channel text NOT NULL DEFAULT 'online' CHECK (channel IN ('online', 'letter')),
  ADD COLUMN recorded_by uuid,
  ADD COLUMN contract_id bigint REFERENCES contracts (id),
  ADD CONSTRAINT contract_terminations_letter_recorded CHECK ((channel = 'letter') = (recorded_by IS NOT NULL));

-- The contract the request is about: the member's latest signed at or before it (decision 175).
UPDATE contract_terminations t SET contract_id = (
  SELECT c.id FROM contracts c WHERE c.member_id = t.member_id AND c.signed_at <= t.requested_at ORDER BY c.signed_at DESC LIMIT 1);

-- The free-text « Justificatif » is gone: what members wrote in it is kept with their explanation.
UPDATE contract_terminations SET explanation = explanation || E'\n\nJustificatif indiqué : ' || btrim(proof)
  WHERE proof IS NOT NULL AND btrim(proof) <> '';
ALTER TABLE contract_terminations DROP COLUMN proof;

-- The proof, a file: PDF, JPEG or PNG as its bytes say (images re-encoded without their metadata),
-- 5 MB at most, stored here as the photos and the signed contracts are (never a file on disk, never
-- a public URL). One per request; the member may replace it while the request waits. Deleted by the
-- retention job 5 years after the end of the request's contract (art. 2224 Code civil).
CREATE TABLE contract_termination_proofs (
  termination_id bigint PRIMARY KEY REFERENCES contract_terminations (id) ON DELETE CASCADE,
  member_id uuid NOT NULL,
  mime text NOT NULL CHECK (mime IN ('application/pdf', 'image/jpeg', 'image/png')),
  size_bytes integer NOT NULL CHECK (size_bytes BETWEEN 1 AND 5242880),
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  bytes bytea NOT NULL,
  uploaded_at timestamptz NOT NULL,
  -- The member (online), or the staff member who scanned a letter's enclosure.
  uploaded_by uuid NOT NULL
);
CREATE INDEX contract_termination_proofs_member_idx ON contract_termination_proofs (member_id);

-- A staff read of a proof is logged like the other reads of a member's file (decision 107).
ALTER TABLE access_log DROP CONSTRAINT access_log_resource_check;
ALTER TABLE access_log ADD CONSTRAINT access_log_resource_check
  CHECK (resource IN ('member_file', 'signed_contract', 'member_photo', 'member_presentation', 'termination_proof'));
