-- Attachments on outgoing mails (the signed contract, invoices): `[{ filename, contentType,
-- contentBase64 }]`, validated and size-limited by bff/mail/outbox.ts, passed to nodemailer by the
-- dispatcher. The local mailbox keeps what it received: `[{ filename, contentType, size, sha256,
-- contentBase64 }]`.
ALTER TABLE mail_outbox ADD COLUMN attachments jsonb;
ALTER TABLE mailbox ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'::jsonb;

-- The one-time code of a contract signature (docs/decisions/109-contract-signature.md): one live
-- code per member, hashed (never stored in clear), valid 15 minutes, a limited number of tries.
-- `document_sha256` is the hash of the PDF shown when the code was asked for: the code signs
-- that document and no other.
CREATE TABLE contract_signature_codes (
  member_id uuid PRIMARY KEY REFERENCES members (id) ON DELETE CASCADE,
  code_hash text NOT NULL CHECK (length(code_hash) = 64),
  document_sha256 text NOT NULL CHECK (length(document_sha256) = 64),
  sent_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  attempts smallint NOT NULL DEFAULT 0 CHECK (attempts >= 0)
);

-- The evidence record of a simple electronic signature (eIDAS art. 25, Code civil art. 1367):
-- which document (SHA-256 of the exact PDF bytes shown and mailed), when, from which client
-- address and user agent, and how the signer was identified (a code sent to the member's e-mail,
-- when sent and when verified, after how many tries). Never updated.
CREATE TABLE contract_signatures (
  id bigserial PRIMARY KEY,
  member_id uuid NOT NULL REFERENCES members (id) ON DELETE CASCADE,
  document_sha256 text NOT NULL CHECK (length(document_sha256) = 64),
  signed_at timestamptz NOT NULL,
  client_address text NOT NULL CHECK (length(client_address) <= 64),
  user_agent text NOT NULL CHECK (length(user_agent) <= 512),
  method text NOT NULL CHECK (method IN ('email_code')),
  code_sent_at timestamptz NOT NULL,
  code_verified_at timestamptz NOT NULL,
  code_attempts smallint NOT NULL CHECK (code_attempts >= 1)
);
CREATE INDEX contract_signatures_member_idx ON contract_signatures (member_id, signed_at DESC);

CREATE FUNCTION contract_signatures_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'contract_signatures is append-only';
END;
$$;
CREATE TRIGGER contract_signatures_no_update BEFORE UPDATE ON contract_signatures
  FOR EACH ROW EXECUTE FUNCTION contract_signatures_append_only();
