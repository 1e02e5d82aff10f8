-- Public site (issue 4): proof of cookie consent (CNIL 2020-092, GDPR art. 7(1)).
-- One row per choice made in the banner: an anonymous id kept in the visitor's browser, the
-- banner version and the choices. No IP address, no user agent: nothing that identifies the
-- visitor beyond the random id.
CREATE TABLE consent_records (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  anonymous_id uuid NOT NULL,
  version text NOT NULL CHECK (length(version) BETWEEN 1 AND 32),
  choices jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX consent_records_anonymous_id ON consent_records (anonymous_id, created_at DESC);
