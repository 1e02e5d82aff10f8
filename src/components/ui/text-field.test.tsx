import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EmailField, NewPasswordFields } from '#src/components/ui/account-fields.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';

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

describe('NewPasswordFields', () => {
  it('is the password and confirmation pair the forms wrote out', () => {
    expect(
      renderToStaticMarkup(<NewPasswordFields label="Nouveau mot de passe" errors={{ passwordRepeat: 'Les mots de passe diffèrent.' }} />),
    ).toBe(
      renderToStaticMarkup(
        <>
          <TextField
            name="password"
            type="password"
            label="Nouveau mot de passe"
            hint="12 caractères minimum, ni courant ni tiré de votre nom ou de votre adresse e-mail."
            autoComplete="new-password"
            required
            error={undefined}
          />
          <TextField
            name="passwordRepeat"
            type="password"
            label="Confirmation du mot de passe"
            autoComplete="new-password"
            required
            error="Les mots de passe diffèrent."
          />
        </>,
      ),
    );
  });
});
