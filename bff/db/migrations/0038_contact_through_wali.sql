-- The walī's place (decision 196, issue 62 point 4). Each member chooses how the other member of a
-- mutually accepted introduction may reach them: their own contact (`moi`, the default, as before)
-- or through their walī only (`wali`: only the walī's name and phone are released, never the
-- member's own phone or e-mail). Once in the settings (beside the walī), and per introduction
-- (null: the settings' choice).
ALTER TABLE member_guardians ADD COLUMN contact_via text NOT NULL DEFAULT 'moi';
ALTER TABLE introductions ADD COLUMN contact_via_a text;
ALTER TABLE introductions ADD COLUMN contact_via_b text;
