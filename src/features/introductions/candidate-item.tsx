import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { NOTE_MAX_LENGTH } from '#machines/introductions/events.ts';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import * as styles from '#src/features/dashboard/dashboard.css.ts';
import { NeverProposeDialog } from '#src/features/introductions/candidate-lists-parts.tsx';
import {
  addToShortlist,
  type Candidate,
  proposeIntroduction,
  readMemberPresentation,
  removeFromShortlist,
} from '#src/features/introductions/introductions-api.ts';
import * as own from '#src/features/introductions/introductions.css.ts';
import { criterionRows, ofName, scoreText, type VerdictCell, wishesText } from '#src/features/introductions/introductions-view.ts';
import { notify } from '#src/lib/notifications.ts';
import { memberFileKeys } from '#src/features/dashboard/member-file-keys.ts';
import { introductionKeys } from '#src/features/introductions/introduction-queries.ts';

/**
 * One candidate of a member's list (decisions 193, 201, 208 and 212): who they are, the
 * indispensable criteria both ways, the table criterion by criterion, their presentation on
 * request, and what staff can do — propose (with the reason a member must read when outside one
 * of their indispensable criteria), keep in the shortlist, never propose.
 */

export function CandidateItem({
  candidate: c,
  index,
  memberId,
  memberName,
  onListsChanged,
}: {
  candidate: Candidate;
  index: number;
  memberId: string;
  memberName: string;
  onListsChanged: () => void;
}) {
  const candidateName = c.firstName ?? 'le candidat';
  // The member's first name (the file's title gives the full name): a column is named by it.
  const memberFirst = memberName.split(' ')[0] || memberName;
  const rows = criterionRows(c.reasons);
  const brokenLines = [
    c.broken?.membre.length ? `critères indispensables ${ofName(memberFirst)} : ${c.broken.membre.join(', ').toLowerCase()}` : null,
    c.broken?.candidat.length ? `critères indispensables ${ofName(candidateName)} : ${c.broken.candidat.join(', ').toLowerCase()}` : null,
  ].filter((line): line is string => line !== null);
  return (
    <li className={own.candidate} data-testid="candidate">
      <div className={styles.header}>
        <h3 className={styles.cardTitle}>
          {index + 1}. {c.firstName ?? 'Membre'}
          {c.age === null ? '' : `, ${c.age} ans`}
        </h3>
        <span className={styles.badge.neutral}>{scoreText(c.score, c.maxScore)}</span>
      </div>
      <p className={styles.muted}>{[c.region, c.practice, c.profession, c.familySituation].filter(Boolean).join(' · ')}</p>
      {richerLine(c) ? <p className={styles.muted}>{richerLine(c)}</p> : null}
      {c.affinities && c.affinities.length > 0 ? (
        <p data-testid="candidate-affinities">En commun : {c.affinities.join(', ').toLowerCase()}.</p>
      ) : null}
      {brokenLines.length > 0 ? (
        <p data-testid="candidate-broken">
          <strong>Hors</strong> {brokenLines.join(' ; ')}
        </p>
      ) : (
        <p>Critères indispensables respectés des deux côtés. {wishesText(c.reasons)}.</p>
      )}
      <details className={own.details}>
        <summary>Critère par critère</summary>
        <table className={own.criteriaTable} data-testid="candidate-criteria">
          <thead>
            <tr>
              <th scope="col" className={own.criterionHead}>
                Critère
              </th>
              <th scope="col">Ce que cherche {memberFirst}</th>
              <th scope="col">Ce que cherche {candidateName}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.criterion}>
                <th scope="row">{row.label}</th>
                <td data-label={`Pour ${memberFirst}`}>
                  <Verdict cell={row.membre} />
                </td>
                <td data-label={`Pour ${candidateName}`}>
                  <Verdict cell={row.candidat} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
      {c.hasPresentation ? <CandidatePresentation candidate={c} /> : null}
      <div className={own.candidateActions}>
        <ProposeDialog memberId={memberId} memberName={memberName} candidate={c} />
        <Button
          variant="secondary"
          aria-pressed={c.shortlisted === true}
          onClick={async () => {
            const result = c.shortlisted ? await removeFromShortlist(memberId, c.memberId) : await addToShortlist(memberId, c.memberId);
            if (!result.ok) notify({ title: result.error.message, variant: 'error' });
            onListsChanged();
          }}
        >
          {c.shortlisted ? 'Dans la sélection' : 'Garder dans la sélection'}
        </Button>
        <NeverProposeDialog memberId={memberId} memberName={memberName} candidate={c} onDone={onListsChanged} />
        <Link to="/dashboard/member/$memberId" params={{ memberId: c.memberId }}>
          Fiche {c.firstName ? ofName(c.firstName) : 'du membre'}
        </Link>
      </div>
    </li>
  );
}

/** One side of a criterion: its mark (with the verdict in words for screen readers), what was compared, « indispensable ». */
function Verdict({ cell }: { cell: VerdictCell | null }) {
  if (!cell) return <span className={styles.muted}>—</span>;
  return (
    <div className={own.verdictCell}>
      <span className={own.verdictLine}>
        <span className={own.mark[cell.tone]} aria-hidden="true">
          {cell.mark}
        </span>
        <span>
          <span className={own.visuallyHidden}>{cell.verdict} : </span>
          {cell.reason}
        </span>
      </span>
      {cell.required ? <span className={own.requiredTag}>indispensable</span> : null}
    </div>
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
  const client = useQueryClient();
  const other = candidate.firstName ?? 'ce membre';
  // A side whose indispensable criteria the pair breaks must be told why (decision 193; the BFF refuses otherwise).
  const mustExplain = { a: (candidate.broken?.membre.length ?? 0) > 0, b: (candidate.broken?.candidat.length ?? 0) > 0 };

  async function submit(data: FormData): Promise<string | null> {
    const noteA = String(data.get('noteA') ?? '').trim();
    const noteB = String(data.get('noteB') ?? '').trim();
    if ((mustExplain.a && !noteA) || (mustExplain.b && !noteB)) {
      return 'Écrivez pourquoi vous faites cette proposition malgré un critère indispensable : le membre concerné le lira.';
    }
    const result = await proposeIntroduction({
      a: memberId,
      b: candidate.memberId,
      ...(noteA ? { noteA } : {}),
      ...(noteB ? { noteB } : {}),
    });
    if (!result.ok) return result.error.message;
    notify({ title: `Proposition envoyée à ${memberName} et ${other}.`, variant: 'success' });
    // Both members' files, their candidates and the staff's lists of introductions changed.
    for (const queryKey of [
      memberFileKeys.candidates(memberId),
      memberFileKeys.member(memberId),
      memberFileKeys.member(candidate.memberId),
      introductionKeys.staff,
    ]) {
      void client.invalidateQueries({ queryKey });
    }
    const id = result.data.introduction?.id;
    if (typeof id === 'string') await navigate({ to: '/dashboard/mises-en-relation/$id', params: { id } });
    return null;
  }

  const memberFirst = memberName.split(' ')[0] || memberName;
  const label = (side: 'a' | 'b', name: string, criteria: string[] | undefined) =>
    mustExplain[side]
      ? `Pour ${name} : pourquoi cette proposition malgré ${criteria && criteria.length > 1 ? 'ses critères indispensables' : 'son critère indispensable'} (${(criteria ?? []).join(', ').toLowerCase()}) ? (obligatoire, ${name} le lira)`
      : `Note pour ${name} (facultative)`;

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
        {label('a', memberFirst, candidate.broken?.membre)}
        <textarea id={ids.a} name="noteA" className={styles.textarea} maxLength={NOTE_MAX_LENGTH} required={mustExplain.a} />
      </label>
      <label className={styles.control} htmlFor={ids.b}>
        {label('b', other, candidate.broken?.candidat)}
        <textarea id={ids.b} name="noteB" className={styles.textarea} maxLength={NOTE_MAX_LENGTH} required={mustExplain.b} />
      </label>
    </ActionDialog>
  );
}

/** The candidate's richer profile in one line (decision 208): languages, level, height, school; empty when none was given. */
function richerLine(c: Candidate): string {
  return [
    c.languages && c.languages.length > 0 ? `Parle : ${c.languages.join(', ')}` : null,
    c.educationLevel ?? null,
    c.height ?? null,
    c.madhhab ? `École ${c.madhhab.toLowerCase()}` : null,
    // Decision 212: sensitive, shown only for candidates (who all consented).
    c.hijab ? `Voile : ${c.hijab.toLowerCase()}` : null,
    c.beard ? `Barbe : ${c.beard.toLowerCase()}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}
