import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EmailField, TextField } from '#src/components/ui/text-field.tsx';

describe('EmailField', () => {
  it('is the required e-mail TextField the forms wrote out: e-mail keyboard, autofill, no spell-check', () => {
    expect(renderToStaticMarkup(<EmailField defaultValue="amina@example.fr" error="Adresse e-mail invalide" />)).toBe(
      renderToStaticMarkup(
        <TextField
          name="email"
          type="email"
          label="Adresse e-mail"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          defaultValue="amina@example.fr"
          required
          error="Adresse e-mail invalide"
        />,
      ),
    );
  });

  it('takes another name and label', () => {
    const html = renderToStaticMarkup(<EmailField name="newEmail" label="Nouvelle adresse e-mail" />);
    expect(html).toContain('name="newEmail"');
    expect(html).toContain('Nouvelle adresse e-mail');
    expect(html).toContain('aria-required="true"');
  });
});
