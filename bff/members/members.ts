import { type StaffRole, staffRoleOf } from '#machines/staff/roles.ts';
import * as v from 'valibot';
import type { Db, Transaction } from '#bff/db/database.ts';
import { stageColumns } from '#bff/members/stage.ts';
import { insertMemberRow, type MemberRow, memberById } from '#bff/members/store/members.ts';
import { emptyRecord, type Gender, type OnboardingRecord, onboardingRecordSchema } from '#machines/onboarding/record.ts';

export type { MemberRow } from '#bff/members/store/members.ts';

/**
 * Creates the member record of a new account, at the start of onboarding, dated `input.now` (the
 * agency's clock, as every later change of the row: retention counts the member's inactivity from
 * it) or, without one, by the database.
 */
export async function createMember(
  db: Db,
  input: { id: string; email: string; gender: Gender; now?: Date },
  /** Runs in the same transaction once the row is written (the welcome mail, decision 111). */
  onCreated?: (tx: Transaction) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await insertMember(tx, input);
    await onCreated?.(tx);
  });
}

/** The member row of a new account, in the caller's transaction. */
export async function insertMember(tx: Transaction, input: { id: string; email: string; gender: Gender; now?: Date }): Promise<void> {
  const record = emptyRecord(input.id, input.email, input.gender);
  await insertMemberRow(tx, {
    id: input.id,
    email: input.email,
    gender: input.gender,
    role: 'member',
    onboarding: record,
    // Its stage with it (migration 0045), at the row's first version.
    ...stageColumns(record, 0),
    ...(input.now ? { createdAt: input.now, updatedAt: input.now } : {}),
  });
}

/** Records already read, by row object: a cached row (decision 090) is parsed once. */
const parsedRecords = new WeakMap<object, OnboardingRecord>();

/** Reads a stored record through its schema: a corrupt row is an error, never silently trusted. */
export function recordOf(row: Readonly<MemberRow>): OnboardingRecord {
  if (!Object.isFrozen(row)) return v.parse(onboardingRecordSchema, row.onboarding);
  let record = parsedRecords.get(row);
  if (!record) {
    // Frozen like the row it comes from: callers share it.
    record = Object.freeze(v.parse(onboardingRecordSchema, row.onboarding));
    parsedRecords.set(row, record);
  }
  return record;
}

/** The spec's user settings (§3, §7), plus the role the SPA needs for its guards. */
export interface SettingsView {
  id: string;
  email: string;
  role: 'homme' | 'femme' | 'staff';
  /** A staff account's role (decision 206): what the dashboard shows them; the server decides. */
  staffRole?: StaffRole;
  selectedPlanId: string | null;
  meeting: boolean;
  subscription: {
    renouncedWithdrawalRight: boolean | null;
    applicationFeesPaid: boolean;
    subscriptionFeesPaid: boolean;
    formPersonnalInfoCompleted: boolean;
    subscriptionDate: string | null;
    subscriptionContractFormCompleted: boolean;
    onboardingMeetingDateSelected: boolean;
    onboardingMeetingDone: boolean;
    onboardingMeetingDate: string | null;
  };
}

export function settingsView(row: MemberRow): SettingsView {
  const role = row.role === 'staff' ? 'staff' : (row.gender as Gender);
  if (row.role === 'staff') {
    return {
      id: row.id,
      email: row.email,
      role,
      staffRole: staffRoleOf(row.staffRole),
      selectedPlanId: null,
      meeting: false,
      subscription: {
        renouncedWithdrawalRight: null,
        applicationFeesPaid: false,
        subscriptionFeesPaid: false,
        formPersonnalInfoCompleted: false,
        subscriptionDate: null,
        subscriptionContractFormCompleted: false,
        onboardingMeetingDateSelected: false,
        onboardingMeetingDone: false,
        onboardingMeetingDate: null,
      },
    };
  }
  const record = recordOf(row);
  return {
    id: row.id,
    email: row.email,
    role,
    selectedPlanId: record.selectedPlanId,
    meeting: record.matchmakingMeetingDone,
    subscription: {
      renouncedWithdrawalRight: record.renouncedWithdrawalRight,
      applicationFeesPaid: record.applicationFeesPaid,
      subscriptionFeesPaid: record.subscriptionFeesPaid,
      formPersonnalInfoCompleted: record.formPersonnalInfoCompleted,
      subscriptionDate: record.subscriptionDate,
      subscriptionContractFormCompleted: record.subscriptionContractFormCompleted,
      onboardingMeetingDateSelected: record.onboardingMeetingDateSelected,
      onboardingMeetingDone: record.onboardingMeetingDone,
      onboardingMeetingDate: record.onboardingMeetingDate,
    },
  };
}

export async function memberSettings(db: Db, id: string, _now: Date): Promise<{ disabled: boolean; view: SettingsView } | null> {
  const row = await memberById(db, id);
  if (!row) return null;
  return { disabled: row.disabled, view: settingsView(row) };
}
