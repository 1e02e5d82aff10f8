import { useEffect, useId, useState } from 'react';
import { NO_COUNSELLOR } from '#machines/follow-up/follow-up.ts';
import { homeRegions } from '#machines/matching/regions.ts';
import { languageLabels, madhhabLabels, maritalStatusLabels, prayerPracticeLabels, regionLabels } from '#machines/onboarding/labels.ts';
import { Button } from '#src/components/ui/button.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { getTags } from '#src/features/dashboard/member-list-filters.tsx';
import { type SelectOption, SelectField, staffOptions } from '#src/features/dashboard/select-field.tsx';
import { type CandidateFilterValues, NO_CANDIDATE_FILTERS } from '#src/features/introductions/introductions-api.ts';

const any = (label: string): SelectOption => ({ value: '', label });

const regionOptions: SelectOption[] = [any('Toutes les régions'), ...homeRegions.map((r) => ({ value: r, label: regionLabels[r] }))];
const practiceOptions: SelectOption[] = [
  any('Toutes les pratiques'),
  ...Object.entries(prayerPracticeLabels).map(([value, label]) => ({ value, label })),
];
/** Family situations as a filter on people of either sex: « Divorcé ou divorcée », never « Divorcé(e) ». */
const maritalOptions: SelectOption[] = [
  any('Toutes les situations'),
  { value: 'celibataire', label: maritalStatusLabels.celibataire },
  { value: 'divorce', label: 'Divorcé ou divorcée' },
  { value: 'veuf', label: 'Veuf ou veuve' },
];
/** Decision 208: a language the candidate speaks, the school of thought they follow. */
const languageOptions: SelectOption[] = [
  any('Toutes les langues'),
  ...Object.entries(languageLabels).map(([value, label]) => ({ value, label })),
];
const madhhabOptions: SelectOption[] = [
  any('Toutes les écoles'),
  ...Object.entries(madhhabLabels).map(([value, label]) => ({ value, label })),
];
const childrenOptions: SelectOption[] = [
  any('Avec ou sans enfants'),
  { value: 'sans', label: 'Sans enfant' },
  { value: 'avec', label: 'Avec enfants' },
];

/**
 * Staff's filters on the candidates (issue 62 point 7, decision 201): age, region, practice,
 * family situation, children, counsellor, and (decision 208) language and school of thought. They only narrow the list the rules allow; the server
 * checks each value again. « Appliquer » sends them (the ages are typed, the rest applies at once).
 */
export function CandidateFilters({
  value,
  onChange,
  staff,
}: {
  value: CandidateFilterValues;
  onChange: (next: CandidateFilterValues) => void;
  /** The staff accounts for the counsellor filter (loaded by the component when not given). */
  staff?: readonly { id: string; name: string; self: boolean }[];
}) {
  const ids = {
    ageMin: useId(),
    ageMax: useId(),
    region: useId(),
    practice: useId(),
    marital: useId(),
    children: useId(),
    counsellor: useId(),
    langue: useId(),
    madhhab: useId(),
  };
  const [ages, setAges] = useState({ ageMin: value.ageMin, ageMax: value.ageMax });
  const [loadedStaff, setLoadedStaff] = useState(staff ?? null);
  useEffect(() => {
    if (staff) return;
    let live = true;
    void getTags().then((result) => {
      if (live && result.ok) setLoadedStaff(result.data.staff);
    });
    return () => {
      live = false;
    };
  }, [staff]);
  const counsellorOptions: SelectOption[] = [
    any('Tous les conseillers'),
    { value: NO_COUNSELLOR, label: 'Sans conseiller' },
    ...staffOptions(loadedStaff ?? []),
  ];
  const set = (patch: Partial<CandidateFilterValues>) => onChange({ ...value, ...patch });
  const changed = Object.entries(value).some(([k, v]) => v !== NO_CANDIDATE_FILTERS[k as keyof CandidateFilterValues]);
  return (
    <form
      className={styles.filters}
      aria-label="Filtrer les candidats"
      data-testid="candidate-filters"
      onSubmit={(event) => {
        event.preventDefault();
        set(ages);
      }}
    >
      <label className={styles.control} htmlFor={ids.ageMin}>
        Âge minimum
        <input
          id={ids.ageMin}
          name="ageMin"
          type="number"
          inputMode="numeric"
          min={18}
          max={120}
          value={ages.ageMin}
          onChange={(e) => setAges({ ...ages, ageMin: e.currentTarget.value })}
        />
      </label>
      <label className={styles.control} htmlFor={ids.ageMax}>
        Âge maximum
        <input
          id={ids.ageMax}
          name="ageMax"
          type="number"
          inputMode="numeric"
          min={18}
          max={120}
          value={ages.ageMax}
          onChange={(e) => setAges({ ...ages, ageMax: e.currentTarget.value })}
        />
      </label>
      <SelectField
        id={ids.region}
        label="Région"
        value={value.region}
        options={regionOptions}
        onChange={(region) => set({ ...ages, region })}
      />
      <SelectField
        id={ids.practice}
        label="Pratique"
        value={value.practice}
        options={practiceOptions}
        onChange={(practice) => set({ ...ages, practice })}
      />
      <SelectField
        id={ids.marital}
        label="Situation familiale"
        value={value.maritalStatus}
        options={maritalOptions}
        onChange={(maritalStatus) => set({ ...ages, maritalStatus })}
      />
      <SelectField
        id={ids.children}
        label="Enfants"
        value={value.enfants}
        options={childrenOptions}
        onChange={(enfants) => set({ ...ages, enfants: enfants as CandidateFilterValues['enfants'] })}
      />
      <SelectField
        id={ids.langue}
        label="Langue parlée"
        value={value.langue}
        options={languageOptions}
        onChange={(langue) => set({ ...ages, langue })}
      />
      <SelectField
        id={ids.madhhab}
        label="École juridique"
        value={value.madhhab}
        options={madhhabOptions}
        onChange={(madhhab) => set({ ...ages, madhhab })}
      />
      <SelectField
        id={ids.counsellor}
        label="Conseiller du candidat"
        value={value.counsellor}
        options={counsellorOptions}
        onChange={(counsellor) => set({ ...ages, counsellor })}
      />
      <div className={styles.actions}>
        <Button type="submit" variant="secondary">
          Appliquer les âges
        </Button>
        {changed ? (
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setAges({ ageMin: '', ageMax: '' });
              onChange(NO_CANDIDATE_FILTERS);
            }}
          >
            Retirer les filtres
          </Button>
        ) : null}
      </div>
    </form>
  );
}
