import { createFileRoute } from '@tanstack/react-router';
import { MyProfilePage } from '#src/features/account/my-profile-page.tsx';
import { titled } from '#src/lib/document-title.tsx';

export const Route = createFileRoute('/mon-compte/mon-profil')({
  component: titled('Mon profil — Union Sincère', MyProfilePage),
});
