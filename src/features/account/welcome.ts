/** The greeting of `/mon-compte`: by first name when the member's answers hold one (issue 63), never by the e-mail address. */
export function welcome(firstName: string | null | undefined): string {
  const name = firstName?.trim();
  return name ? `Bienvenue dans votre espace personnel, ${name}.` : 'Bienvenue dans votre espace personnel.';
}
