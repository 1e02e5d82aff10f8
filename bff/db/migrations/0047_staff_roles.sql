-- Staff roles (issue 63 point 4, decision 206). « administration » does everything (team, billing,
-- settings, the agency's access journal); « conseil » works with the members assigned to them and
-- the leads nobody has taken. Every staff account that exists today becomes an administrator: it
-- kept every right until now, and the first account of an agency is its administrator.
ALTER TABLE members ADD COLUMN staff_role text
  CHECK (staff_role IS NULL OR staff_role IN ('administration', 'conseil'));
UPDATE members SET staff_role = 'administration' WHERE role = 'staff';
ALTER TABLE members ADD CONSTRAINT members_staff_role_only_staff
  CHECK ((role = 'staff') = (staff_role IS NOT NULL));

-- An invitation names the role the colleague will have.
ALTER TABLE staff_invitations ADD COLUMN staff_role text NOT NULL DEFAULT 'conseil'
  CHECK (staff_role IN ('administration', 'conseil'));

-- Counsellors' lists: « my members » is a lookup by counsellor.
CREATE INDEX IF NOT EXISTS member_counsellors_counsellor_idx ON member_counsellors (counsellor_id);

-- The access log (decision 107) records every staff read (issue 63 point 5): a read of one
-- member names them; a read of an agency-wide list (members, search, billing, messages, the
-- journal itself, exports) names no member and keeps what was asked (`detail`: the filters).
ALTER TABLE access_log ALTER COLUMN member_id DROP NOT NULL;
ALTER TABLE access_log ADD COLUMN detail text CHECK (detail IS NULL OR length(detail) <= 500);
ALTER TABLE access_log DROP CONSTRAINT access_log_resource_check;
ALTER TABLE access_log ADD CONSTRAINT access_log_resource_check
  CHECK (resource IN (
    'member_file', 'signed_contract', 'member_photo', 'member_presentation', 'termination_proof',
    'member_billing', 'member_invoice', 'member_follow_up', 'member_messages', 'member_candidates',
    'member_change_requests', 'member_lists', 'member_introductions',
    'member_list', 'member_search', 'member_export', 'agency_billing', 'agency_messages',
    'agency_introductions', 'agency_agenda', 'agency_leads', 'access_journal'
  ));
CREATE INDEX IF NOT EXISTS access_log_staff_idx ON access_log (staff_id, created_at DESC);
