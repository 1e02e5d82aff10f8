import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CheckboxField } from '#src/components/ui/checkbox-field.tsx';
import { CheckboxGroup, RadioGroup } from '#src/components/ui/radio-group.tsx';
import { TextField } from '#src/components/ui/text-field.tsx';
import { TextAreaField } from '#src/components/ui/text-area-field.tsx';

/** Each `aria-describedby` of the markup, with the ids it names that the markup holds. */
function described(html: string): { names: string[]; found: string[] }[] {
  return [...html.matchAll(/aria-describedby="([^"]+)"/g)].map(([, value]) => {
    const names = (value as string).split(' ');
    return { names, found: names.filter((id) => html.includes(`id="${id}"`)) };
  });
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('the fields read their hint and their error with them (useFieldIds, FieldError)', () => {
  const fields = {
    TextField: <TextField name="city" label="Ville" hint="Votre ville de résidence." error="Champ obligatoire" />,
    TextAreaField: <TextAreaField name="note" label="Note" hint="Quelques mots." error="Trop long" />,
    CheckboxField: <CheckboxField name="ok" label="J’accepte" description="Vous pouvez changer d’avis." error="À cocher" />,
    RadioGroup: <RadioGroup name="r" legend="Sexe" options={[{ value: 'f', label: 'Femme' }]} hint="Un seul choix." error="Choisissez" />,
    CheckboxGroup: (
      <CheckboxGroup
        name="c"
        legend="Régions"
        options={[{ value: 'idf', label: 'Île-de-France' }]}
        hint="Plusieurs choix."
        error="Choisissez"
      />
    ),
  };

  for (const [name, field] of Object.entries(fields)) {
    it(`${name}: every id it names is on the page, hint first, then the error`, () => {
      const html = renderToStaticMarkup(field);
      const refs = described(html);
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) expect(ref.found).toEqual(ref.names);
      // The group (or the field) names both; the error's id ends the list.
      expect(refs[0]?.names).toHaveLength(2);
      expect(refs[0]?.names[1]).toMatch(/-error$/);
      expect(html).toContain('aria-invalid="true"');
    });
  }

  it('names nothing and shows nothing when there is neither hint nor error', () => {
    const html = renderToStaticMarkup(
      <>
        <TextField name="city" label="Ville" />
        <RadioGroup name="r" legend="Sexe" options={[{ value: 'f', label: 'Femme' }]} />
      </>,
    );
    expect(html).not.toContain('aria-describedby');
    expect(html).not.toContain('aria-invalid');
    expect(text(html)).toBe('Ville Sexe Femme');
  });

  it('radios and checkboxes differ only by their type; a radio group may be required, a checkbox group never', () => {
    const options = [
      { value: 'a', label: 'A' },
      { value: 'b', label: 'B' },
    ];
    const radios = renderToStaticMarkup(<RadioGroup name="x" legend="L" options={options} defaultValue="b" required />);
    const boxes = renderToStaticMarkup(<CheckboxGroup name="x" legend="L" options={options} />);
    expect(radios.match(/type="radio"/g)).toHaveLength(2);
    expect(radios.match(/required=""/g)).toHaveLength(2);
    expect(radios).toMatch(/checked="" value="b"/);
    expect(boxes.match(/type="checkbox"/g)).toHaveLength(2);
    expect(boxes).not.toContain('required');
    expect(boxes).not.toContain('checked');
  });
});
