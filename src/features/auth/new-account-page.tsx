import { Link, useRouter } from '@tanstack/react-router';
import { CredentialsSchema, GenderSchema } from '#machines/auth/credentials.ts';
import { Button } from '#src/components/ui/button.tsx';
import { FormAlert } from '#src/components/ui/form-alert.tsx';
import { RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { useForm } from '#src/components/ui/use-form.ts';
import { createAccount } from '#src/features/auth/api/create-account.ts';
import * as styles from '#src/features/auth/auth.css.ts';
import { renameFields, textOf, validate } from '#src/lib/form.ts';
import { useSessionStore } from '#src/lib/use-session.ts';

const GENDERS = [
  { value: 'homme', label: 'Un homme' },
  { value: 'femme', label: 'Une femme' },
] as const;

/** `/connexion/nouveau-compte`: gender, email, password and its repeat; signed in on success. */
export function NewAccountPage() {
  const router = useRouter();
  const session = useSessionStore();
  const { formRef, fieldErrors, formError, submitting, handleSubmit } = useForm();

  const onSubmit = handleSubmit(async (data) => {
    const gender = validate(GenderSchema, textOf(data, 'gender'));
    const credentials = validate(CredentialsSchema, {
      email: textOf(data, 'email'),
      password: textOf(data, 'password'),
      passwordRepeat: textOf(data, 'passwordRepeat'),
    });
    if (!gender.success || !credentials.success) {
      return {
        fieldErrors: {
          ...(gender.success ? {} : { gender: Object.values(gender.fieldErrors)[0] ?? 'Choisissez « homme » ou « femme »' }),
          ...(credentials.success ? {} : credentials.fieldErrors),
        },
      };
    }
    const result = await createAccount({ gender: gender.output, email: credentials.output.email, password: credentials.output.password });
    if (!result.ok) return { fieldErrors: renameFields(result.error.fieldErrors, { role: 'gender' }), formError: result.error.message };
    await session.refresh();
    await router.navigate({ to: '/mon-compte' });
    return undefined;
  });

  return (
    <>
      <h1 className={styles.title}>Créer un compte</h1>
      <p className={styles.intro}>Quelques informations suffisent pour ouvrir votre espace personnel.</p>
      <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate>
        <FormAlert tone="error">{formError}</FormAlert>
        <RadioGroup name="gender" legend="Vous êtes" options={GENDERS} required error={fieldErrors.gender} />
        <TextField
          name="email"
          type="email"
          label="Adresse e-mail"
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          required
          error={fieldErrors.email}
        />
        <TextField
          name="password"
          type="password"
          label="Mot de passe"
          hint="6 caractères minimum."
          autoComplete="new-password"
          required
          error={fieldErrors.password}
        />
        <TextField
          name="passwordRepeat"
          type="password"
          label="Confirmation du mot de passe"
          autoComplete="new-password"
          required
          error={fieldErrors.passwordRepeat}
        />
        <p className={styles.legal}>
          En créant un compte, vous acceptez nos <Link to="/conditions-generales-de-vente">conditions générales de vente</Link> et notre{' '}
          <Link to="/politique-de-confidentialite">politique de confidentialité</Link>.
        </p>
        <Button type="submit" block loading={submitting} loadingText="Création du compte…">
          Créer mon compte
        </Button>
      </form>
      <div className={styles.links}>
        <p>
          Déjà un compte ? <Link to="/connexion">Se connecter</Link>
        </p>
      </div>
    </>
  );
}
