import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { civilDayText } from '#machines/onboarding/deadline-texts.ts';
import { formatEuros } from '#machines/onboarding/plans.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { type CouponRow, createCoupon, listCoupons, setCouponActive } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { notify } from '#src/lib/notifications.ts';
import { staffKeys } from '#src/features/dashboard/staff-queries.ts';
import { errorMessage, unwrap } from '#src/lib/query-client.ts';

/** What a code takes off the file fee, in words. */
function discountText(coupon: Pick<CouponRow, 'discount'>): string {
  return coupon.discount.kind === 'waiver' ? 'frais de dossier offerts' : `${formatEuros(coupon.discount.amountCents)} de remise`;
}

/**
 * Codes members type on the payment step (decision 195): staff create them with a discount, a
 * validity window (Paris days, both included) and a use limit, and switch them off.
 */
export function CouponsCard() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: staffKeys.coupons, queryFn: async () => (await unwrap(listCoupons())).coupons });
  const rows: CouponRow[] | null = query.data ?? null;
  const [failure, setError] = useState<string | null>(null);
  const error = failure ?? (rows ? null : errorMessage(query.error));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [form, setForm] = useState({
    code: '',
    kind: 'waiver' as 'waiver' | 'amount',
    euros: '',
    validFrom: '',
    validUntil: '',
    maxUses: '1',
  });

  // A code created or switched: the list is asked again.
  const load = () => client.invalidateQueries({ queryKey: staffKeys.coupons });

  const set = (key: keyof typeof form) => (event: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: event.target.value });

  return (
    <section className={styles.card} aria-labelledby="coupons-title">
      <h2 id="coupons-title" className={styles.cardTitle}>
        Codes avantage
      </h2>
      <p className={styles.muted}>
        Un membre saisit le code à l’étape du paiement ; sans code, aucune remise. Le code est vérifié par le serveur au moment où il est
        appliqué (dates de validité, nombre d’utilisations).
      </p>
      <form
        className={styles.form}
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          setSaving(true);
          const cents = Math.round(Number(form.euros.replace(',', '.')) * 100);
          const result = await createCoupon({
            code: form.code,
            discount: form.kind === 'waiver' ? { kind: 'waiver' } : { kind: 'amount', amountCents: Number.isFinite(cents) ? cents : 0 },
            validFrom: form.validFrom,
            validUntil: form.validUntil,
            maxUses: Number(form.maxUses),
          });
          setSaving(false);
          if (!result.ok) {
            setError(result.error.message);
            const issues = (result.error as { issues?: { path: string; message: string }[] }).issues ?? [];
            setFieldErrors(Object.fromEntries(issues.map((issue) => [issue.path.split('.')[0] ?? '', issue.message])));
            return;
          }
          setError(null);
          setFieldErrors({});
          setForm({ ...form, code: '', euros: '' });
          notify({ title: `Code ${result.data.coupon.code} créé.`, variant: 'success' });
          await load();
        }}
      >
        <TextField label="Code" name="code" value={form.code} onChange={set('code')} autoComplete="off" error={fieldErrors.code} required />
        <fieldset className={styles.radios}>
          <legend>Remise</legend>
          <label>
            <input type="radio" name="kind" checked={form.kind === 'waiver'} onChange={() => setForm({ ...form, kind: 'waiver' })} /> Frais
            de dossier offerts
          </label>
          <label>
            <input type="radio" name="kind" checked={form.kind === 'amount'} onChange={() => setForm({ ...form, kind: 'amount' })} /> Un
            montant retiré des frais de dossier
          </label>
        </fieldset>
        {form.kind === 'amount' ? (
          <TextField
            label="Montant de la remise (€)"
            name="euros"
            inputMode="decimal"
            value={form.euros}
            onChange={set('euros')}
            error={fieldErrors.discount}
          />
        ) : null}
        <TextField
          label="Valable à partir du"
          name="validFrom"
          type="date"
          value={form.validFrom}
          onChange={set('validFrom')}
          error={fieldErrors.validFrom}
          required
        />
        <TextField
          label="Valable jusqu’au (inclus)"
          name="validUntil"
          type="date"
          value={form.validUntil}
          onChange={set('validUntil')}
          error={fieldErrors.validUntil}
          required
        />
        <TextField
          label="Nombre d’utilisations au plus"
          name="maxUses"
          type="number"
          min={1}
          value={form.maxUses}
          onChange={set('maxUses')}
          error={fieldErrors.maxUses}
          required
        />
        <FormAlert tone="error">{error}</FormAlert>
        <div>
          <Button type="submit" loading={saving} loadingText="Création…">
            Créer le code
          </Button>
        </div>
      </form>
      {rows && rows.length > 0 ? (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Code</th>
                <th scope="col">Remise</th>
                <th scope="col">Validité</th>
                <th scope="col">Utilisations</th>
                <th scope="col">État</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>{row.code}</td>
                  <td>{discountText(row)}</td>
                  <td>
                    du {civilDayText(row.validFrom)} au {civilDayText(row.validUntil)}
                  </td>
                  <td>
                    {row.uses} sur {row.maxUses}
                  </td>
                  <td>
                    {row.active ? 'actif' : 'désactivé'}{' '}
                    <Button
                      variant="secondary"
                      onClick={async () => {
                        const result = await setCouponActive(row.id, !row.active);
                        if (result.ok) await load();
                        else setError(result.error.message);
                      }}
                    >
                      {row.active ? 'Désactiver' : 'Réactiver'}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className={styles.muted}>Aucun code pour le moment.</p>
      )}
    </section>
  );
}
