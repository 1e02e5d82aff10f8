import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { NOTE_MAX_LENGTH } from '#machines/introductions/events.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import {
  type Candidate,
  listCandidates,
  proposeIntroduction,
  readMemberPresentation,
} from '#src/features/introductions/introductions-api.ts';
import * as own from '#src/features/introductions/introductions.css.ts';
import { criterionLabel, criterionVerdict, ofName, reasonGroups, scoreText } from '#src/features/introductions/introductions-view.ts';
import { notify } from '#src/lib/notifications.ts';
import { useLoaded } from '#src/lib/use-loaded.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';

/**
 * The "Candidats" section of a member's file: active members of the other gender ranked by the
 * two-way score, each with its reasons, and "Proposer" (a note to each side) for one of them.
 */
export function CandidatesSection({ memberId, memberName, active }: { memberId: string; memberName: string; active: boolean }) {
  const { data, error } = useLoaded(() => listCandidates(memberId), [memberId], { enabled: active });
  const candidates = data?.candidates ?? null;
  const blocked = data?.member.unavailableReason ?? null;

  return (
    <section className={styles.card} aria-labelledby="candidates-title">
      <h2 id="candidates-title" className={styles.cardTitle}>
        Candidats
      </h2>
      {!active ? (
        <p className={styles.muted}>Les candidats s’affichent une fois le membre actif (parcours d’inscription terminé).</p>
      ) : (
        <>
          <p className={styles.muted}>
            Les membres actifs qui respectent les critères stricts des deux côtés, classés par score ; les personnes déjà proposées, en
            pause ou dans une mise en relation en cours n’y sont pas.
          </p>
          <FormAlert tone="error">{error}</FormAlert>
          {candidates === null && !error ? <p className={styles.muted}>Chargement…</p> : null}
          {candidates?.length === 0 ? (
            <p role="status">
              {blocked ? `Aucune proposition possible pour l’instant. Raison : ${blocked}.` : 'Aucun candidat pour l’instant.'}
            </p>
          ) : null}
          {candidates && candidates.length > 0 ? (
            <ol className={own.candidates} aria-label={`Candidats pour ${memberName}`}>
              {candidates.map((c, index) => (
                <li key={c.memberId} className={own.candidate} data-testid="candidate">
                  <div className={styles.header}>
                    <h3 className={styles.cardTitle}>
                      {index + 1}. {c.firstName ?? 'Membre'}
                      {c.age === null ? '' : `, ${c.age} ans`}
                    </h3>
                    <span className={styles.badge.neutral}>{scoreText(c.score, c.maxScore)}</span>
                  </div>
                  <p className={styles.muted}>{[c.region, c.practice, c.profession, c.familySituation].filter(Boolean).join(' · ')}</p>
                  <details>
                    <summary>
                      Pourquoi ({c.reasons.filter((r) => r.met).length} critères sur {c.reasons.length} respectés)
                    </summary>
                    {reasonGroups(c.reasons, memberName, c.firstName ?? 'le candidat').map((group) => (
                      <div key={group.title}>
                        <h4 className={own.groupTitle}>{group.title}</h4>
                        <ul className={own.criteria}>
                          {group.reasons.map((r) => (
                            <li key={`${r.criterion}-${r.reason}`} className={own.criterion}>
                              <span className={r.met ? own.mark.met : own.mark.unmet} aria-hidden="true">
                                {r.met ? '✓' : '✗'}
                              </span>
                              <span>
                                {criterionLabel(r.criterion)} ({criterionVerdict(r.met).toLowerCase()}) : {r.reason}
                              </span>
                            </li>
                          ))}
                        </ul>
                      </div>
                    ))}
                  </details>
                  {c.hasPresentation ? <CandidatePresentation candidate={c} /> : null}
                  <div className={own.candidateActions}>
                    <ProposeDialog memberId={memberId} memberName={memberName} candidate={c} />
                    <Link to="/dashboard/member/$memberId" params={{ memberId: c.memberId }}>
                      Fiche {c.firstName ? ofName(c.firstName) : 'du membre'}
                    </Link>
                  </div>
                </li>
              ))}
            </ol>
          ) : null}
        </>
      )}
    </section>
  );
}

/** The candidate's presentation, side by side with the ranking: read only when staff ask (each read logged, decision 128). */
function CandidatePresentation({ candidate }: { candidate: Candidate }) {
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const who = candidate.firstName ?? 'du candidat';
  if (text !== null)
    return (
      <div>
        <h4 className={own.groupTitle}>Présentation {candidate.firstName ? ofName(candidate.firstName) : who}</h4>
        <p className={own.note} data-testid="candidate-presentation">
          {text}
        </p>
      </div>
    );
  return (
    <div>
      <Button
        variant="ghost"
        loading={loading}
        loadingText="Lecture…"
        onClick={async () => {
          setLoading(true);
          const result = await readMemberPresentation(candidate.memberId);
          setLoading(false);
          if (!result.ok) setError(result.error.message);
          else setText(result.data.presentation?.text ?? 'Aucune présentation écrite.');
        }}
      >
        Lire sa présentation
      </Button>
      <FormAlert tone="error">{error}</FormAlert>
    </div>
  );
}

function ProposeDialog({ memberId, memberName, candidate }: { memberId: string; memberName: string; candidate: Candidate }) {
  const ids = { a: useId(), b: useId() };
  const navigate = useNavigate();
  const other = candidate.firstName ?? 'ce membre';

  async function submit(data: FormData): Promise<string | null> {
    const noteA = String(data.get('noteA') ?? '').trim();
    const noteB = String(data.get('noteB') ?? '').trim();
    const result = await proposeIntroduction({
      a: memberId,
      b: candidate.memberId,
      ...(noteA ? { noteA } : {}),
      ...(noteB ? { noteB } : {}),
    });
    if (!result.ok) return result.error.message;
    notify({ title: `Proposition envoyée à ${memberName} et ${other}.`, variant: 'success' });
    const id = result.data.introduction?.id;
    if (typeof id === 'string') await navigate({ to: '/dashboard/mises-en-relation/$id', params: { id } });
    return null;
  }

  return (
    <ActionDialog
      trigger={<Button aria-label={`Proposer ${other} à ${memberName}`}>Proposer</Button>}
      title={`Proposer ${other} à ${memberName}`}
      description="Chacun reçoit un résumé anonyme de l’autre et 7 jours pour répondre. Un mot de votre part accompagne la proposition."
      submitLabel="Envoyer la proposition"
      busyLabel="Envoi…"
      onSubmit={submit}
    >
      <label className={styles.control} htmlFor={ids.a}>
        Note pour {memberName} (facultative)
        <textarea id={ids.a} name="noteA" className={styles.textarea} maxLength={NOTE_MAX_LENGTH} />
      </label>
      <label className={styles.control} htmlFor={ids.b}>
        Note pour {other} (facultative)
        <textarea id={ids.b} name="noteB" className={styles.textarea} maxLength={NOTE_MAX_LENGTH} />
      </label>
    </ActionDialog>
  );
}
