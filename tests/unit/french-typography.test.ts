import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { textSources, tracked } from '#tests/support/text-sources.ts';

/**
 * French punctuation is set with a non-breaking space (decision 145): after « and before », :, ;,
 * ? and !, so that a line never starts with a lone » or « : » (« est\n« Convertie » » on a phone).
 * Every text a person reads comes from the SPA, the shared rules or the server, as string literals
 * and JSX text, or from `content/`; this test reads all of them and names each ordinary space
 * found there, file and line.
 */

/** An ordinary space where French wants a non-breaking one (a colon only before a space or the end: not `a :hover`). */
const ORDINARY_SPACE = /« | »| [:;?!](?=\s|$|['"`»)]|\$\{)/;

/**
 * A French elision written with the typewriter's ' (« l'agence »): French sets the apostrophe ’, as
 * the rest of the product does. English text (« the contract's annex ») has no elision and passes.
 */
const STRAIGHT_APOSTROPHE = /\b(?:l|d|qu|n|s|j|c|m|t|jusqu|lorsqu|puisqu|quoiqu)'(?=[\p{L}*_«])/iu;

/**
 * An article of a code written with an ordinary hyphen (« L224-91 »): a line may break at it and
 * leave « L224- » alone at a line's end (decision 150). References take the non-breaking hyphen
 * U+2011, which looks the same; the contract's and invoices' PDFs print it as « - ».
 */
const BREAKING_HYPHEN = /\b[LR]\d{3}-\d/;

/** SQL, where `payload ? 'erased'` is an operator, not French. */
const SQL = /\b(SELECT|INSERT|UPDATE|DELETE|WHERE|RETURNING)\b/;

const sources = textSources().filter((file) => !file.endsWith('.css.ts'));

/** Each string literal, template part and JSX text of a source file whose text breaks a rule. */
function breaking(rule: RegExp, fileName: string, text: string): string[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      // JSX joins the lines of a text with one ordinary space: « at a line's end counts.
      const raw = ts.isJsxText(node) ? node.getFullText(source).replace(/[ \t]*\n[ \t]*/g, ' ') : node.getText(source);
      const whole = ts.isTemplateHead(node)
        ? node.parent
        : ts.isTemplateMiddle(node) || ts.isTemplateTail(node)
          ? node.parent.parent
          : node;
      if (rule.test(raw) && !SQL.test(whole.getText(source))) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(`${fileName}:${line} ${raw.trim().slice(0, 80)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const ordinarySpaces = (fileName: string, text: string) => breaking(ORDINARY_SPACE, fileName, text);

/** Each line of the text files of `content/` that breaks a rule. */
function contentBreaking(rule: RegExp): string[] {
  const files = tracked('content/*');
  expect(files.length).toBeGreaterThan(10);
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => (rule.test(line) ? [`${file}:${index + 1} ${line.trim().slice(0, 80)}`] : [])),
  );
}

describe('French typography', () => {
  it('finds the ordinary spaces it is meant to find, and nothing else', () => {
    const sample = [
      "const a = 'Objet : le rendez-vous';",
      `const b = \`Modèle « \${name} » supprimé\`;`,
      'const c = <p>Vraiment ?</p>;',
      'const g = <p>\n  est «\n  Convertie\u00a0»\n</p>;',
      "const d = 'Objet\u00a0: «\u00a0Mon profil\u00a0» ; ok'.replace(' ', '');",
      "const e = 'a :hover';",
      `const f = \`SELECT 1 FROM t WHERE NOT (payload ? 'erased') AND id = \${id} OR (data ? 'x')\`;`,
      '// a comment : « free »',
      'const h = <p>{date} : {status}</p>;',
    ].join('\n');
    expect(ordinarySpaces('sample.tsx', sample)).toEqual([
      "sample.tsx:1 'Objet : le rendez-vous'",
      'sample.tsx:2 `Modèle « ${',
      'sample.tsx:2 } » supprimé`',
      'sample.tsx:3 Vraiment ?',
      'sample.tsx:5 est « Convertie\u00a0»',
      "sample.tsx:8 'Objet\u00a0: «\u00a0Mon profil\u00a0» ; ok'",
      // A JSX text's leading space is trivia to TypeScript: read with it.
      'sample.tsx:12 :',
    ]);
  });

  it('every text of the SPA, the rules and the server sets « », :, ;, ? and ! with a non-breaking space', () => {
    expect(sources.length).toBeGreaterThan(300);
    expect(sources.flatMap((file) => ordinarySpaces(file, readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('so do the pages, articles and data of content/', () => {
    expect(contentBreaking(ORDINARY_SPACE)).toEqual([]);
  });

  it('finds the straight apostrophes of French elisions, and nothing else', () => {
    const sample = [
      'const a = "Nombre d\'enfants invalide";',
      "const b = <p>L'agence vous répond</p>;",
      "const c = `vous permet d'**accepter**`;",
      "const d = 'the contract\\'s annex, it\\'s done';",
      "const e = 'Nombre d’enfants';",
      "// l'agence, in a comment",
    ].join('\n');
    expect(breaking(STRAIGHT_APOSTROPHE, 'sample.tsx', sample)).toEqual([
      'sample.tsx:1 "Nombre d\'enfants invalide"',
      "sample.tsx:2 L'agence vous répond",
      "sample.tsx:3 `vous permet d'**accepter**`",
    ]);
  });

  it('every French elision of the SPA, the rules, the server and content/ takes the apostrophe ’', () => {
    expect(sources.flatMap((file) => breaking(STRAIGHT_APOSTROPHE, file, readFileSync(file, 'utf8')))).toEqual([]);
    expect(contentBreaking(STRAIGHT_APOSTROPHE)).toEqual([]);
  });

  it('finds the legal references written with an ordinary hyphen, and nothing else', () => {
    const sample = [
      "const a = 'article L224-91 du Code de la consommation';",
      'const b = <p>(articles L221-18 et R224\u20112)</p>;',
      "const c = 'article L224\u201191';",
      '// the renunciation period (L224-91), in a comment',
      "const d = 'rendez-vous L2-3 R12-4 AL224-91';",
    ].join('\n');
    expect(breaking(BREAKING_HYPHEN, 'sample.tsx', sample)).toEqual([
      "sample.tsx:1 'article L224-91 du Code de la consommation'",
      'sample.tsx:2 (articles L221-18 et R224\u20112)',
    ]);
  });

  it('every legal reference of the SPA, the rules, the server and content/ takes the non-breaking hyphen', () => {
    expect(sources.flatMap((file) => breaking(BREAKING_HYPHEN, file, readFileSync(file, 'utf8')))).toEqual([]);
    expect(contentBreaking(BREAKING_HYPHEN)).toEqual([]);
  });
});
