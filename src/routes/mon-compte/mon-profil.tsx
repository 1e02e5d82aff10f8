import { createFileRoute } from '@tanstack/react-router';
import { MyProfilePage } from '#src/features/account/my-profile-page.tsx';

export const Route = createFileRoute('/mon-compte/mon-profil')({
  head: () => ({ meta: [{ title: 'Mon profil — Union Sincère' }] }),
  component: MyProfilePage,
});
