import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MessageTemplatesPanel } from '#src/features/dashboard/message-templates-panel.tsx';

describe('« Modèles de message »: the template form (decision 121)', () => {
  it('labels its three fields in French, each control tied to its label, with its length limit', () => {
    const html = renderToStaticMarkup(<MessageTemplatesPanel templates={[]} onChanged={async () => {}} />);
    const field = (label: string, tag: 'input' | 'textarea', name: string, maxLength: number) => {
      const match = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}<${tag}([^>]*)>`).exec(html);
      expect(match, label).not.toBeNull();
      const attributes = match?.[2] ?? '';
      expect(attributes).toContain(`id="${match?.[1]}"`);
      expect(attributes).toContain(`name="${name}"`);
      expect(attributes).toContain(`maxLength="${maxLength}"`);
    };
    field('Titre du modèle', 'input', 'title', 80);
    field('Objet \\(facultatif\\)', 'input', 'subject', 150);
    field('Texte du modèle', 'textarea', 'body', 5000);
    expect(html).toContain('Nouveau modèle');
    expect(html).toContain('Aucun modèle pour l’instant.');
  });
});
