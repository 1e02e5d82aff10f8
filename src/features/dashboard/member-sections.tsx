import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { genderLabels, stateLabel, withdrawalChoiceLabel } from '#machines/onboarding/labels.ts';
import { eventLabel } from '#machines/onboarding/event-labels.ts';
import { type ChartNode, type ChartTransition, chartOutline, rootTransitions } from '#src/features/dashboard/chart-outline.ts';
import { ContractRightsCard } from '#src/features/dashboard/contract-rights-card.tsx';
import { type MemberDetail, runStaffAction, type StaffAction } from '#src/features/dashboard/dashboard-api.ts';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import * as own from '#src/features/introductions/introductions.css.ts';
import * as file from '#src/features/dashboard/member-file.css.ts';
import {
  bookingText,
  contractRows,
  type FieldRow,
  formatAmount,
  formatDateTime,
  offerName,
  paymentStatusText,
  planName,
  profileRows,
  questionnaireRows,
  timeline,
} from '#src/features/dashboard/member-view.ts';
import { notify } from '#src/lib/notifications.ts';
import { formatPhone } from '#machines/onboarding/phone-format.ts';

// The parts that fetch their own data once shown (decision 134), each in its own chunk.
const ChangeRequestsSection = lazy(() =>
  import('#src/features/dashboard/change-requests-section.tsx').then((m) => ({ default: m.ChangeRequestsSection })),
);
const MemberPhotosSection = lazy(() =>
  import('#src/features/dashboard/member-photos-section.tsx').then((m) => ({ default: m.MemberPhotosSection })),
);
const MemberBilling = lazy(() => import('#src/features/billing/member-billing.tsx').then((m) => ({ default: m.MemberBilling })));

/** How long the copy button says « Copié » (spec §9). */
const COPIED_RESET_MS = 1500;

/*
 * A member's file below its header (decisions 138, 209): the tabs that read the member's file. Its
 * own chunk, fetched beside the file's data: the labels, the chart outline and the phone formatter
 * stay out of the page's first load.
 */
function Rows({ rows, empty }: { rows: FieldRow[] | null; empty: string }) {
  if (!rows) return <p className={styles.muted}>{empty}</p>;
  return (
    <dl className={styles.definitions}>
      {rows.map((row) => (
        <div key={row.label} className={styles.contents}>
          <dt>{row.label}</dt>
          <dd>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Where staff stand on the member's presentation (decision 200), in words. */
const presentationStatusLabel = {
  'en-attente': 'En attente de validation (à examiner depuis le tableau de bord).',
  approuvee: 'Validée : lue par les personnes à qui le membre est proposé.',
  refusee: 'Refusée : le membre a reçu le message de l’équipe.',
} as const;
/**
 * The file's tabs that read the member's file (`GET /dashboard/members/:id`), in French: « Profil »
 * (the staff actions, meetings, account, answers, photos and change requests), « Contrat et
 * paiements » and « Historique » (with the statechart, folded). Every stored code goes through
 * the label table (member-view.ts); member-view.test.tsx renders them.
 */
export function ProfileTab({ detail, now, onReload }: { detail: MemberDetail; now: number; onReload: () => Promise<void> }) {
  const { member } = detail;
  const memberName = member.name ?? member.email;
  return (
    <>
      <div className={styles.grid}>
        <section className={styles.card} aria-labelledby="actions-title">
          <h2 id="actions-title" className={styles.cardTitle}>
            Actions de l’équipe
          </h2>
          <p>
            Étape actuelle : <strong data-state={member.state}>{stateLabel(member.state)}</strong>
          </p>
          <StaffActions actions={detail.actions} onDone={onReload} />
        </section>
        <section className={styles.card} aria-labelledby="meetings-title">
          <h2 id="meetings-title" className={styles.cardTitle}>
            Rendez-vous
          </h2>
          {detail.meetings.length === 0 ? (
            <p className={styles.muted}>
              {detail.record.onboardingMeetingDate
                ? `Entretien prévu le ${formatDateTime(detail.record.onboardingMeetingDate)}.`
                : 'Aucun rendez-vous.'}
            </p>
          ) : (
            <ul className={styles.messages}>
              {detail.meetings.map((b) => (
                <li key={b.id}>{bookingText(b)}</li>
              ))}
            </ul>
          )}
        </section>
        <section className={styles.card} aria-labelledby="identity-title">
          <h2 id="identity-title" className={styles.cardTitle}>
            Compte
          </h2>
          <dl className={styles.definitions}>
            <dt>E-mail</dt>
            <dd>{member.email}</dd>
            <dt>Genre</dt>
            <dd>{genderLabels[member.gender as keyof typeof genderLabels] ?? '—'}</dd>
            <dt>Inscription</dt>
            <dd>{formatDateTime(member.createdAt)}</dd>
            <dt>Dernière activité</dt>
            <dd>{formatDateTime(member.updatedAt)}</dd>
            <dt>Formule</dt>
            <dd>{planName(detail.record.selectedPlanId)}</dd>
            <dt>Commencer avant la fin du délai de rétractation</dt>
            <dd>{withdrawalChoiceLabel(detail.record.renouncedWithdrawalRight)}</dd>
          </dl>
          <div className={styles.idLine}>
            <span className={styles.muted}>Identifiant :</span>
            <code className={styles.code}>{member.id}</code>
            <CopyButton value={member.id} />
          </div>
        </section>
      </div>

      <div className={styles.grid}>
        <section className={styles.card} aria-labelledby="profile-title">
          <h2 id="profile-title" className={styles.cardTitle}>
            Profil
          </h2>
          <Rows rows={profileRows(detail.profile, now)} empty="Profil non renseigné." />
          <div className={styles.part}>
            <h3 className={styles.partTitle}>Sa présentation</h3>
            {detail.presentation ? (
              <>
                <p className={own.note} data-testid="member-presentation">
                  {detail.presentation.text}
                </p>
                <p className={styles.muted}>{presentationStatusLabel[detail.presentation.status]}</p>
              </>
            ) : (
              <p className={styles.muted}>Aucune présentation écrite.</p>
            )}
          </div>
          <div className={styles.part} data-testid="member-wali">
            <h3 className={styles.partTitle}>Walī et contact</h3>
            {detail.guardian ? (
              <dl className={styles.definitions}>
                <dt>Walī</dt>
                <dd>
                  {detail.guardian.name} ({detail.guardian.relationLabel.toLowerCase()})
                </dd>
                <dt>Téléphone</dt>
                <dd>{detail.guardian.phone ? formatPhone(detail.guardian.phone) : 'Aucun numéro'}</dd>
                <dt>E-mail</dt>
                <dd>{detail.guardian.email ?? 'Aucune adresse : il ne reçoit aucune copie par e-mail'}</dd>
                <dt>Reçoit</dt>
                <dd>{detail.guardian.receivesLabel}</dd>
                <dt>Contact à l’acceptation</dt>
                <dd>{detail.guardian.contactViaLabel}</dd>
              </dl>
            ) : (
              <p className={styles.muted}>Aucun walī indiqué : ses propres coordonnées sont transmises à l’acceptation mutuelle.</p>
            )}
          </div>
        </section>
        <section className={styles.card} aria-labelledby="questionnaire-title">
          <h2 id="questionnaire-title" className={styles.cardTitle}>
            Critères recherchés
          </h2>
          <Rows rows={questionnaireRows(detail.questionnaire, now)} empty="Questionnaire non renseigné." />
        </section>
      </div>
      <Suspense fallback={null}>
        <MemberPhotosSection memberId={member.id} memberName={memberName} />
        <ChangeRequestsSection memberId={member.id} onChanged={onReload} />
      </Suspense>
    </>
  );
}

/** « Contrat et paiements »: the rights and the term, the contract, the payments, and the billing (the administration's). */
export function ContractTab({
  detail,
  now,
  onReload,
  isAdministration,
}: {
  detail: MemberDetail;
  now: number;
  onReload: () => Promise<void>;
  isAdministration: boolean;
}) {
  const { member } = detail;
  const contractSigned = detail.record.subscriptionDate;
  return (
    <>
      <div className={styles.grid}>
        <ContractRightsCard
          rights={detail.rights}
          memberId={member.id}
          onReload={onReload}
          canRecordLetter={member.state === 'membre-actif'}
        />
        <section className={styles.card} aria-labelledby="contract-title">
          <h2 id="contract-title" className={styles.cardTitle}>
            Contrat
          </h2>
          <Rows rows={contractRows(detail.contract, now)} empty="Contrat non rempli." />
          {contractSigned ? (
            <a href={`/api/v1/dashboard/members/${member.id}/contract.pdf`} target="_blank" rel="noreferrer">
              Contrat signé (PDF)
            </a>
          ) : null}
          <p className={styles.muted}>
            Signature : {contractSigned ? formatDateTime(contractSigned) : 'non signé'} · Frais de dossier :{' '}
            {detail.record.applicationFeesPaid ? 'payés' : 'non payés'} · Abonnement :{' '}
            {detail.record.subscriptionFeesPaid ? 'payé' : 'non payé'}
          </p>
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
                      <td>{formatDateTime(p.createdAt)}</td>
                      <td>{offerName(p.offerId)}</td>
                      <td>{formatAmount(p.amountCents)}</td>
                      <td>{paymentStatusText(p.paymentStatus)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </div>
      {isAdministration ? (
        <Suspense fallback={null}>
          <MemberBilling memberId={member.id} />
        </Suspense>
      ) : (
        <p className={styles.muted}>La facturation détaillée (échéances, factures, avoirs) est réservée à l’administration.</p>
      )}
    </>
  );
}

/** « Historique »: the event log as sentences, then the member's step and the statechart, folded. */
export function HistoryTab({ detail }: { detail: MemberDetail }) {
  const { member } = detail;
  return (
    <>
      <section className={styles.card} aria-labelledby="log-title">
        <h2 id="log-title" className={styles.cardTitle}>
          Historique
        </h2>
        {detail.events.length === 0 ? (
          <p className={styles.muted}>Aucun événement.</p>
        ) : (
          <ol className={styles.timeline} aria-label="Historique des événements">
            {timeline(detail.events).map((item) => (
              <li key={item.id} className={styles.timelineItem}>
                <time dateTime={item.at}>{item.sentence}</time>
                {item.stateChange ? (
                  <>
                    <br />
                    <span className={styles.muted}>{item.stateChange}</span>
                  </>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </section>
      <section className={styles.card} aria-labelledby="state-title">
        <h2 id="state-title" className={styles.cardTitle}>
          Parcours
        </h2>
        <p>
          Étape actuelle : <strong data-state={member.state}>{stateLabel(member.state)}</strong>
        </p>
        {/* The whole chart is for the curious: folded by default (decision 209). */}
        <details className={file.fold} data-testid="member-chart">
          <summary className={file.foldSummary}>Voir toutes les étapes du parcours (statechart)</summary>
          <ChartView current={member.state} />
        </details>
      </section>
    </>
  );
}

/** 'Signer le contrat → Contrat — Délai de 7 jours avant tout paiement'. */
function transitionText(t: ChartTransition): string {
  return `${eventLabel(t.event)}${t.targets.length > 0 ? ` → ${t.targets.map(stateLabel).join(', ')}` : ''}`;
}

function transitionsText(node: ChartNode): string {
  return node.transitions.map(transitionText).join(' · ');
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
      <p className={styles.muted}>Depuis toute étape : {rootTransitions.map(transitionText).join(' · ')}</p>
    </>
  );
}

/** The staff transitions the chart allows now, each confirmed in a dialog. */
function StaffActions({ actions, onDone }: { actions: readonly StaffAction[]; onDone: () => Promise<void> }) {
  const allowed = actions.filter((a) => a.allowed);
  // Refused actions staff may expect, with the reason (e.g. a meeting that has not started yet).
  const explained = actions.filter((a) => !a.allowed && a.reason);

  const confirm = async (action: StaffAction): Promise<string | null> => {
    const result = await runStaffAction(action);
    if (result.ok) notify({ title: `${action.label} : c’est fait.`, variant: 'success' });
    await onDone();
    return result.ok ? null : result.error.message;
  };

  return (
    <>
      {allowed.length === 0 ? <p className={styles.muted}>Aucune action possible à cette étape.</p> : null}
      {explained.map((action) => (
        <p key={action.id} className={styles.muted} data-testid={`reason-${action.id}`}>
          {action.label} : pas encore possible. {action.reason}
        </p>
      ))}
      <div className={styles.actions}>
        {allowed.map((action) => (
          <ActionDialog
            key={action.id}
            trigger={
              <Button variant={action.danger ? 'dangerOutline' : 'primary'} data-danger={action.danger || undefined}>
                {action.label}
              </Button>
            }
            title={action.label}
            description={`${action.confirm} Confirmez-vous ?`}
            submitLabel="Confirmer"
            busyLabel="En cours…"
            // « Annuler » would read as the action where it cancels a meeting.
            cancelLabel="Ne rien changer"
            tone={action.danger ? 'danger' : 'normal'}
            // A destructive action starts on the safe choice: Enter never confirms it by accident.
            focusCancel={action.danger}
            onSubmit={() => confirm(action)}
          />
        ))}
      </div>
    </>
  );
}

/** Copies the value; its « Copié » flag resets after 1500 ms. */
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
          notify({ title: 'Copie impossible : sélectionnez l’identifiant à la main.', variant: 'warning' });
          return;
        }
        setCopied(true);
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => setCopied(false), COPIED_RESET_MS);
      }}
    >
      {copied ? 'Copié !' : 'Copier l’identifiant'}
    </Button>
  );
}
