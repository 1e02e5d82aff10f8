import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StaffPhotoList } from '#src/features/dashboard/member-photos-section.tsx';

const MEMBER = '5f0c3d2e-1a2b-4c3d-8e9f-0a1b2c3d4e5f';
const PHOTO = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';

describe('the photos card of the staff member page', () => {
  it('shows each photo through the staff URL (thumbnail, link to the full photo), with a French alternative text', () => {
    const html = renderToStaticMarkup(
      <StaffPhotoList
        memberName="Amina Exemple"
        photos={[
          {
            id: PHOTO,
            position: 1,
            width: 800,
            height: 1200,
            sizeBytes: 51234,
            createdAt: '2026-11-24T10:30:00.000Z',
            url: `/api/v1/dashboard/members/${MEMBER}/photos/${PHOTO}`,
          },
        ]}
      />,
    );
    expect(html).toContain(`src="/api/v1/dashboard/members/${MEMBER}/photos/${PHOTO}?taille=vignette"`);
    expect(html).toContain(`href="/api/v1/dashboard/members/${MEMBER}/photos/${PHOTO}"`);
    expect(html).not.toContain('/api/v1/user/');
    expect(html).toContain('alt="Amina Exemple, 1 sur 1 (ouvrir en grand)"');
    expect(html).toContain('aria-label="Photos de Amina Exemple"');
    expect(html.replace(/[\u202f\u00a0]/g, ' ')).toContain('Ajoutée le 24 nov. 2026 à 11 h 30');
  });
});
