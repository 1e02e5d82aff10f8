import { Link } from '@tanstack/react-router';
import { usePageMeta } from '#src/features/public-site/use-page-meta.ts';
import { PreRegistrationForm } from '#src/features/public-site/pre-registration-form.tsx';
import * as styles from '#src/features/public-site/public-site.css.ts';
import { container } from '#src/styles/global.css.ts';

const PRE_REGISTRATION_META = {
  title: 'Pré-inscription gratuite | Union Sincère',
  description:
    'Pré-inscrivez-vous gratuitement chez Union Sincère, agence matrimoniale musulmane : quelques informations suffisent pour que nous vous guidions vers votre espace membre.',
  path: '/formulaire-inscription',
} as const;

/** `/formulaire-inscription`: the pre-registration form and what happens next. */
export function PreRegistrationPage({ gender }: { gender?: 'femme' | 'homme' | undefined }) {
  usePageMeta(PRE_REGISTRATION_META);
  return (
    <>
      <div className={styles.pageHeader}>
        <div className={container}>
          <p className={styles.eyebrow}>Gratuit et sans engagement</p>
          <h1 className={styles.pageTitle}>Pré-inscription</h1>
          <p className={styles.lead}>
            Quelques informations suffisent pour commencer. Elles nous permettent de vous recontacter et de vous guider vers la création de
            votre espace membre, où vous poursuivrez votre inscription à votre rythme.
          </p>
        </div>
      </div>
      <div className={`${container} ${styles.body}`}>
        <div className={styles.withAside}>
          <div className={`${styles.formCard} ${styles.formNarrow}`}>
            <h2 className={styles.formTitle}>Vos informations</h2>
            <PreRegistrationForm defaultGender={gender} />
          </div>
          <div className={styles.prose}>
            <h2>Et ensuite ?</h2>
            <ol>
              <li>Vous créez votre espace membre avec la même adresse e-mail.</li>
              <li>Vous complétez votre profil et le questionnaire de rapprochement.</li>
              <li>Vous choisissez votre formule, puis nous faisons connaissance lors d’un entretien de 15 minutes.</li>
            </ol>
            <p>
              Aucun profil n’est publié en ligne. Le détail de chaque étape, de nos formules et de vos droits est sur la page{' '}
              <Link to="/inscription-agence-matrimoniale-musulmane">Inscription</Link>.
            </p>
          </div>
        </div>
      </div>
    </>
  );
}
