-- Members' optional photos (issue 22, docs/decisions/116-member-photos.md): never shown by
-- default; released to one person for one introduction only once both have accepted, and served
-- only through an authenticated per-introduction URL (bff/photos/member-photos.ts). Stored in the
-- database like the signed contracts' PDFs (`contract_copies.pdf`): one transaction writes, erases
-- and backs them up with the rest of the member's data; no file under DATA_DIR to forget.
-- The bytes are the server's re-encoding (WebP, at most 1200 px on the long side, no metadata),
-- never the file the member sent.
CREATE TABLE member_photos (
  id uuid PRIMARY KEY,
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  -- 1 to 3 (MAX_PHOTOS_PER_MEMBER): the order the member sees and the other person sees.
  position smallint NOT NULL CHECK (position BETWEEN 1 AND 3),
  mime text NOT NULL CHECK (mime IN ('image/webp', 'image/jpeg')),
  width integer NOT NULL CHECK (width BETWEEN 1 AND 1200),
  height integer NOT NULL CHECK (height BETWEEN 1 AND 1200),
  bytes bytea NOT NULL,
  -- A small copy (at most 320 px) for the member's own list.
  thumbnail bytea NOT NULL,
  size_bytes integer NOT NULL CHECK (size_bytes > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (member_id, position)
);

-- A staff read of a member's photo is recorded in the access log like the file and the contract.
ALTER TABLE access_log DROP CONSTRAINT access_log_resource_check;
ALTER TABLE access_log ADD CONSTRAINT access_log_resource_check
  CHECK (resource IN ('member_file', 'signed_contract', 'member_photo'));
