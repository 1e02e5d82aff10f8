import * as Dialog from '@radix-ui/react-dialog';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { type ChartNode, chartOutline, rootTransitions } from '#src/features/dashboard/chart-outline.ts';
import { getMember, type MemberDetail, runStaffAction, type StaffAction } from '#src/features/dashboard/dashboard-api.ts';
import { formatDate, formatEuros } from '#src/features/dashboard/dashboard-search.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { notify } from '#src/lib/notifications.ts';

const route = getRouteApi('/dashboard/_staff/member/$memberId');

/** How long the copy button says "Copié" (spec §9). */
export const COPIED_RESET_MS = 1500;

const contextLabels: Record<string, string> = {
  profil: 'Informations personnelles enregistrées',
  questionnaire: 'Questionnaire enregistré',
  form_per_inf: 'Informations personnelles confirmées',
  sel_plan: 'Formule choisie',
  sel_plan_res: 'Changement de formule',
  coupon: 'Code avantage appliqué',
  app: 'Frais de dossier payés',
  pre_contract_ok: 'Informations précontractuelles lues',
  onb_meet: 'Créneau d’entretien choisi',
  onb_meet_resa: 'Rendez-vous confirmé',
  onb_meet_cancel: 'Rendez-vous annulé',
  onb_meet_ok: 'Entretien personnalisé (équipe)',
  contractForm: 'Formulaire du contrat rempli',
  sub_date: 'Contrat signé',
  sub: 'Abonnement payé',
  meeting_mm: 'Entretien de matchmaking effectué',
  lmnop: 'Inscription réinitialisée',
  ban: 'Compte désactivé / réactivé',
};

const fieldLabels: Record<string, string> = {
  firstName: 'Prénom',
  lastName: 'Nom',
  birthDate: 'Date de naissance',
  phone: 'Téléphone',
  postcode: 'Code postal',
  city: 'Ville',
  maritalStatus: 'Situation familiale',
  childrenCount: 'Enfants',
  profession: 'Profession',
  prayerPractice: 'Pratique',
  practiceDetails: 'Précisions sur la pratique',
  sensitiveDataConsent: 'Consentement (données sensibles)',
  soughtPractice: 'Pratique recherchée',
  soughtAgeMin: 'Âge minimum',
  soughtAgeMax: 'Âge maximum',
  soughtRegions: 'Régions',
  soughtFamilySituations: 'Situations familiales',
  acceptsChildren: 'Accepte des enfants',
  soughtProfessionalSituation: 'Situation professionnelle',
  otherQualities: 'Autres qualités',
  fullName: 'Nom complet',
  address: 'Adresse',
  signature: 'Signature',
  termsAccepted: 'Conditions acceptées',
  contractForm: 'Formulaire complété',
};

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non';
  if (Array.isArray(value)) return value.map(show).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function Fields({ data, empty }: { data: Record<string, unknown> | null; empty: string }) {
  if (!data) return <p className={styles.muted}>{empty}</p>;
  return (
    <dl className={styles.definitions}>
      {Object.entries(data).map(([key, value]) => (
        <div key={key} className={styles.contents}>
          <dt>{fieldLabels[key] ?? key}</dt>
          <dd>{show(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** `/dashboard/member/{memberId}`: everything about one member, their chart, and the staff actions. */
export function DashboardMemberPage() {
  const { memberId } = route.useParams();
  const [detail, setDetail] = useState<MemberDetail | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    const result = await getMember(memberId);
    if (result.ok) {
      setDetail(result.data);
      setError(null);
    } else setError(result.error.message);
  }, [memberId]);

  useEffect(() => {
    void load();
  }, [load]);

  if (!detail) {
    return (
      <div className={styles.page}>
        <h1 className={styles.title}>Fiche membre</h1>
        <FormAlert tone="error">{error}</FormAlert>
        {error ? null : <p className={styles.muted}>Chargement…</p>}
      </div>
    );
  }

  const { member } = detail;
  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <h1 className={styles.title}>{member.name ?? member.email}</h1>
        {member.disabled ? <span className={styles.badge.danger}>Compte désactivé</span> : null}
      </div>
      <div className={styles.idLine}>
        <span className={styles.muted}>Identifiant :</span>
        <code className={styles.code}>{member.id}</code>
        <CopyButton value={member.id} />
        <Link to="/dashboard/message-direct" search={{ memberId: member.id }}>
          Écrire un message
        </Link>
      </div>
      <FormAlert tone="error">{error}</FormAlert>

      <div className={styles.grid}>
        <section className={styles.card} aria-labelledby="state-title">
          <h2 id="state-title" className={styles.cardTitle}>
            Parcours
          </h2>
          <p>
            État actuel : <strong data-state={member.state}>{labelOf(member.state)}</strong>
          </p>
          <ChartView current={member.state} />
        </section>
        <div className={styles.page}>
          <section className={styles.card} aria-labelledby="actions-title">
            <h2 id="actions-title" className={styles.cardTitle}>
              Actions de l’équipe
            </h2>
            <StaffActions actions={detail.actions} onDone={load} />
          </section>
          <section className={styles.card} aria-labelledby="identity-title">
            <h2 id="identity-title" className={styles.cardTitle}>
              Compte
            </h2>
            <dl className={styles.definitions}>
              <dt>E-mail</dt>
              <dd>{member.email}</dd>
              <dt>Genre</dt>
              <dd>{member.gender === 'femme' ? 'Femme' : 'Homme'}</dd>
              <dt>Inscription</dt>
              <dd>{formatDate(member.createdAt)}</dd>
              <dt>Dernière activité</dt>
              <dd>{formatDate(member.updatedAt)}</dd>
              <dt>Formule</dt>
              <dd>{detail.record.selectedPlanId ?? '—'}</dd>
              <dt>Renonciation au délai</dt>
              <dd>{show(detail.record.renouncedWithdrawalRight)}</dd>
            </dl>
          </section>
        </div>
      </div>

      <div className={styles.grid}>
        <section className={styles.card} aria-labelledby="profile-title">
          <h2 id="profile-title" className={styles.cardTitle}>
            Profil
          </h2>
          <Fields data={detail.profile} empty="Profil non renseigné." />
        </section>
        <section className={styles.card} aria-labelledby="questionnaire-title">
          <h2 id="questionnaire-title" className={styles.cardTitle}>
            Questionnaire
          </h2>
          <Fields data={detail.questionnaire} empty="Questionnaire non renseigné." />
        </section>
        <section className={styles.card} aria-labelledby="payments-title">
          <h2 id="payments-title" className={styles.cardTitle}>
            Paiements
          </h2>
          {detail.payments.length === 0 ? (
            <p className={styles.muted}>Aucun paiement.</p>
          ) : (
            <div className={styles.tableWrap}>
              <table className={styles.table}>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Offre</th>
                    <th scope="col">Montant</th>
                    <th scope="col">État</th>
                  </tr>
                </thead>
                <tbody>
                  {detail.payments.map((p) => (
                    <tr key={p.id}>
                      <td>{formatDate(p.createdAt)}</td>
                      <td>{p.offerId ?? '—'}</td>
                      <td>{formatEuros(p.amountCents)}</td>
                      <td>{p.paymentStatus === 'paid' || p.paymentStatus === 'no_payment_required' ? 'Payé' : p.paymentStatus}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <section className={styles.card} aria-labelledby="meetings-title">
          <h2 id="meetings-title" className={styles.cardTitle}>
            Rendez-vous
          </h2>
          {detail.meetings.length === 0 ? (
            <p className={styles.muted}>
              {detail.record.onboardingMeetingDate
                ? `Entretien prévu le ${formatDate(detail.record.onboardingMeetingDate)}.`
                : 'Aucun rendez-vous.'}
            </p>
          ) : (
            <ul className={styles.messages}>
              {detail.meetings.map((b) => (
                <li key={b.id}>
                  {formatDate(b.startTime)} — {b.status === 'active' ? 'confirmé' : 'annulé'}
                  {b.rescheduled ? ' (reporté)' : ''}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className={styles.card} aria-labelledby="contract-title">
          <h2 id="contract-title" className={styles.cardTitle}>
            Contrat
          </h2>
          <Fields data={detail.contract} empty="Contrat non rempli." />
          {detail.record.subscriptionDate ? (
            <a href={`/api/v1/dashboard/members/${member.id}/contract.pdf`} target="_blank" rel="noreferrer">
              Contrat signé (PDF)
            </a>
          ) : null}
          <p className={styles.muted}>
            Signature : {detail.record.subscriptionDate ? formatDate(detail.record.subscriptionDate) : 'non signé'} · Abonnement :{' '}
            {detail.record.subscriptionFeesPaid ? 'payé' : 'non payé'}
          </p>
        </section>
        <section className={styles.card} aria-labelledby="log-title">
          <h2 id="log-title" className={styles.cardTitle}>
            Historique
          </h2>
          {detail.events.length === 0 ? (
            <p className={styles.muted}>Aucun événement.</p>
          ) : (
            <ol className={styles.timeline} aria-label="Historique des événements">
              {[...detail.events].reverse().map((e) => (
                <li key={e.id} className={styles.timelineItem}>
                  <time dateTime={e.at}>{formatDate(e.at)}</time> — <strong>{contextLabels[e.context] ?? e.context}</strong>
                  <br />
                  <span className={styles.muted}>
                    par {e.actorEmail ?? (e.actorRole === 'system' ? 'le système' : e.actorRole)} (
                    {e.actorRole === 'staff' ? 'équipe' : e.actorRole === 'member' ? 'membre' : 'système'}) · {e.fromState} → {e.toState}
                  </span>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </div>
  );
}

function findNode(nodes: readonly ChartNode[], key: string): ChartNode | undefined {
  for (const node of nodes) {
    if (node.key === key) return node;
    const inner = findNode(node.children, key);
    if (inner) return inner;
  }
  return undefined;
}

function labelOf(state: string): string {
  const node = findNode(chartOutline, state);
  const top = findNode(chartOutline, state.split('.')[0] ?? state);
  if (node && top && node !== top) return `${top.label} — ${node.label}`;
  return node?.label ?? state;
}

function transitionsText(node: ChartNode): string {
  return node.transitions
    .map((t) => `${t.event}${t.targets.length > 0 ? ` → ${t.targets.map((k) => findNode(chartOutline, k)?.label ?? k).join(', ')}` : ''}`)
    .join(' · ');
}

/** The chart drawn from its definition: every state in order, the member's one highlighted. */
function ChartView({ current }: { current: string }) {
  const top = current.split('.')[0];
  return (
    <>
      <ol className={styles.chart} aria-label="Étapes du parcours (statechart)">
        {chartOutline.map((node) => (
          <li key={node.key} className={styles.chartState} aria-current={node.key === top ? 'step' : undefined} data-state={node.key}>
            {node.label}
            {transitionsText(node) ? <span className={styles.chartEvents}>{transitionsText(node)}</span> : null}
            {node.children.length > 0 ? (
              <ol className={styles.chart}>
                {node.children.map((child) => (
                  <li
                    key={child.key}
                    className={styles.chartState}
                    aria-current={child.key === current ? 'true' : undefined}
                    data-state={child.key}
                  >
                    {child.label}
                    {transitionsText(child) ? <span className={styles.chartEvents}>{transitionsText(child)}</span> : null}
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ol>
      <p className={styles.muted}>
        Depuis toute étape :{' '}
        {rootTransitions.map((t) => `${t.event} → ${t.targets.map((k) => findNode(chartOutline, k)?.label ?? k).join(', ')}`).join(' · ')}
      </p>
    </>
  );
}

/** The staff transitions the chart allows now, each confirmed in a dialog. */
function StaffActions({ actions, onDone }: { actions: readonly StaffAction[]; onDone: () => Promise<void> }) {
  const [pending, setPending] = useState<StaffAction | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const allowed = actions.filter((a) => a.allowed);

  const confirm = async () => {
    if (!pending) return;
    setRunning(true);
    const result = await runStaffAction(pending);
    setRunning(false);
    if (!result.ok) {
      setError(result.error.message);
      await onDone();
      return;
    }
    notify({ title: `${pending.label} : c’est fait.`, variant: 'success' });
    setPending(null);
    await onDone();
  };

  return (
    <>
      {allowed.length === 0 ? <p className={styles.muted}>Aucune action possible à cette étape.</p> : null}
      <div className={styles.actions}>
        {allowed.map((action) => (
          <Button
            key={action.id}
            variant={action.danger ? 'secondary' : 'primary'}
            className={action.danger ? styles.dangerButton : undefined}
            onClick={() => {
              setError(null);
              setPending(action);
            }}
          >
            {action.label}
          </Button>
        ))}
      </div>
      <Dialog.Root open={pending !== null} onOpenChange={(open) => (open ? null : setPending(null))}>
        <Dialog.Portal>
          <Dialog.Overlay className={styles.overlay} />
          <Dialog.Content className={styles.dialog}>
            <Dialog.Title className={styles.dialogTitle}>{pending?.label}</Dialog.Title>
            <Dialog.Description>{pending?.confirm} Confirmez-vous ?</Dialog.Description>
            <FormAlert tone="error">{error}</FormAlert>
            <div className={styles.actions}>
              <Button onClick={confirm} loading={running} loadingText="En cours…">
                Confirmer
              </Button>
              <Dialog.Close asChild>
                <Button variant="ghost">Annuler</Button>
              </Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}

/** Copies the value; its "Copié" flag resets after 1500 ms. */
function CopyButton({ value }: { value: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return (
    <Button
      variant="ghost"
      aria-live="polite"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          notify({ title: 'Copie impossible : sélectionnez l’identifiant à la main.', variant: 'warning' });
          return;
        }
        setCopied(true);
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), COPIED_RESET_MS);
      }}
    >
      {copied ? 'Copié !' : 'Copier l’identifiant'}
    </Button>
  );
}
