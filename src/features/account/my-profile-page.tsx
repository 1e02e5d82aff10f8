import * as styles from '#src/features/account/account.css.ts';
import { EmailSection, PasswordSection } from '#src/features/account/account-security.tsx';
import { GuardianSection } from '#src/features/account/guardian-section.tsx';
import { MyAnswersSection } from '#src/features/account/my-answers.tsx';
import { MyInvoices } from '#src/features/account/invoices.tsx';
import { MyPhotos } from '#src/features/account/my-photos.tsx';
import { MyPresentation } from '#src/features/account/my-presentation.tsx';
import { useSession } from '#src/lib/use-session.ts';
import { PrivacySection } from '#src/features/privacy/privacy-section.tsx';

/** `/mon-compte/mon-profil`: the member's answers (decision 123), their short presentation (decision 128), the account's address and password (decision 102), the member's photos (decision 116), then their data rights. */
export function MyProfilePage() {
  const { user } = useSession();
  return (
    <>
      <h1 className={styles.title}>Mon profil</h1>
      <MyAnswersSection />
      <MyPresentation />
      <EmailSection fallbackEmail={user?.email} />
      <PasswordSection />
      <MyPhotos />
      <GuardianSection />
      <MyInvoices />
      <PrivacySection />
    </>
  );
}
