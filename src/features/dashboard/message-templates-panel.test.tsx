import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MessageTemplatesPanel } from '#src/features/dashboard/message-templates-panel.tsx';

describe('« Modèles de message »: the template form (decision 121)', () => {
  it('labels its three fields in French, each control tied to its label, with its length limit', () => {
    const html = renderToStaticMarkup(<MessageTemplatesPanel templates={[]} onChanged={async () => {}} />);
    const field = (label: string, tag: 'input' | 'textarea', name: string, maxLength: number) => {
      const labelled = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}</label>`).exec(html);
      expect(labelled, label).not.toBeNull();
      const control = new RegExp(`<${tag}([^>]*id="${labelled?.[1]}"[^>]*)>`).exec(html);
      expect(control, label).not.toBeNull();
      const attributes = control?.[1] ?? '';
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
