import { execFileSync } from 'node:child_process';

/** The files git tracks under a pattern. */
export const tracked = (pattern: string) =>
  execFileSync('git', ['ls-files', '-z', pattern], { encoding: 'utf8' }).split('\0').filter(Boolean);

/** The source files of the SPA, the shared rules and the server (tests aside): where every text a person reads is written. */
export function textSources(): string[] {
  return ['src', 'machines', 'bff']
    .flatMap((folder) => [...tracked(`${folder}/*.ts`), ...tracked(`${folder}/*.tsx`)])
    .filter((file) => !/\.test\.tsx?$/.test(file));
}

/** Each line of a file that matches `pattern`, comment lines aside, as `file:line text`. */
export function matchingLines(file: string, text: string, pattern: RegExp): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      pattern.test(line) && !/^\s*(\/\/|\*|\/\*\*|\{\/\*)/.test(line) ? [`${file}:${i + 1} ${line.trim().slice(0, 100)}`] : [],
    );
}
