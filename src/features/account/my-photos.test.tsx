import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ACCEPTED_PHOTO_TYPES, localPhotoProblem, type OwnPhoto, PhotoSection } from '#src/features/account/my-photos.tsx';
import type { MemberIntroduction } from '#src/features/introductions/introductions-api.ts';
import { ProposalCard } from '#src/features/introductions/proposal-card.tsx';
import { ReleasedPhotos } from '#src/features/introductions/proposal-parts.tsx';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/[\u202f\u00a0]/g, ' ')
    .replace(/\s+/g, ' ');

const photo = (n: number): OwnPhoto => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  position: n,
  width: 800,
  height: 1200,
  sizeBytes: 90_000,
  createdAt: '2026-11-25T10:00:00.000Z',
  url: `/api/v1/user/photos/00000000-0000-4000-8000-00000000000${n}`,
  thumbnailUrl: `/api/v1/user/photos/00000000-0000-4000-8000-00000000000${n}?taille=vignette`,
});
const noop = async () => null;

describe('« Mes photos » on Mon profil', () => {
  it('says the photos are never shown but after a mutual acceptance, and offers a labelled file input of the three formats', () => {
    const html = renderToStaticMarkup(<PhotoSection photos={[]} onUpload={noop} onDelete={noop} />);
    expect(text(html)).toContain('Mes photos');
    expect(text(html)).toContain('ne sont jamais montrées par défaut');
    expect(text(html)).toContain('lorsque vous avez accepté tous les deux une même proposition');
    expect(text(html)).toContain('Aucune photo pour le moment.');
    const input = html.match(/<input[^>]*type="file"[^>]*>/)?.[0] ?? '';
    expect(input).toContain(`accept="${ACCEPTED_PHOTO_TYPES}"`);
    const id = input.match(/id="([^"]+)"/)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`for="${id}"`);
    expect(text(html)).toContain('Ajouter une photo');
    expect(text(html)).toContain('JPEG, PNG ou WebP, 8 Mo au plus');
  });

  it('lists each photo with a French alternative text and its own delete button; at the maximum, no more input', () => {
    const two = renderToStaticMarkup(<PhotoSection photos={[photo(1), photo(2)]} onUpload={noop} onDelete={noop} />);
    expect(two).toContain('alt="Votre portrait n° 1"');
    expect(two).toContain(`src="${photo(2).thumbnailUrl.replace('&', '&amp;')}"`);
    expect(two).toContain('aria-label="Supprimer la photo n° 2"');
    expect(text(two)).toContain('2 photos sur 3 au plus.');
    expect(two).toContain('type="file"');

    const full = renderToStaticMarkup(<PhotoSection photos={[photo(1), photo(2), photo(3)]} onUpload={noop} onDelete={noop} />);
    expect(full).not.toContain('type="file"');
    expect(text(full)).toContain('Vous avez atteint le maximum de 3 photos');
  });

  it('refuses, before sending, a file over 8 MB or of another type', () => {
    expect(localPhotoProblem({ size: 9 * 1024 * 1024, type: 'image/jpeg' })).toContain('8 Mo');
    expect(localPhotoProblem({ size: 1000, type: 'image/gif' })).toBe('Formats acceptés : JPEG, PNG ou WebP.');
    expect(localPhotoProblem({ size: 1000, type: 'image/webp' })).toBeNull();
    // No declared type (some systems): the server decides from the bytes.
    expect(localPhotoProblem({ size: 1000, type: '' })).toBeNull();
  });
});

describe('the other’s photos on a proposal', () => {
  const base: MemberIntroduction = {
    id: '7d1f0c2e-0000-4000-8000-000000000001',
    state: 'acceptee',
    stateLabel: 'Acceptée',
    proposedAt: '2026-11-20T09:00:00.000Z',
    deadlineAt: '2026-11-27T09:00:00.000Z',
    myAnswer: { status: 'accepted', at: '2026-11-21T09:00:00.000Z', reason: null },
    note: null,
    other: {
      firstName: 'Youssef',
      age: 34,
      region: 'Île-de-France',
      practice: 'Régulière',
      profession: 'Ingénieur',
      familySituation: 'Célibataire, sans enfant',
      presentation: null,
    },
    reasons: [],
    outsideCriteria: null,
    meeting: null,
    contact: { via: 'moi', email: 'youssef@example.fr', phone: null, guardian: null },
    myFeedback: null,
    feedbackDeadline: null,
    contactAlsoToGuardian: null,
    myContactVia: { via: 'moi', label: 'Mes propres coordonnées', fromSettings: true, waliPhone: false },
    photos: [],
    ended: null,
    otherFirstName: 'Youssef',
    timeline: [],
  };
  const released = {
    ...base,
    photos: [
      { id: 'p1', url: `/api/v1/user/introductions/${base.id}/photos/p1` },
      { id: 'p2', url: `/api/v1/user/introductions/${base.id}/photos/p2` },
    ],
  };

  it('shows them, through this proposal’s URLs, with French alternative texts', () => {
    const html = renderToStaticMarkup(<ReleasedPhotos proposal={released} />);
    expect(text(html)).toContain('Les photos de Youssef');
    expect(html).toContain('alt="Portrait 1 sur 2 de Youssef"');
    expect(html).toContain(`src="/api/v1/user/introductions/${base.id}/photos/p2"`);
    const card = renderToStaticMarkup(<ProposalCard proposal={released} now={Date.parse('2026-11-22T09:00:00Z')} send={noop} />);
    expect(card).toContain('alt="Portrait 2 sur 2 de Youssef"');
  });

  it('shows nothing while they are not released', () => {
    expect(renderToStaticMarkup(<ReleasedPhotos proposal={base} />)).toBe('');
    expect(renderToStaticMarkup(<ReleasedPhotos proposal={{ ...base, photos: [] }} />)).toBe('');
    const pending = { ...base, state: 'proposee', myAnswer: { status: 'pending' as const, at: null, reason: null }, contact: null };
    expect(renderToStaticMarkup(<ProposalCard proposal={pending} now={Date.parse('2026-11-22T09:00:00Z')} send={noop} />)).not.toContain(
      '<img',
    );
  });
});
