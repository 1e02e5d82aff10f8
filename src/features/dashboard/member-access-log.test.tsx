import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AccessLogList } from '#src/features/dashboard/member-access-log.tsx';

describe('the access-log card of the member page', () => {
  it('lists who read the file, when (Paris time) and what, in French', () => {
    const html = renderToStaticMarkup(
      <AccessLogList
        entries={[
          {
            at: '2026-11-24T10:30:00.000Z',
            staff: { id: '0b7e0f4e-8f5c-4c55-9a43-2a1f4f7c1d11', name: 'Nadia Ferhat' },
            resource: 'signed_contract',
            label: 'Contrat signé (PDF)',
          },
        ]}
      />,
    );
    expect(html).toContain('<th scope="col">Membre de l’équipe</th>');
    expect(html).toContain('Nadia Ferhat');
    expect(html).toContain('Contrat signé (PDF)');
    expect(html).toContain('11 h 30');
  });

  it('says so when nobody read it', () => {
    expect(renderToStaticMarkup(<AccessLogList entries={[]} />)).toContain('Aucune consultation enregistrée.');
  });
});
