import { useEffect, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { getPlanSetting, type PlanSetting, putPlanSetting } from '#src/features/dashboard/dashboard-api.ts';
import { formatAmount as formatEuros } from '#src/features/dashboard/format-fr.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { notify } from '#src/lib/notifications.ts';

const choices = [
  { value: 'cashback', label: 'Paiement comptant avec 10 % de remise' },
  { value: 'cash', label: 'Paiement comptant sans remise' },
] as const;

/** Which pay-in-full plan each pack offers on `formules` (decisions §5). */
export function PlanSettingCard() {
  const [setting, setSetting] = useState<PlanSetting | null>(null);
  const [choice, setChoice] = useState<'cash' | 'cashback'>('cashback');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void getPlanSetting().then((result) => {
      if (!live) return;
      if (result.ok) {
        setSetting(result.data);
        setChoice(result.data.payInFull);
      } else setError(result.error.message);
    });
    return () => {
      live = false;
    };
  }, []);

  return (
    <section className={styles.card} aria-labelledby="plans-title">
      <h2 id="plans-title" className={styles.cardTitle}>
        Formules proposées
      </h2>
      <form
        className={styles.form}
        onSubmit={async (event) => {
          event.preventDefault();
          setSaving(true);
          const result = await putPlanSetting(choice);
          setSaving(false);
          if (!result.ok) {
            setError(result.error.message);
            return;
          }
          setError(null);
          setSetting(result.data);
          notify({ title: 'Réglage des formules enregistré.', variant: 'success' });
        }}
      >
        <fieldset className={styles.radios}>
          <legend>Paiement en une fois proposé pour chaque pack</legend>
          {choices.map((c) => (
            <label key={c.value}>
              <input type="radio" name="payInFull" value={c.value} checked={choice === c.value} onChange={() => setChoice(c.value)} />{' '}
              {c.label}
            </label>
          ))}
        </fieldset>
        <FormAlert tone="error">{error}</FormAlert>
        <div>
          <Button type="submit" loading={saving} loadingText="Enregistrement…" disabled={setting?.payInFull === choice}>
            Enregistrer
          </Button>
        </div>
      </form>
      {setting ? (
        <p className={styles.muted}>
          Actuellement proposées :{' '}
          {setting.plans
            .map((p) => `${p.title} ${p.type === 'monthly' ? 'mensuel' : 'comptant'} (${formatEuros(p.totalCents)})`)
            .join(', ')}
          .
        </p>
      ) : null}
    </section>
  );
}
