import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { getPlanSetting, putPlanSetting } from '#src/features/dashboard/dashboard-api.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';
import { formatAmount as formatEuros } from '#src/features/dashboard/format-fr.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { notify } from '#src/lib/notifications.ts';

const choices = [
  { value: 'cashback', label: 'Paiement comptant avec 10 % de remise' },
  { value: 'cash', label: 'Paiement comptant sans remise' },
] as const;

/** Which pay-in-full plan each pack offers on `formules` (decisions §5). */
export function PlanSettingCard() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: staffKeys.planSetting, queryFn: () => unwrap(getPlanSetting()) });
  const setting = query.data ?? null;
  // The choice follows the stored setting until staff pick another one.
  const [picked, setChoice] = useState<'cash' | 'cashback' | null>(null);
  const choice = picked ?? setting?.payInFull ?? 'cashback';
  const saving = useMutation({
    mutationFn: (payInFull: 'cash' | 'cashback') => unwrap(putPlanSetting(payInFull)),
    // The server answers with the stored setting.
    onSuccess: (saved) => client.setQueryData(staffKeys.planSetting, saved),
  });
  const [failure, setError] = useState<string | null>(null);
  const error = failure ?? (setting ? null : errorMessage(query.error));

  return (
    <section className={styles.card} aria-labelledby="plans-title">
      <h2 id="plans-title" className={styles.cardTitle}>
        Formules proposées
      </h2>
      <form
        className={styles.form}
        onSubmit={async (event) => {
          event.preventDefault();
          const failed = await saving.mutateAsync(choice).then(
            () => null,
            (e: unknown) => errorMessage(e),
          );
          if (failed) {
            setError(failed);
            return;
          }
          setError(null);
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
          <Button type="submit" loading={saving.isPending} loadingText="Enregistrement…" disabled={setting?.payInFull === choice}>
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
