import { useId } from 'react';
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
  professionalSituationLabels,
  regionLabels,
  soughtPracticeLabels,
  wantsChildrenLabels,
} from '#machines/onboarding/labels.ts';
import type { RequirableCriterion } from '#machines/onboarding/forms.ts';
import * as checkboxStyles from '#src/components/ui/checkbox-field.css.ts';
import { CheckboxGroup, RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { TextAreaField } from '#src/components/ui/text-area-field.tsx';
import { optionsOf } from '#src/features/onboarding/fields.tsx';
import * as styles from '#src/features/onboarding/onboarding.css.ts';
import { textOf } from '#src/lib/form.ts';

/**
 * The fields of the two answer steps, written once: the wizard's steps (profil-page.tsx,
 * questionnaire-page.tsx) and « Mes informations » in Mon profil (my-answers.tsx) render these, and
 * read a submitted form back with `profileInputOf` / `questionnaireInputOf`. The server's schemas
 * (machines/onboarding/forms.ts) validate what they read.
 */
type Errors = Record<string, string | undefined>;

const YES_NO = [
  { value: 'true', label: 'Oui' },
  { value: 'false', label: 'Non' },
];

function numberOf(data: FormData, name: string): number | undefined {
  const text = textOf(data, name).trim();
  return text === '' ? undefined : Number(text);
}

/** Step 1's answers from a submitted form (the sensitive-data consent is the wizard's own). */
export function profileInputOf(data: FormData) {
  return {
    firstName: textOf(data, 'firstName'),
    lastName: textOf(data, 'lastName'),
    birthDate: textOf(data, 'birthDate'),
    phone: textOf(data, 'phone'),
    postcode: textOf(data, 'postcode'),
    city: textOf(data, 'city'),
    maritalStatus: data.get('maritalStatus') ?? undefined,
    childrenCount: numberOf(data, 'childrenCount'),
    profession: textOf(data, 'profession'),
    prayerPractice: data.get('prayerPractice') ?? undefined,
    practiceDetails: textOf(data, 'practiceDetails'),
    // Decision 208: optional; an unanswered question is not sent.
    languages: data.getAll('languages'),
    educationLevel: data.get('educationLevel') ?? undefined,
    heightCm: numberOf(data, 'heightCm'),
    hijab: data.get('hijab') ?? undefined,
    beard: data.get('beard') ?? undefined,
    madhhab: data.get('madhhab') ?? undefined,
  };
}

/** Step 2's answers (the questionnaire) from a submitted form. */
export function questionnaireInputOf(data: FormData) {
  const accepts = data.get('acceptsChildren');
  const relocate = data.get('readyToRelocate');
  return {
    soughtPractice: data.get('soughtPractice') ?? undefined,
    soughtAgeMin: numberOf(data, 'soughtAgeMin'),
    soughtAgeMax: numberOf(data, 'soughtAgeMax'),
    // Decision 212: optional, either bound alone.
    soughtHeightMin: numberOf(data, 'soughtHeightMin'),
    soughtHeightMax: numberOf(data, 'soughtHeightMax'),
    soughtRegions: data.getAll('soughtRegions'),
    soughtFamilySituations: data.getAll('soughtFamilySituations'),
    acceptsChildren: accepts === null ? undefined : accepts === 'true',
    soughtProfessionalSituation: data.get('soughtProfessionalSituation') ?? undefined,
    wantsChildren: data.get('wantsChildren') ?? undefined,
    readyToRelocate: relocate === null ? undefined : relocate === 'true',
    requiredCriteria: data.getAll('requiredCriteria'),
    otherQualities: textOf(data, 'otherQualities'),
  };
}

/**
 * « Indispensable » under a criterion of the questionnaire (decision 193): ticked, no proposal ever
 * departs from it, either way; left as is, it is a wish that ranks the proposals.
 */
function RequiredToggle({ criterion, label }: { criterion: RequirableCriterion; label: string }) {
  const id = useId();
  return (
    <div className={`${checkboxStyles.checkboxRow} ${styles.requiredToggle}`}>
      <input id={id} type="checkbox" name="requiredCriteria" value={criterion} className={checkboxStyles.checkbox} />
      <label htmlFor={id}>
        <strong>Indispensable</strong> : {label}
      </label>
    </div>
  );
}

/**
 * Step 1's fields: who the member is (the consent checkbox is added by the wizard's step only). The
 * hijab is asked of a woman, the beard of a man (`gender`: the session's; neither when unknown).
 */
export function ProfileFields({ errors, gender }: { errors: Errors; gender?: string | undefined }) {
  return (
    <>
      <div className={styles.twoColumns}>
        <TextField name="firstName" label="Prénom" autoComplete="given-name" required error={errors.firstName} />
        <TextField name="lastName" label="Nom" autoComplete="family-name" required error={errors.lastName} />
      </div>
      <TextField
        name="birthDate"
        type="date"
        label="Date de naissance"
        autoComplete="bday"
        required
        error={errors.birthDate}
        hint="Vous devez être majeur(e)."
      />
      <TextField
        name="phone"
        type="tel"
        label="Téléphone"
        autoComplete="tel"
        inputMode="tel"
        required
        error={errors.phone}
        hint="Par exemple 06 12 34 56 78."
      />
      <div className={styles.twoColumns}>
        <TextField name="postcode" label="Code postal" autoComplete="postal-code" inputMode="numeric" required error={errors.postcode} />
        <TextField name="city" label="Ville" autoComplete="address-level2" required error={errors.city} />
      </div>
      <RadioGroup
        name="maritalStatus"
        legend="Situation familiale"
        options={optionsOf(maritalStatusLabels)}
        required
        error={errors.maritalStatus}
      />
      <TextField
        name="childrenCount"
        type="number"
        min={0}
        max={20}
        label="Nombre d’enfants"
        inputMode="numeric"
        defaultValue="0"
        required
        error={errors.childrenCount}
      />
      <TextField name="profession" label="Profession" autoComplete="organization-title" required error={errors.profession} />
      <RadioGroup
        name="educationLevel"
        legend="Niveau d’études (facultatif)"
        options={optionsOf(educationLevelLabels)}
        error={errors.educationLevel}
      />
      <CheckboxGroup
        name="languages"
        legend="Langues parlées (facultatif)"
        options={optionsOf(languageLabels)}
        hint="Cochez toutes celles que vous parlez."
        error={errors.languages}
      />
      <TextField
        name="heightCm"
        type="number"
        min={HEIGHT_MIN_CM}
        max={HEIGHT_MAX_CM}
        inputMode="numeric"
        label="Taille en centimètres (facultatif)"
        hint="Par exemple 172."
        error={errors.heightCm}
      />
      <RadioGroup
        name="prayerPractice"
        legend="Votre pratique de la prière"
        options={optionsOf(prayerPracticeLabels)}
        required
        error={errors.prayerPractice}
      />
      <TextAreaField
        name="practiceDetails"
        label="Précisions sur votre pratique (facultatif)"
        maxLength={1000}
        rows={4}
        error={errors.practiceDetails}
      />
      {gender === 'femme' && (
        <RadioGroup name="hijab" legend="Portez-vous le voile ? (facultatif)" options={optionsOf(hijabLabels)} error={errors.hijab} />
      )}
      {gender === 'homme' && (
        <RadioGroup name="beard" legend="Portez-vous la barbe ? (facultatif)" options={optionsOf(beardLabels)} error={errors.beard} />
      )}
      <RadioGroup
        name="madhhab"
        legend="École juridique suivie (madhhab, facultatif)"
        options={optionsOf(madhhabLabels)}
        hint="Comme votre pratique, ces réponses sont des données sensibles : elles ne sont traitées qu’avec votre consentement explicite."
        error={errors.madhhab}
      />
    </>
  );
}

/** Step 2's fields: the person sought (the contract's annex), each criterion indispensable or only wished. */
export function QuestionnaireFields({ errors }: { errors: Errors }) {
  return (
    <>
      <p className={styles.hint}>
        Sous chaque critère, cochez « Indispensable » si vous ne voulez aucune proposition qui s’en écarte. Sinon, c’est un souhait : les
        personnes qui y répondent vous sont proposées en premier.
      </p>
      <div className={styles.criterionBlock}>
        <RadioGroup
          name="soughtPractice"
          legend="Pratique de la prière recherchée"
          options={optionsOf(soughtPracticeLabels)}
          required
          error={errors.soughtPractice}
        />
        <RequiredToggle criterion="pratique" label="aucune proposition d’une pratique moins régulière" />
      </div>
      <div className={styles.criterionBlock}>
        <div className={styles.twoColumns}>
          <TextField
            name="soughtAgeMin"
            type="number"
            min={18}
            max={99}
            inputMode="numeric"
            label="Âge minimum"
            required
            error={errors.soughtAgeMin}
          />
          <TextField
            name="soughtAgeMax"
            type="number"
            min={18}
            max={99}
            inputMode="numeric"
            label="Âge maximum"
            required
            error={errors.soughtAgeMax}
          />
        </div>
        <RequiredToggle criterion="age" label="aucune proposition hors de cette tranche d’âge" />
      </div>
      <div className={styles.criterionBlock}>
        <div className={styles.twoColumns}>
          <TextField
            name="soughtHeightMin"
            type="number"
            min={HEIGHT_MIN_CM}
            max={HEIGHT_MAX_CM}
            inputMode="numeric"
            label="Taille souhaitée, au moins (cm, facultatif)"
            error={errors.soughtHeightMin}
          />
          <TextField
            name="soughtHeightMax"
            type="number"
            min={HEIGHT_MIN_CM}
            max={HEIGHT_MAX_CM}
            inputMode="numeric"
            label="Taille souhaitée, au plus (cm, facultatif)"
            error={errors.soughtHeightMax}
          />
        </div>
        <p className={styles.hint}>
          Un souhait seulement : les personnes de cette taille vous sont proposées en premier, les autres ne sont pas écartées.
        </p>
      </div>
      <div className={styles.criterionBlock}>
        <CheckboxGroup
          name="soughtRegions"
          legend="Régions recherchées"
          hint="Une ou plusieurs."
          options={optionsOf(regionLabels)}
          error={errors.soughtRegions}
        />
        <RequiredToggle criterion="region" label="aucune proposition hors de ces régions" />
      </div>
      <div className={styles.criterionBlock}>
        <CheckboxGroup
          name="soughtFamilySituations"
          legend="Situations familiales acceptées"
          hint="Une ou plusieurs."
          options={optionsOf(maritalStatusLabels)}
          error={errors.soughtFamilySituations}
        />
        <RequiredToggle criterion="situation-familiale" label="aucune proposition hors de ces situations" />
      </div>
      <div className={styles.criterionBlock}>
        <RadioGroup
          name="acceptsChildren"
          legend="Acceptez-vous une personne ayant des enfants ?"
          options={YES_NO}
          required
          error={errors.acceptsChildren}
        />
        <RequiredToggle criterion="enfants" label="si vous répondez non, aucune proposition d’une personne ayant des enfants" />
      </div>
      <div className={styles.criterionBlock}>
        <RadioGroup
          name="wantsChildren"
          legend="Souhaitez-vous avoir des enfants (ou d’autres enfants) ?"
          options={optionsOf(wantsChildrenLabels)}
          required
          error={errors.wantsChildren}
        />
        <RequiredToggle criterion="desir-enfants" label="seulement une personne qui partage ce souhait" />
      </div>
      <div className={styles.criterionBlock}>
        <RadioGroup
          name="readyToRelocate"
          legend="Seriez-vous prêt(e) à déménager pour fonder votre foyer ?"
          options={YES_NO}
          required
          error={errors.readyToRelocate}
        />
        <RequiredToggle
          criterion="demenagement"
          label="si vous répondez non, seulement une personne de votre région ou prête à déménager"
        />
      </div>
      <RadioGroup
        name="soughtProfessionalSituation"
        legend="Situation professionnelle recherchée"
        options={optionsOf(professionalSituationLabels)}
        required
        error={errors.soughtProfessionalSituation}
      />
      <TextAreaField
        name="otherQualities"
        label="Autres qualités essentielles"
        hint="En quelques phrases : caractère, valeurs, projet de vie…"
        maxLength={1000}
        rows={5}
        required
        error={errors.otherQualities}
      />
    </>
  );
}
