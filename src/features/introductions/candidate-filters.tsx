import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { NO_COUNSELLOR } from '#machines/follow-up/follow-up.ts';
import { homeRegions } from '#machines/matching/regions.ts';
import {
  beardLabels,
  educationLevelLabels,
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  hijabLabels,
  languageLabels,
  madhhabLabels,
  maritalStatusLabels,
  prayerPracticeLabels,
  regionLabels,
} from '#machines/onboarding/labels.ts';
import { Button } from '#src/components/ui/button.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { tagsQuery } from '#src/features/dashboard/member-list-filters.tsx';
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
/** Decision 212: the level of education; for women sought the hijab, for men sought the beard (sensitive, under the consent). */
const educationOptions: SelectOption[] = [
  any('Tous les niveaux'),
  ...Object.entries(educationLevelLabels).map(([value, label]) => ({ value, label })),
];
const hijabOptions: SelectOption[] = [
  any('Voile : peu importe'),
  ...Object.entries(hijabLabels).map(([value, label]) => ({ value, label })),
];
const beardOptions: SelectOption[] = [
  any('Barbe : peu importe'),
  ...Object.entries(beardLabels).map(([value, label]) => ({ value, label })),
];
const childrenOptions: SelectOption[] = [
  any('Avec ou sans enfants'),
  { value: 'sans', label: 'Sans enfant' },
  { value: 'avec', label: 'Avec enfants' },
];

/**
 * Staff's filters on the candidates (issue 62 point 7, decision 201): age, region, practice,
 * family situation, children, counsellor, (decision 208) language and school of thought, and
 * (decision 212) level of education, height, and the hijab of women or the beard of men sought.
 * They only narrow the list the rules allow; the server checks each value again. « Appliquer »
 * sends the typed ones (ages and heights); the lists apply at once.
 */
export function CandidateFilters({
  value,
  onChange,
  staff,
  sought,
}: {
  value: CandidateFilterValues;
  /** The sex of the candidates (the member's other): the hijab is asked of women, the beard of men. */
  sought?: 'femme' | 'homme' | null;
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
    etudes: useId(),
    tailleMin: useId(),
    tailleMax: useId(),
    voile: useId(),
    barbe: useId(),
  };
  const [ages, setAges] = useState({ ageMin: value.ageMin, ageMax: value.ageMax, tailleMin: value.tailleMin, tailleMax: value.tailleMax });
  // The staff accounts come with the page when it has them; asked here otherwise.
  const asked = useQuery({ ...tagsQuery, enabled: !staff }).data?.staff;
  const loadedStaff = staff ?? asked ?? null;
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
        id={ids.etudes}
        label="Niveau d’études"
        value={value.etudes}
        options={educationOptions}
        onChange={(etudes) => set({ ...ages, etudes })}
      />
      <label className={styles.control} htmlFor={ids.tailleMin}>
        Taille minimale (cm)
        <input
          id={ids.tailleMin}
          name="tailleMin"
          type="number"
          inputMode="numeric"
          min={HEIGHT_MIN_CM}
          max={HEIGHT_MAX_CM}
          value={ages.tailleMin}
          onChange={(e) => setAges({ ...ages, tailleMin: e.currentTarget.value })}
        />
      </label>
      <label className={styles.control} htmlFor={ids.tailleMax}>
        Taille maximale (cm)
        <input
          id={ids.tailleMax}
          name="tailleMax"
          type="number"
          inputMode="numeric"
          min={HEIGHT_MIN_CM}
          max={HEIGHT_MAX_CM}
          value={ages.tailleMax}
          onChange={(e) => setAges({ ...ages, tailleMax: e.currentTarget.value })}
        />
      </label>
      {sought === 'femme' ? (
        <SelectField
          id={ids.voile}
          label="Port du voile"
          value={value.voile}
          options={hijabOptions}
          onChange={(voile) => set({ ...ages, voile })}
        />
      ) : null}
      {sought === 'homme' ? (
        <SelectField
          id={ids.barbe}
          label="Port de la barbe"
          value={value.barbe}
          options={beardOptions}
          onChange={(barbe) => set({ ...ages, barbe })}
        />
      ) : null}
      <SelectField
        id={ids.counsellor}
        label="Conseiller du candidat"
        value={value.counsellor}
        options={counsellorOptions}
        onChange={(counsellor) => set({ ...ages, counsellor })}
      />
      <div className={styles.actions}>
        <Button type="submit" variant="secondary">
          Appliquer âges et tailles
        </Button>
        {changed ? (
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setAges({ ageMin: '', ageMax: '', tailleMin: '', tailleMax: '' });
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
